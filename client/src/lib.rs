//! The typed client of askdesk's HTTP API v1, the one way programs talk to
//! an askdesk server: the terminal UI, `askdesk mcp` and hooks. The wire
//! types are the `interaction` crate's, so the client decodes exactly what
//! the server encodes; every failure is one [`Error`], which keeps what the
//! server said.
//!
//! ```no_run
//! # async fn demo(new: interaction::NewAsk) -> Result<(), client::Error> {
//! let askdesk = client::Client::builder("https://desk.example.com")
//!     .token(Some("secret-token-of-the-server".to_owned()))
//!     .ca_cert(Some("ca.pem".into()))
//!     .build()?;
//! let created = askdesk.create(&new).await?;
//! let ask = askdesk.wait(&created.id, std::time::Duration::from_secs(30)).await?;
//! # Ok(()) }
//! ```

mod builder;
mod error;
mod events;
mod list_query;

pub use builder::Builder;
pub use error::Error;
pub use events::{Event, EventStream};
pub use list_query::ListQuery;
pub use reqwest::StatusCode;

use interaction::{
    Answers, Ask, AskCreated, AskList, Decline, ErrorBody, Me, NewAsk, NewMessage, SessionMessage,
    SessionMessages, Via,
};

/// The header that names the surface a request comes from.
pub const VIA_HEADER: &str = "x-askdesk-via";
use reqwest::{Method, RequestBuilder, Response};
use serde::de::DeserializeOwned;
use std::time::Duration;

/// How long a connection may take to open.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a call that does not wait may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// How much longer than its `wait` a long poll may take before the client
/// gives up on the server.
const WAIT_MARGIN: Duration = Duration::from_secs(30);
/// How long [`Client::is_up`] waits for an answer.
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// A connection to one askdesk server. Cloning is cheap and shares the
/// connection pool.
#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    token: Option<String>,
    via: Option<Via>,
}

impl Client {
    /// Settings for a client of the server at `base`, e.g.
    /// `http://127.0.0.1:3000`.
    pub fn builder(base: impl Into<String>) -> Builder {
        Builder::new(base.into())
    }

    /// The server's URL, without a trailing slash.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// This client (the same connections and token), its calls saying they
    /// come from `via` (see [`Builder::via`]).
    pub fn speaking_for(&self, via: Option<Via>) -> Self {
        Self {
            via,
            ..self.clone()
        }
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(via) = self.via {
            request = request.header(VIA_HEADER, via.as_str());
        }
        match &self.token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
    }

    /// Sends `request`, returning the reply when its status is a success
    /// and the server's error otherwise.
    async fn reply(&self, request: RequestBuilder) -> Result<Response, Error> {
        let response = request
            .send()
            .await
            .map_err(|e| Error::transport(&self.base, e))?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let body = response.bytes().await.ok();
        let body = body.and_then(|b| serde_json::from_slice::<ErrorBody>(&b).ok());
        Err(Error::from_reply(status, body))
    }

    async fn call<T: DeserializeOwned>(&self, request: RequestBuilder) -> Result<T, Error> {
        let response = self.reply(request).await?;
        let status = response.status();
        let bytes = response
            .bytes()
            .await
            .map_err(|e| Error::transport(&self.base, e))?;
        serde_json::from_slice(&bytes).map_err(|e| Error::Unreadable {
            status,
            detail: e.to_string(),
        })
    }

    /// Whether an askdesk server answers at the base URL.
    pub async fn is_up(&self) -> bool {
        let probe = self
            .http
            .get(format!("{}/api/v1/openapi.json", self.base))
            .timeout(PROBE_TIMEOUT)
            .send()
            .await;
        probe.is_ok_and(|r| r.status().is_success())
    }

    /// Who this client's token is to the desk: `GET /api/v1/me`.
    pub async fn me(&self) -> Result<Me, Error> {
        let request = self.request(Method::GET, "/api/v1/me");
        self.call(request.timeout(CALL_TIMEOUT)).await
    }

    /// Puts an ask to the human: `POST /api/v1/asks`.
    pub async fn create(&self, new: &NewAsk) -> Result<AskCreated, Error> {
        let request = self.request(Method::POST, "/api/v1/asks");
        self.call(request.json(new).timeout(CALL_TIMEOUT)).await
    }

    /// Creates the ask once per `key` (`Idempotency-Key`): the same key and
    /// ask again give the ask made the first time, never a second one.
    pub async fn create_once(&self, new: &NewAsk, key: &str) -> Result<AskCreated, Error> {
        let request = self
            .request(Method::POST, "/api/v1/asks")
            .header("idempotency-key", key);
        self.call(request.json(new).timeout(CALL_TIMEOUT)).await
    }

    /// The ask with this id: `GET /api/v1/asks/{id}`.
    pub async fn get(&self, id: &str) -> Result<Ask, Error> {
        let request = self.request(Method::GET, &ask_path(id, ""));
        self.call(request.timeout(CALL_TIMEOUT)).await
    }

    /// The ask once it has ended, or after `wait` with it still pending:
    /// `GET /api/v1/asks/{id}?wait=N` (whole seconds; the server caps it).
    pub async fn wait(&self, id: &str, wait: Duration) -> Result<Ask, Error> {
        let path = format!("{}?wait={}", ask_path(id, ""), wait.as_secs());
        let request = self.request(Method::GET, &path);
        self.call(request.timeout(wait + WAIT_MARGIN)).await
    }

    /// Answers the ask: `POST /api/v1/asks/{id}/answers`.
    pub async fn answer(&self, id: &str, answers: &Answers) -> Result<Ask, Error> {
        let request = self.request(Method::POST, &ask_path(id, "/answers"));
        self.call(request.json(answers).timeout(CALL_TIMEOUT)).await
    }

    /// Declines the ask: `POST /api/v1/asks/{id}/decline`.
    pub async fn decline(&self, id: &str, decline: &Decline) -> Result<Ask, Error> {
        let request = self.request(Method::POST, &ask_path(id, "/decline"));
        self.call(request.json(decline).timeout(CALL_TIMEOUT)).await
    }

    /// Writes into the session of the agent that made the ask:
    /// `POST /api/v1/asks/{id}/messages`.
    pub async fn message(&self, id: &str, message: &NewMessage) -> Result<SessionMessage, Error> {
        let request = self.request(Method::POST, &ask_path(id, "/messages"));
        self.call(request.json(message).timeout(CALL_TIMEOUT)).await
    }

    /// The messages to `session` after number `after`, waiting up to
    /// `wait` for one: `GET /api/v1/sessions/{session}/messages`.
    pub async fn messages(
        &self,
        session: &str,
        after: u64,
        wait: Duration,
    ) -> Result<SessionMessages, Error> {
        let path = format!(
            "/api/v1/sessions/{}/messages?after={after}&wait={}",
            encode(session),
            wait.as_secs()
        );
        let request = self.request(Method::GET, &path);
        self.call(request.timeout(wait + WAIT_MARGIN)).await
    }

    /// Withdraws the ask: `DELETE /api/v1/asks/{id}`. An ask that had
    /// already ended is an [`Error::Finished`].
    pub async fn cancel(&self, id: &str) -> Result<Ask, Error> {
        let request = self.request(Method::DELETE, &ask_path(id, ""));
        self.call(request.timeout(CALL_TIMEOUT)).await
    }

    /// One page of the asks, newest first:
    /// `GET /api/v1/asks?status=&agent=&q=&limit=&cursor=&after=&wait=`.
    pub async fn list(&self, query: ListQuery) -> Result<AskList, Error> {
        let path = format!("/api/v1/asks{}", query.query_string());
        let timeout = query.wait.unwrap_or_default() + WAIT_MARGIN;
        self.call(self.request(Method::GET, &path).timeout(timeout))
            .await
    }

    /// Every ask the query lets through, newest first: its first page (as
    /// [`Client::list`], waiting if it says so) and then each next one, at
    /// the first page's version.
    pub async fn list_all(&self, query: ListQuery) -> Result<AskList, Error> {
        let mut all = self.list(query.clone()).await?;
        let more = ListQuery {
            after: None,
            wait: None,
            ..query
        };
        while let Some(cursor) = all.next.take() {
            let page = self.list(more.clone().from_cursor(cursor)).await?;
            all.asks.extend(page.asks);
            all.next = page.next;
        }
        Ok(all)
    }

    /// Every ask created or finished from now on: `GET /api/v1/events`.
    /// With `last_event_id` (an [`EventStream::last_event_id`] of an
    /// earlier stream), the events missed since then come first, or an
    /// [`Event::Reset`] when the server no longer knows them.
    pub async fn events(&self, last_event_id: Option<&str>) -> Result<EventStream, Error> {
        let mut request = self
            .request(Method::GET, "/api/v1/events")
            .header(reqwest::header::ACCEPT, "text/event-stream");
        if let Some(id) = last_event_id {
            request = request.header("last-event-id", id);
        }
        let response = self.reply(request).await?;
        Ok(EventStream::new(response, self.base.clone(), last_event_id))
    }
}

/// `text` percent-encoded but for unreserved characters: a path segment
/// or a query value that cannot leave its place.
fn encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'~') {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

/// The path of an ask (and of one of its calls), the id percent-encoded so
/// no id can reach another endpoint.
fn ask_path(id: &str, call: &str) -> String {
    format!("/api/v1/asks/{}{call}", encode(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ask_ids_cannot_leave_their_path() {
        assert_eq!(ask_path("abc-1", "/answers"), "/api/v1/asks/abc-1/answers");
        assert_eq!(ask_path("../events", ""), "/api/v1/asks/%2E%2E%2Fevents");
    }
}

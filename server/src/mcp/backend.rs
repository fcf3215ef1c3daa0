//! Where `ask_user` puts its asks: this process's own desk, or another
//! askdesk server over its HTTP API (for `askdesk mcp` when a server is
//! already running).

use desk::{Desk, DeskError};
use interaction::{Ask, AskCreated, ErrorBody, NewAsk, Problem};
use reqwest::StatusCode;
use std::time::Duration;

/// The asks' home.
#[derive(Clone)]
pub enum Backend {
    /// The desk of this process.
    Local(Desk),
    /// Another askdesk server.
    Remote(Remote),
}

/// Why the backend did not do what was asked.
#[derive(Debug)]
pub enum Refusal {
    /// The questions broke rules of the `interaction` crate.
    Invalid(Vec<Problem>),
    /// Anything else, said for a person.
    Failed(String),
}

impl Refusal {
    /// What went wrong, in a sentence.
    pub fn message(&self) -> String {
        match self {
            Self::Invalid(problems) => format!("{} problem(s) with the input", problems.len()),
            Self::Failed(message) => message.clone(),
        }
    }
}

fn from_desk(error: DeskError) -> Refusal {
    match error {
        DeskError::Invalid(problems) => Refusal::Invalid(problems.0),
        other => Refusal::Failed(other.to_string()),
    }
}

impl Backend {
    /// Creates the ask.
    pub async fn create(&self, new: NewAsk) -> Result<AskCreated, Refusal> {
        match self {
            Self::Local(desk) => desk.create(new).await.map_err(from_desk),
            Self::Remote(remote) => remote.create(new).await,
        }
    }

    /// The ask once it has ended, or after `wait` with it still pending.
    pub async fn wait(&self, id: &str, wait: Duration) -> Result<Ask, Refusal> {
        match self {
            Self::Local(desk) => desk.wait(id, wait).await.map_err(from_desk),
            Self::Remote(remote) => remote.wait(id, wait).await,
        }
    }

    /// Cancels the ask if it is still pending.
    pub async fn cancel(&self, id: &str) -> Result<(), Refusal> {
        match self {
            Self::Local(desk) => match desk.cancel(id).await {
                Ok(_) | Err(DeskError::Finished(_) | DeskError::Gone(_)) => Ok(()),
                Err(e) => Err(from_desk(e)),
            },
            Self::Remote(remote) => remote.cancel(id).await,
        }
    }
}

/// An askdesk server reached over HTTP API v1.
#[derive(Clone)]
pub struct Remote {
    client: reqwest::Client,
    base: String,
    token: Option<String>,
}

impl Remote {
    /// A client for the server at `base` (e.g. `http://127.0.0.1:3000`),
    /// sending `token` as a bearer token when set.
    pub fn new(base: &str, token: Option<String>) -> Result<Self, Refusal> {
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .build()
            .map_err(|e| Refusal::Failed(format!("cannot make an HTTP client: {e}")))?;
        Ok(Self {
            client,
            base: base.trim_end_matches('/').to_owned(),
            token,
        })
    }

    /// Whether an askdesk server answers at the base URL.
    pub async fn is_up(&self) -> bool {
        let probe = self
            .client
            .get(format!("{}/api/v1/openapi.json", self.base))
            .timeout(Duration::from_secs(3))
            .send()
            .await;
        probe.is_ok_and(|r| r.status().is_success())
    }

    fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        let request = self.client.request(method, format!("{}{path}", self.base));
        match &self.token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
    }

    async fn send<T: serde::de::DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<T, Refusal> {
        let response = request
            .send()
            .await
            .map_err(|e| Refusal::Failed(format!("cannot reach askdesk at {}: {e}", self.base)))?;
        let status = response.status();
        if status.is_success() {
            return response
                .json()
                .await
                .map_err(|e| Refusal::Failed(format!("askdesk sent an unreadable reply: {e}")));
        }
        let body: Option<ErrorBody> = response.json().await.ok();
        Err(match (status, body) {
            (StatusCode::UNPROCESSABLE_ENTITY, Some(body)) if !body.problems.is_empty() => {
                Refusal::Invalid(body.problems)
            }
            (_, Some(body)) => {
                Refusal::Failed(format!("askdesk refused ({status}): {}", body.message))
            }
            (_, None) => Refusal::Failed(format!("askdesk refused ({status})")),
        })
    }

    async fn create(&self, new: NewAsk) -> Result<AskCreated, Refusal> {
        self.send(
            self.request(reqwest::Method::POST, "/api/v1/asks")
                .json(&new),
        )
        .await
    }

    async fn wait(&self, id: &str, wait: Duration) -> Result<Ask, Refusal> {
        let request = self
            .request(
                reqwest::Method::GET,
                &format!("/api/v1/asks/{id}?wait={}", wait.as_secs()),
            )
            .timeout(wait + Duration::from_secs(30));
        self.send(request).await
    }

    async fn cancel(&self, id: &str) -> Result<(), Refusal> {
        let response = self
            .request(reqwest::Method::DELETE, &format!("/api/v1/asks/{id}"))
            .send()
            .await
            .map_err(|e| Refusal::Failed(format!("cannot reach askdesk at {}: {e}", self.base)))?;
        match response.status() {
            s if s.is_success() || s == StatusCode::CONFLICT || s == StatusCode::GONE => Ok(()),
            s => Err(Refusal::Failed(format!("askdesk refused to cancel ({s})"))),
        }
    }
}

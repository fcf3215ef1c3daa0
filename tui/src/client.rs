//! The HTTP API of an askdesk server, as the terminal UI uses it.

use crate::model::Refusal;
use interaction::{Answers, Ask, AskList, Decline, ErrorBody};
use reqwest::{blocking::Client as Http, StatusCode};
use std::time::Duration;

/// A connection to one server.
#[derive(Clone)]
pub struct Client {
    http: Http,
    base: String,
    token: Option<String>,
}

impl Client {
    /// A client for the server at `base`, sending `token` when set.
    pub fn new(base: &str, token: Option<String>) -> Result<Self, String> {
        let http = Http::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(None)
            .build()
            .map_err(|e| format!("cannot make an HTTP client: {e}"))?;
        Ok(Self {
            http,
            base: base.trim_end_matches('/').to_owned(),
            token,
        })
    }

    fn request(&self, method: reqwest::Method, path: &str) -> reqwest::blocking::RequestBuilder {
        let request = self.http.request(method, format!("{}{path}", self.base));
        match &self.token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
    }

    fn send<T: serde::de::DeserializeOwned>(
        &self,
        request: reqwest::blocking::RequestBuilder,
    ) -> Result<T, Refusal> {
        let response = request
            .send()
            .map_err(|e| Refusal::Failed(format!("cannot reach askdesk at {}: {e}", self.base)))?;
        let status = response.status();
        if status.is_success() {
            return response
                .json()
                .map_err(|e| Refusal::Failed(format!("askdesk sent an unreadable reply: {e}")));
        }
        let body: Option<ErrorBody> = response.json().ok();
        Err(match (status, body) {
            (StatusCode::UNPROCESSABLE_ENTITY, Some(body)) if !body.problems.is_empty() => {
                Refusal::Invalid(body.problems)
            }
            (StatusCode::CONFLICT | StatusCode::GONE, Some(ErrorBody { ask: Some(ask), .. })) => {
                Refusal::Finished(ask)
            }
            (StatusCode::UNAUTHORIZED, _) => Refusal::Failed(
                "askdesk wants its token: pass --token or set ASKDESK_TOKEN".to_owned(),
            ),
            (_, Some(body)) => {
                Refusal::Failed(format!("askdesk refused ({status}): {}", body.message))
            }
            (_, None) => Refusal::Failed(format!("askdesk refused ({status})")),
        })
    }

    /// The pending asks, once the list has changed after version `after`
    /// (or `wait` seconds have passed).
    pub fn pending(&self, after: Option<u64>, wait: u64) -> Result<AskList, String> {
        let path = match after {
            Some(after) => format!("/api/v1/asks?status=pending&after={after}&wait={wait}"),
            None => "/api/v1/asks?status=pending".to_owned(),
        };
        self.send(self.request(reqwest::Method::GET, &path))
            .map_err(|e| refusal_text(&e))
    }

    /// The ask with this id.
    pub fn ask(&self, id: &str) -> Result<Ask, String> {
        self.send(self.request(reqwest::Method::GET, &format!("/api/v1/asks/{id}")))
            .map_err(|e| refusal_text(&e))
    }

    /// Answers the ask.
    pub fn answer(&self, id: &str, answers: &Answers) -> Result<Ask, Refusal> {
        self.send(
            self.request(reqwest::Method::POST, &format!("/api/v1/asks/{id}/answers"))
                .json(answers),
        )
    }

    /// Declines the ask.
    pub fn decline(&self, id: &str, reason: Option<String>) -> Result<Ask, Refusal> {
        self.send(
            self.request(reqwest::Method::POST, &format!("/api/v1/asks/{id}/decline"))
                .json(&Decline { reason }),
        )
    }
}

fn refusal_text(refusal: &Refusal) -> String {
    match refusal {
        Refusal::Invalid(problems) => format!("{} problem(s)", problems.len()),
        Refusal::Finished(ask) => format!("the ask is {}", ask.status.as_str()),
        Refusal::Failed(message) => message.clone(),
    }
}

//! `askdesk opencode --server URL`: OpenCode's questions and permission
//! requests answered at the desk. It follows `opencode serve`'s event
//! stream for every project (`GET /global/event`, reconnecting), puts
//! each `question.asked` and `permission.asked` to the desk ([`asks`]),
//! and posts the desk's answer back in OpenCode's shape, to the project
//! the event came from. A question declined at the desk is rejected;
//! when OpenCode's own window answers first (`question.replied`,
//! `question.rejected`, `permission.replied`), the desk's ask is
//! withdrawn.
//!
//! A server that asks for a password (`OPENCODE_SERVER_PASSWORD`) is sent
//! it as OpenCode's own clients send it, by HTTP basic authentication.
//!
//! Each request's ask is made under an idempotency key of its id, so a
//! bridge that reconnects (or restarts) and catches up on the projects
//! it has seen (`GET /question`, `GET /permission`) finds the asks it
//! made rather than asking twice. Without a desk, OpenCode asks in its
//! own window as usual; the bridge keeps following and tries again with
//! the next request.

pub mod asks;

use crate::{
    backend::{Backend, BY_CLIENT_TOKEN},
    hook::Reach,
};
use asks::{OpenQuestion, PermissionAsked};
use serde_json::Value;
use std::{
    collections::{BTreeSet, HashMap},
    path::Path,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

/// How long a reply to OpenCode, or a look at what is open, may take
/// (the event stream itself has no limit).
const REPLY_TIME: Duration = Duration::from_secs(30);

/// What one of OpenCode's requests is.
#[derive(Debug, Clone)]
enum Request {
    Question(Vec<OpenQuestion>),
    Permission(PermissionAsked),
}

impl Request {
    /// The route its reply goes to, under the server.
    fn route(&self, id: &str, rejected: bool) -> String {
        match (self, rejected) {
            (Request::Question(_), false) => format!("/question/{id}/reply"),
            (Request::Question(_), true) => format!("/question/{id}/reject"),
            (Request::Permission(_), _) => format!("/permission/{id}/reply"),
        }
    }
}

/// The OpenCode server a bridge follows.
#[derive(Clone)]
pub struct Server {
    /// Its URL, such as `http://127.0.0.1:4096`.
    pub url: String,
    /// Its user and password, when it asks for them.
    pub login: Option<(String, String)>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("url", &self.url)
            .field("login", &self.login.as_ref().map(|(user, _)| user))
            .finish()
    }
}

/// The bridge between one OpenCode server and the desk.
pub struct Bridge<R> {
    desk: R,
    /// The server followed, its URL without a trailing slash.
    server: Server,
    http: reqwest::Client,
    /// The desk's asks of requests still open, by OpenCode's request id.
    open: Mutex<HashMap<String, (Backend, String)>>,
    /// The projects seen, to catch up on after a reconnection.
    directories: Mutex<BTreeSet<String>>,
}

/// Follows the OpenCode server `server` for ever, the desk found as
/// `desk` finds it.
pub async fn run<R: Reach + Send + 'static>(desk: R, server: Server) -> Result<(), String> {
    let http = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| e.to_string())?;
    let bridge = Arc::new(Bridge {
        desk,
        server: Server {
            url: server.url.trim_end_matches('/').to_owned(),
            ..server
        },
        http,
        open: Mutex::default(),
        directories: Mutex::default(),
    });
    let mut wait = Duration::from_secs(1);
    loop {
        match bridge.clone().follow().await {
            Ok(()) => wait = Duration::from_secs(1),
            Err(why) => eprintln!("askdesk opencode: {why}; again in {} s", wait.as_secs()),
        }
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(Duration::from_secs(30));
    }
}

/// The event an SSE `data:` line carries, with its project.
fn envelope(line: &str) -> Option<(Option<String>, Value)> {
    let data = line.strip_prefix("data:")?.trim();
    let value: Value = serde_json::from_str(data).ok()?;
    let directory = value["directory"].as_str().map(str::to_owned);
    Some((directory, value.get("payload")?.clone()))
}

impl<R: Reach + Send + 'static> Bridge<R> {
    /// A request to `route` on the server, with its login.
    fn request(&self, method: reqwest::Method, route: &str) -> reqwest::RequestBuilder {
        let request = self
            .http
            .request(method, format!("{}{route}", self.server.url));
        match &self.server.login {
            Some((user, password)) => request.basic_auth(user, Some(password)),
            None => request,
        }
    }

    /// Follows the event stream until it ends.
    async fn follow(self: Arc<Self>) -> Result<(), String> {
        let url = format!("{}/global/event", self.server.url);
        let mut response = self
            .request(reqwest::Method::GET, "/global/event")
            .header(reqwest::header::ACCEPT, "text/event-stream")
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| format!("cannot follow {url}: {e}"))?;
        eprintln!("askdesk opencode: following {url}");
        let mut buffer: Vec<u8> = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
            buffer.extend_from_slice(&chunk);
            while let Some(end) = buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = buffer.drain(..=end).collect();
                if let Some((directory, event)) = envelope(&String::from_utf8_lossy(&line)) {
                    self.clone().event(directory, &event);
                }
            }
        }
        Ok(())
    }

    /// One event of OpenCode's bus.
    fn event(self: Arc<Self>, directory: Option<String>, event: &Value) {
        let properties = &event["properties"];
        match event["type"].as_str().unwrap_or_default() {
            "server.connected" => {
                tokio::spawn(self.catch_up());
            }
            "question.asked" | "permission.asked" => {
                if let Some(directory) = &directory {
                    self.lock_directories().insert(directory.clone());
                }
                self.take(
                    directory,
                    event["type"] == "question.asked",
                    properties.clone(),
                );
            }
            "question.replied" | "question.rejected" | "permission.replied" => {
                let id = properties["requestID"].as_str().unwrap_or_default();
                let open = self.lock_open().remove(id);
                if let Some((backend, ask)) = open {
                    tokio::spawn(async move {
                        let _ = backend.cancel(&ask, &BY_CLIENT_TOKEN).await;
                    });
                }
            }
            _ => {}
        }
    }

    fn lock_open(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Backend, String)>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn lock_directories(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        self.directories
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// A request's properties, put to the desk in the background.
    fn take(self: Arc<Self>, directory: Option<String>, question: bool, properties: Value) {
        let id = properties["id"].as_str().unwrap_or_default().to_owned();
        let request = if question {
            serde_json::from_value(properties["questions"].clone()).map(Request::Question)
        } else {
            serde_json::from_value(properties).map(Request::Permission)
        };
        match request {
            Ok(request) if !id.is_empty() => {
                tokio::spawn(self.put(id, directory, request));
            }
            Ok(_) => eprintln!("askdesk opencode: a request without an id stays in OpenCode"),
            Err(e) => eprintln!("askdesk opencode: a request OpenCode's window keeps: {e}"),
        }
    }

    /// After a reconnection: the requests still open in every project
    /// seen (asked again under their keys, so found, not repeated).
    async fn catch_up(self: Arc<Self>) {
        let directories: Vec<String> = self.lock_directories().iter().cloned().collect();
        for directory in directories {
            for (route, question) in [("/question", true), ("/permission", false)] {
                let listed = self
                    .request(reqwest::Method::GET, route)
                    .timeout(REPLY_TIME)
                    .query(&[("directory", &directory)])
                    .send()
                    .await
                    .and_then(reqwest::Response::error_for_status);
                let Ok(listed) = listed else { continue };
                let Ok(Value::Array(open)) = listed.json::<Value>().await else {
                    continue;
                };
                for properties in open {
                    let id = properties["id"].as_str().unwrap_or_default().to_owned();
                    if !self.lock_open().contains_key(&id) {
                        self.clone()
                            .take(Some(directory.clone()), question, properties);
                    }
                }
            }
        }
    }

    /// Puts request `id` to the desk, waits, and replies to OpenCode
    /// unless its own window answered first.
    async fn put(self: Arc<Self>, id: String, directory: Option<String>, request: Request) {
        let agent = match directory.as_deref().and_then(|d| Path::new(d).file_name()) {
            Some(folder) => format!("OpenCode · {}", folder.to_string_lossy()),
            None => "OpenCode".to_owned(),
        };
        let (new, key) = match &request {
            Request::Question(questions) => (asks::question_ask(questions, &agent), "question"),
            Request::Permission(asked) => (asks::permission_ask(asked, &agent), "permission"),
        };
        let backend = match self.desk.reach().await {
            Ok(backend) => backend,
            Err(why) => {
                return eprintln!("askdesk opencode: no desk ({why}); OpenCode asks as usual")
            }
        };
        let key = format!("opencode:{key}:{id}");
        let created = match backend.create(new, Some(&key), &BY_CLIENT_TOKEN).await {
            Ok(created) => created,
            Err(e) => {
                return eprintln!(
                    "askdesk opencode: the desk refused {id} ({e}); OpenCode asks as usual"
                )
            }
        };
        eprintln!("askdesk opencode: {id} is also at {}", created.url);
        self.lock_open()
            .insert(id.clone(), (backend.clone(), created.id.clone()));
        let Ok(ask) = backend.ended(&created.id, &BY_CLIENT_TOKEN).await else {
            return;
        };
        // Withdrawn because OpenCode answered: nothing to send.
        if self.lock_open().remove(&id).is_none() {
            return;
        }
        let (body, rejected) = match &request {
            Request::Question(questions) => match asks::question_reply(questions, &ask) {
                Some(body) => (Some(body), false),
                None => (None, ask.status == interaction::AskStatus::Declined),
            },
            Request::Permission(_) => (asks::permission_reply(&ask), false),
        };
        if body.is_none() && !rejected {
            return;
        }
        self.reply(&request.route(&id, rejected), directory.as_deref(), body)
            .await;
    }

    /// Posts a reply to OpenCode, in the request's project.
    async fn reply(&self, route: &str, directory: Option<&str>, body: Option<Value>) {
        let mut post = self
            .request(reqwest::Method::POST, route)
            .timeout(REPLY_TIME);
        if let Some(directory) = directory {
            post = post.query(&[("directory", directory)]);
        }
        let post = match body {
            Some(body) => post.json(&body),
            None => post,
        };
        match post
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
        {
            Ok(_) => {}
            Err(e) => eprintln!("askdesk opencode: OpenCode refused the answer ({e})"),
        }
    }
}

#[cfg(test)]
mod tests;

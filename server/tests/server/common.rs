//! A server in-process: the real router over an in-memory SQLite desk,
//! driven with `tower::ServiceExt::oneshot` as a client would over HTTP.

use axum::{
    body::Body,
    http::{header, Method, Request, StatusCode},
    response::Response,
};
use desk::{Desk, SqliteStore, Store};
use http_body_util::BodyExt;
use serde_json::Value;
use server::{
    app,
    cli::{
        config::{ServeArgs, ServeSettings},
        run::{StartError, Started},
    },
    http::assets::Assets,
    AppState,
};
use std::sync::Arc;
use tower::ServiceExt;

pub const HOST: &str = "127.0.0.1:3000";
pub const TOKEN: &str = "correct-horse-battery-staple";

pub fn args(token: Option<&str>) -> ServeArgs {
    ServeArgs {
        addr: HOST.parse().expect("address"),
        database: Some(":memory:".to_owned()),
        database_connections: 10,
        database_timeout: 5,
        keep_events: desk::KEEP_EVENTS,
        keep_finished: None,
        public_url: None,
        tls_cert: None,
        tls_key: None,
        token: token.map(str::to_owned),
        allowed_hosts: Vec::new(),
        mcp_default_timeout: None,
        elicit: false,
        answer_requires_sign_in: false,
        answer_by_link: false,
        create_limit: None,
        frame_ancestors: "'self'".to_owned(),
        embed_origin: None,
        site_root: None,
        notify: Vec::new(),
        notify_secret: None,
        slack_signing_secret: None,
        web_push: None,
        remind_after: None,
        remind_max: 3,
        escalate_after: None,
        escalate: None,
        notify_give_up: 86_400,
        header_timeout: 20,
        max_connections_per_address: 512,
        max_waits_per_address: 256,
        shutdown_grace: 0,
        metrics_addr: None,
        oidc: Default::default(),
        oauth: Default::default(),
    }
}

/// A server started as `serve` starts one: `args` checked into settings,
/// then started with them.
pub async fn start(
    args: &ServeArgs,
    shutdown: tokio_util::sync::CancellationToken,
) -> Result<Started, StartError> {
    server::cli::run::start(ServeSettings::check(args.clone())?, shutdown).await
}

pub struct TestServer {
    pub router: server::App,
    pub desk: Desk,
    /// What a signal to stop cancels.
    pub shutdown: tokio_util::sync::CancellationToken,
}

impl TestServer {
    pub async fn new() -> Self {
        Self::with_store(
            Arc::new(SqliteStore::in_memory().await.expect("store")),
            None,
        )
        .await
    }

    pub async fn with_token() -> Self {
        Self::with_store(
            Arc::new(SqliteStore::in_memory().await.expect("store")),
            Some(TOKEN),
        )
        .await
    }

    pub async fn with_store(store: Arc<dyn Store>, token: Option<&str>) -> Self {
        Self::build(store, token, Assets::default()).await
    }

    /// A server whose site is `assets`.
    pub async fn with_site(assets: Assets) -> Self {
        let store = Arc::new(SqliteStore::in_memory().await.expect("store"));
        Self::build(store, None, assets).await
    }

    async fn build(store: Arc<dyn Store>, token: Option<&str>, assets: Assets) -> Self {
        Self::configured(store, args(token), assets).await
    }

    /// A server with these settings (of those an in-process router has).
    pub async fn configured(store: Arc<dyn Store>, args: ServeArgs, assets: Assets) -> Self {
        let settings = ServeSettings::check(args).expect("settings");
        let security = settings.security(settings.addr);
        let desk = Desk::open(store, security.public_url())
            .await
            .expect("desk")
            .answering_by_link(settings.link_answers);
        let shutdown = tokio_util::sync::CancellationToken::new();
        let oauth = settings.oauth.server(security.public_url());
        let router = app(AppState::new(server::Shared {
            leptos_options: settings.leptos_options(),
            desk: desk.clone(),
            security: Arc::new(security),
            mcp_default_timeout: None,
            mcp_elicit: false,
            instances: None,
            shutdown: shutdown.clone(),
            draining: shutdown.child_token(),
            page: settings.page.config(&assets),
            assets: Arc::new(assets),
            slack_signing_secret: None,
            push: match &settings.web_push {
                Some(contact) => Some(Arc::new(
                    ::notify::webpush::WebPush::open(&desk, contact)
                        .await
                        .expect("web push"),
                )),
                None => None,
            },
            create_limit: settings
                .create_limit
                .map(|n| Arc::new(server::http::limit::CreateLimit::new(n))),
            oidc: None,
            oauth,
            connector_call_limit: settings.oauth.call_limit,
        }));
        Self {
            router,
            desk,
            shutdown,
        }
    }

    pub async fn send(&self, request: Request<Body>) -> Response {
        self.router
            .clone()
            .oneshot(request)
            .await
            .expect("response")
    }

    /// A JSON call from an agent: no Origin, no cookie.
    pub async fn json(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, HOST);
        let body = match body {
            Some(value) => {
                request = request.header(header::CONTENT_TYPE, "application/json");
                Body::from(value.to_string())
            }
            None => Body::empty(),
        };
        let response = self.send(request.body(body).expect("request")).await;
        let status = response.status();
        let text = body_text(response).await;
        let value = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
        };
        (status, value)
    }

    pub async fn create(&self, body: Value) -> String {
        let (status, created) = self.json(Method::POST, "/api/v1/asks", Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        created["id"].as_str().expect("id").to_owned()
    }

    pub async fn get_page(&self, path: &str) -> (StatusCode, String) {
        let request = Request::get(path)
            .header(header::HOST, HOST)
            .body(Body::empty())
            .expect("request");
        let response = self.send(request).await;
        (response.status(), body_text(response).await)
    }
}

pub async fn body_text(response: Response) -> String {
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    String::from_utf8(bytes.to_vec()).expect("utf-8 body")
}

/// The request used throughout: a multi-select, a single-select and an
/// optionless question.
pub fn release_ask() -> Value {
    serde_json::json!({
        "title": "Release plan",
        "agent": "test-agent",
        "questions": [
            {"id": "features", "header": "Features", "question": "Which features should ship?",
             "multiSelect": true,
             "options": [{"label": "Auth", "description": "Sign-in with a token"},
                         {"label": "Logging"}, {"label": "Metrics"}]},
            {"id": "db", "header": "Database", "question": "Which database?",
             "options": [{"label": "SQLite"}, {"label": "PostgreSQL"}]},
            {"id": "notes", "question": "Anything else?"}
        ]
    })
}

/// A complete, valid answer to [`release_ask`] with a combined item.
pub fn combined_answers() -> Value {
    serde_json::json!({"answers": [
        {"id": "features", "selected": ["Logging", "Auth"], "custom": "Rate limiting"},
        {"id": "db", "selected": ["SQLite"]},
        {"id": "notes", "selected": [], "custom": "Ship on Friday"}
    ]})
}

/// Acting through the API with every right.
pub fn by_api() -> desk::Actor {
    desk::Actor::new(desk::Caller::Unnamed, interaction::Via::Api)
}

/// A loopback port nothing listens on right now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

//! The askdesk server: renders and hydrates the pages, serves the HTTP API,
//! MCP and the site's static files, and tells people of asks — all through
//! one [`Desk`].
//!
//! Its rooms, each using only the ones after it: [`cli`] (the commands and
//! their settings) → [`routes`] (what each path does; `/mcp` serves the
//! `agents` crate's MCP server) → [`http`] (replies, the guard, identity,
//! limits, serving) → the desk. The `notify` crate delivers notifications
//! and is started by [`cli`]. `main.rs` only parses the command line;
//! tests drive the same router in-process.

pub mod cli;
pub mod http;
pub mod metrics;
pub mod oidc;
pub mod routes;

pub use http::App;
pub use routes::app;

use axum::extract::FromRef;
use desk::Desk;
use http::security::Security;
use leptos::prelude::LeptosOptions;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Everything a request handler may need: one `Arc`, so that what each
/// request clones into its handler's and extractors' futures is a pointer,
/// not the settings.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    /// The state of a server with these parts.
    pub fn new(shared: Shared) -> Self {
        Self(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What [`AppState`] holds.
pub struct Shared {
    /// Where the compiled site lives and what it is called.
    pub leptos_options: LeptosOptions,
    /// The asks.
    pub desk: Desk,
    /// Host, origin and token checks.
    pub security: Arc<Security>,
    /// How long MCP asks without their own timeout wait, in seconds.
    pub mcp_default_timeout: Option<u64>,
    /// Whether `ask_user` also asks in the MCP client's own UI.
    pub mcp_elicit: bool,
    /// The PostgreSQL database several instances share, if that is the
    /// store: MCP sessions are kept there.
    pub instances: Option<desk::PostgresStore>,
    /// Cancelled when the server stops; ends long-lived MCP streams.
    pub shutdown: CancellationToken,
    /// Cancelled when the server is told to stop, before it stops (for
    /// `--shutdown-grace`), and with `shutdown`: `/readyz` answers 503
    /// from then on.
    pub draining: CancellationToken,
    /// Settings the pages need (frame ancestors, the embed origin, the
    /// stylesheet's name).
    pub page: app::PageConfig,
    /// The site's static files.
    pub assets: Arc<http::assets::Assets>,
    /// Slack's signing secret: Slack's button presses are taken only with
    /// it, and only when signed with it.
    pub slack_signing_secret: Option<Arc<str>>,
    /// The server's Web Push identity, with `--web-push`.
    pub push: Option<Arc<notify::webpush::WebPush>>,
    /// How many asks each agent may create a minute, with `--create-limit`.
    pub create_limit: Option<Arc<http::limit::CreateLimit>>,
    /// The identity provider people sign in with, with `--oidc-issuer`.
    pub oidc: Option<Arc<oidc::Oidc>>,
    /// askdesk as the OAuth authorization server of `/mcp`.
    pub oauth: Arc<oauth::AuthServer>,
    /// How long a connector's tool call waits before it returns the ask's
    /// id (`--oauth-call-seconds`).
    pub connector_call_limit: std::time::Duration,
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}

impl FromRef<AppState> for Arc<Security> {
    fn from_ref(state: &AppState) -> Self {
        state.security.clone()
    }
}

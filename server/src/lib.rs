//! The askdesk server: renders and hydrates the pages, serves the HTTP API
//! and the site's static files, and answers server-function calls — all
//! through one [`Desk`].
//!
//! `main.rs` only parses the command line and serves [`app`]; tests drive the
//! same router in-process.

pub mod access;
pub mod api;
pub mod assets;
pub mod config;
pub mod detached;
pub mod events;
pub mod hook;
pub mod limit;
pub mod listing;
mod mac;
pub mod mcp;
pub mod notify;
pub mod page;
pub mod people;
pub mod push;
pub mod run;
pub mod security;
pub mod serving;
pub mod slack;
pub mod waiting;

use axum::{
    extract::FromRef,
    routing::{get, post},
    Router,
};
use desk::Desk;
use leptos::prelude::{provide_context, LeptosOptions};
use leptos_axum::{generate_route_list, LeptosRoutes};
use security::Security;
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
    pub shared: Option<desk::PostgresStore>,
    /// Cancelled when the server stops; ends long-lived MCP streams.
    pub shutdown: CancellationToken,
    /// Settings the pages need (frame ancestors, the embed origin, the
    /// stylesheet's name).
    pub page: app::PageConfig,
    /// The site's static files.
    pub assets: Arc<assets::Assets>,
    /// Slack's signing secret: Slack's button presses are taken only with
    /// it, and only when signed with it.
    pub slack_signing_secret: Option<Arc<str>>,
    /// The server's Web Push identity, with `--web-push`.
    pub push: Option<Arc<push::WebPush>>,
    /// How many asks each agent may create a minute, with `--create-limit`.
    pub create_limit: Option<Arc<access::CreateLimit>>,
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

/// A path, or every path under a prefix, that anyone may reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Public {
    /// Exactly this path.
    Exact(&'static str),
    /// Every path starting with this prefix.
    Under(&'static str),
}

/// What anyone may reach when the server has a token; every other path
/// needs it (a bearer token, or the signed-in cookie for pages). Ask
/// pages, their plain form post and their event stream are open because
/// the unguessable id in the link is the capability to answer; the same
/// holds for the ask page's server functions, which [`is_public`] adds by
/// their types so that renaming one cannot open or close it by accident.
pub const PUBLIC: &[Public] = &[
    Public::Under("/asks/"),
    Public::Under("/pkg/"),
    Public::Exact("/favicon.svg"),
    // What installs the desk and shows its pushes: static, no secrets.
    Public::Exact("/manifest.webmanifest"),
    Public::Exact("/icon-192.png"),
    Public::Exact("/icon-512.png"),
    Public::Exact("/sw.js"),
    Public::Exact("/push.js"),
    Public::Exact("/signin"),
    Public::Under("/lang/"),
    Public::Exact("/api/v1/openapi.json"),
    // A notification's button: its action token is the capability.
    Public::Under("/api/v1/actions/"),
    // Slack's button presses: each is signed with Slack's signing secret.
    Public::Exact("/integrations/slack/actions"),
];

/// Whether `path` is one of the site's files, the same for everyone: no
/// handler of it asks who calls, so the guard does not look.
pub fn is_site_file(path: &str) -> bool {
    path.starts_with("/pkg/")
        || [
            "/favicon.svg",
            "/manifest.webmanifest",
            "/icon-192.png",
            "/icon-512.png",
            "/sw.js",
            "/push.js",
        ]
        .contains(&path)
}

/// Whether anyone may reach `path`, token or not.
pub fn is_public(path: &str) -> bool {
    PUBLIC.iter().any(|public| match public {
        Public::Exact(exact) => path == *exact,
        Public::Under(prefix) => path.starts_with(prefix),
    }) || app::rpc::link_capability_paths().contains(&path)
}

/// The app's pages, listed once per process. Listing renders the app in a
/// special mode; done while another router of the same process renders a
/// page (tests build one router each, in parallel), it now and then left
/// that page never finishing. The list never changes, so one is enough.
fn route_list() -> Vec<leptos_axum::AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<leptos_axum::AxumRouteListing>> =
        std::sync::OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(app::App)).clone()
}

/// The ask page's path, as axum writes it.
const ASK_PAGE: &str = "/asks/{id}";

/// The whole HTTP application: pages, API, server functions, static files,
/// behind the security checks.
pub fn app(state: AppState) -> Router {
    // The ask page has a handler of its own, which reads the ask before
    // rendering the page (`page::get_page`).
    let routes: Vec<_> = route_list()
        .into_iter()
        .filter(|route| route.path() != ASK_PAGE)
        .collect();
    let desk = state.desk.clone();
    let page = state.page.clone();
    let context = move || {
        provide_context(desk.clone());
        provide_context(page.clone());
    };
    Router::new()
        .merge(api::routes())
        .merge(events::routes())
        .nest_service("/mcp", mcp::http_service(&state))
        .route(ASK_PAGE, get(page::get_page).post(page::post_form))
        .route("/signin", post(access::sign_in))
        .route("/signout", post(access::sign_out))
        .route("/integrations/slack/actions", post(slack::actions))
        .route("/lang/{code}", get(page::switch_language))
        .leptos_routes_with_context(&state, routes, context, {
            let options = state.leptos_options.clone();
            move || app::shell(options.clone())
        })
        .fallback(page::static_or_not_found)
        // Pages and JSON, gzip when the client accepts it (an ask page's
        // 8 KB of HTML is 2 KB on a phone's link). Not the site's files,
        // which carry their build-time encoding already, nor event streams.
        .layer(tower_http::compression::CompressionLayer::new())
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(access::Gate {
                security: state.security.clone(),
                desk: state.desk.clone(),
                people: Arc::default(),
            }),
            security::guard,
        ))
        // Outermost: a long-poll waits with none of the layers' futures.
        .layer(waiting::WaitOutsideLayer)
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ask_page_handler_takes_the_path_the_app_routes_the_ask_page_at() {
        let paths: Vec<_> = route_list().iter().map(|r| r.path().to_owned()).collect();
        assert!(paths.iter().any(|p| p == ASK_PAGE), "{paths:?}");
    }
}

//! The HTTP vocabulary the routes and MCP share: the replies and errors,
//! the security settings and the guard every request passes, who a request
//! is, rate limits, long-poll waiting, the connection loop and what one
//! address may hold of it, https and the site's files. Nothing here knows a route.

pub mod assets;
pub mod crowding;
pub mod gate;
pub mod guard;
pub mod identity;
pub mod limit;
pub mod public;
pub mod recheck;
pub mod reply;
pub mod security;
pub mod serving;
pub mod tls;
pub mod trace;
pub mod waiting;

/// The whole HTTP application as one service, its layers applied once
/// around its routes: what the server serves and tests call.
pub type App = tower::util::BoxCloneSyncService<
    axum::extract::Request,
    axum::response::Response,
    std::convert::Infallible,
>;

//! `/mcp`: the streamable HTTP transport over the server's own desk
//! (`agents::mcp`), its sessions kept for every instance on PostgreSQL
//! ([`sessions`]) and each bound to the credential that opened it
//! ([`holders`]).

pub mod holders;
mod sessions;

use crate::AppState;
use agents::mcp::{hosted, AskDesk, Backend};
use rmcp::transport::streamable_http_server::{
    session::local::LocalSessionManager, StreamableHttpServerConfig, StreamableHttpService,
};
use std::{sync::Arc, time::Duration};

/// The streamable HTTP transport for `/mcp`, over the server's own desk.
/// `http::guard` has checked Host, Origin and the token before a
/// request gets here.
pub fn http_service(state: &AppState) -> StreamableHttpService<AskDesk, LocalSessionManager> {
    let handler = AskDesk::new(
        Backend::Local(state.desk.clone()),
        state.mcp_default_timeout,
    )
    .eliciting(state.mcp_elicit)
    .limiting(state.create_limit.clone())
    .sharing(state.instances.clone())
    .showing(hosted::View::of(state.assets.clone()))
    // Waiting calls are told to come back when the drain begins, while
    // their replies can still be sent (`--shutdown-grace`).
    .stopping_with(state.draining.clone());
    let mut config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .with_cancellation_token(state.shutdown.child_token());
    // On PostgreSQL, sessions are kept for every instance: a client's next
    // request may reach another one.
    if let Some(shared) = &state.instances {
        config.session_store = Some(Arc::new(sessions::SharedSessions(shared.clone())));
    }
    let mut sessions = LocalSessionManager::default();
    // A call may wait days for a human, sending nothing when the client
    // asked for no progress; rmcp's default 5-minute idle limit would end
    // the session under it.
    sessions.session_config.keep_alive =
        Some(Duration::from_secs(interaction::MAX_TIMEOUT_SECONDS));
    StreamableHttpService::new(move || Ok(handler.clone()), Arc::new(sessions), config)
}

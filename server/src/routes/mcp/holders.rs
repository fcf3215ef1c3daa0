//! Each MCP session belongs to the credential that opened it: its id,
//! which rmcp makes at `initialize`, is recorded (by digest) with who
//! opened it, and a request naming it with any other credential gets the
//! reply an unknown session gets, `404`. Kept in the database, so every
//! instance knows.

use axum::{
    body::Body,
    extract::{Request, State},
    http::{HeaderValue, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
};
use desk::{AskedBy, Caller, Desk};

/// The header that carries a session's id, both ways.
const SESSION_HEADER: &str = "mcp-session-id";

/// How long a session's holder is kept: as long as rmcp keeps an idle
/// session (`--mcp` sessions live while a call may wait for a human).
const KEEP_MS: i64 = (interaction::MAX_TIMEOUT_SECONDS as i64) * 1000 * 2;

/// Who holds what `caller` opens: their name, or `""` for a caller with
/// every right.
fn holder(caller: &Caller) -> String {
    AskedBy::of(caller).scope().to_owned()
}

/// What rmcp answers for a session it does not know, word for word, so a
/// session held by another credential is indistinguishable from none.
fn unknown_session() -> Response {
    (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response()
}

/// The middleware in front of `/mcp`: refuses a session held by another
/// credential, and records the holder of each session opened.
pub async fn held(State(desk): State<Desk>, request: Request<Body>, next: Next) -> Response {
    // The guard has put the caller on every request that gets here.
    let Some(caller) = request.extensions().get::<Caller>().cloned() else {
        return unknown_session();
    };
    let holder = holder(&caller);
    let named = request
        .headers()
        .get(SESSION_HEADER)
        .map(|id| desk::digest(&String::from_utf8_lossy(id.as_bytes())));
    if let Some(digest) = &named {
        match desk.mcp_session_holder(digest).await {
            Ok(Some(held)) if held == holder => {}
            Ok(_) => {
                tracing::info!(
                    session = %desk::Logged(digest),
                    "an MCP session named by a credential that did not open it"
                );
                return unknown_session();
            }
            Err(e) => return crate::http::reply::ApiError::from(e).into_response(),
        }
    }
    let response = next.run(request).await;
    if named.is_none() {
        if let Some(opened) = response.headers().get(SESSION_HEADER) {
            if let Err(refused) = record(&desk, opened, &holder).await {
                return refused;
            }
        }
    }
    response
}

/// Records that the session `opened` belongs to `holder`; a failure is
/// the reply instead, so no session goes out unheld.
async fn record(desk: &Desk, opened: &HeaderValue, holder: &str) -> Result<(), Response> {
    let digest = desk::digest(&String::from_utf8_lossy(opened.as_bytes()));
    let now = desk.now_ms();
    desk.hold_mcp_session(&digest, holder, now, now.saturating_sub(KEEP_MS))
        .await
        .map_err(|e| crate::http::reply::ApiError::from(e).into_response())?;
    tracing::info!(session = %desk::Logged(&digest), "an MCP session opened");
    Ok(())
}

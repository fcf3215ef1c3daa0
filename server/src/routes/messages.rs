//! Messages into an agent's running session: the person answering an ask
//! writes (`POST /api/v1/asks/{id}/messages`, or the ask page's plain
//! form), and the session reads them in order, waiting for the next
//! (`GET /api/v1/sessions/{session}/messages`): `askdesk mcp` passes each
//! into Claude Code's session through its channel.

use super::openapi::described::Status;
use crate::{
    http::{
        identity::ApiVia,
        reply::{ApiError, JsonBody, QueryParams},
        waiting::wait_seconds,
    },
    AppState,
};
use axum::{
    extract::{Extension, Path, State},
    Json,
};
use desk::{Actor, Caller};
use interaction::{AskPath, NewMessage, SessionMessage, SessionMessages, SessionPath};
use serde::Deserialize;

/// `POST /api/v1/asks/{id}/messages`: written as the caller may answer.
pub(super) async fn write(
    State(state): State<AppState>,
    Path(AskPath { id }): Path<AskPath>,
    Extension(caller): Extension<Caller>,
    ApiVia(via): ApiVia,
    JsonBody(message): JsonBody<NewMessage>,
) -> Result<Status<201, SessionMessage>, ApiError> {
    let by = Actor::new(caller, via);
    Ok(Status(state.desk.message(&id, message, &by).await?))
}

/// What `GET /api/v1/sessions/{session}/messages` reads of its query.
#[derive(Deserialize, schemars::JsonSchema)]
pub(crate) struct ReadQuery {
    #[schemars(range(max = u64::MAX))]
    after: Option<u64>,
    #[schemars(with = "Option<u32>", extend("default" = 0))]
    wait: Option<String>,
}

/// `GET /api/v1/sessions/{session}/messages`: for the agent whose session
/// it is (and admins).
pub(super) async fn read(
    State(state): State<AppState>,
    Path(SessionPath { session }): Path<SessionPath>,
    QueryParams(query): QueryParams<ReadQuery>,
    Extension(caller): Extension<Caller>,
) -> Result<Json<SessionMessages>, ApiError> {
    caller.may_create()?;
    if !interaction::is_session(&session) {
        return Err(ApiError::Body(
            axum::http::StatusCode::NOT_FOUND,
            format!(
                "there is no session {session:?}: a session's name is 1 to 64 letters, digits, \
                 - or _, as its asks carry it in `session`"
            ),
        ));
    }
    let after = query.after.unwrap_or_default();
    let wait = wait_seconds(query.wait.as_deref())?;
    // Another agent's session is not found.
    let read = tokio::select! {
        read = state.desk.messages(&session, after, wait, &caller) => read?,
        // A stopping server answers what there is: the session comes back.
        () = state.shutdown.cancelled() => {
            state.desk.messages(&session, after, None, &caller).await?
        }
    };
    Ok(Json(read))
}

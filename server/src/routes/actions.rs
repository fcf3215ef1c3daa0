//! `POST /api/v1/actions/{id}`: a notification's button answers with its
//! option, by the action token the notification carried.

use crate::{
    http::reply::{ApiError, JsonBody},
    AppState,
};
use axum::{
    extract::{Path, State},
    Json,
};
use interaction::{Ask, AskPath, Via};
use serde::Deserialize;

/// What a notification's button sends: the option it stands for and its
/// action token.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Action {
    /// The option's label.
    label: String,
    /// The action token the notification carried.
    token: String,
}

/// `POST /api/v1/actions/{id}`: a notification's button answers with its
/// option. The token is the capability (no session, no bearer token).
pub(super) async fn act(
    State(state): State<AppState>,
    Path(AskPath { id }): Path<AskPath>,
    JsonBody(action): JsonBody<Action>,
) -> Result<Json<Ask>, ApiError> {
    // ntfy's buttons and browsers' push notifications post here; Slack's
    // come through its own signed endpoint.
    let ask = state
        .desk
        .answer_by_action(&[Via::Ntfy, Via::Push], &id, &action.label, &action.token)
        .await?;
    Ok(Json(ask))
}

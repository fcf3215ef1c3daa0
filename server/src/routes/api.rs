//! HTTP API v1: JSON in and out, every error a JSON [`ErrorBody`] with a
//! message a person can act on. The handlers only decode and encode; the
//! [`Desk`] does the work, as it does for the answering page.

use crate::{
    http::{
        guard::Recheck,
        reply::{ApiError, JsonBody, QueryParams, MAX_BODY_BYTES},
        waiting::{wait_or_stop, wait_seconds},
    },
    AppState,
};
use axum::{
    body::Bytes,
    extract::{rejection::BytesRejection, Extension, Path, Request, State},
    http::{header::LOCATION, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Router,
};
use desk::{Actor, Caller, DeskError, Watch};
use interaction::{Answers, Decline, IdempotencyKey, NewAsk, Via};
use serde::Deserialize;

/// The API's routes, under `/api/v1`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/asks",
            post(create)
                .get(super::listing::list)
                .fallback(wrong_method),
        )
        .route(
            "/api/v1/asks/{id}",
            get(read).delete(cancel).fallback(wrong_method),
        )
        .route(
            "/api/v1/asks/{id}/answers",
            post(answer).fallback(wrong_method),
        )
        .route(
            "/api/v1/asks/{id}/decline",
            post(decline).fallback(wrong_method),
        )
        .route("/api/v1/actions/{id}", post(act).fallback(wrong_method))
        .route("/api/v1/me", get(me).fallback(wrong_method))
        .route(
            "/api/v1/push/key",
            get(super::push::key).fallback(wrong_method),
        )
        .route(
            "/api/v1/push/subscriptions",
            post(super::push::subscribe)
                .delete(super::push::unsubscribe)
                .fallback(wrong_method),
        )
        .route("/api/v1/openapi.json", get(openapi).fallback(wrong_method))
        .route("/api/{*rest}", axum::routing::any(unknown))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES))
}

/// The header that makes `POST /api/v1/asks` idempotent.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";

async fn create(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    JsonBody(new): JsonBody<NewAsk>,
) -> Result<Response, ApiError> {
    caller.may_create()?;
    if let Some(limit) = &state.create_limit {
        if let Err(wait) = limit.take(&caller) {
            return Ok(crate::http::limit::too_many_asks(wait));
        }
    }
    let key = headers
        .get(IDEMPOTENCY_KEY)
        .map(|value| {
            let text = value.to_str().unwrap_or("\u{fffd}");
            IdempotencyKey::parse(text, "Idempotency-Key")
                .map_err(|p| ApiError::Desk(DeskError::Invalid(p)))
        })
        .transpose()?;
    // With a key, the same body again gets the ask made the first time
    // (200), never a second one.
    let (created, status) = match key {
        Some(key) => match state.desk.create_once(new, &key, "Idempotency-Key").await? {
            (created, true) => (created, StatusCode::CREATED),
            (created, false) => (created, StatusCode::OK),
        },
        None => (state.desk.create(new).await?, StatusCode::CREATED),
    };
    let mut response = (status, axum::Json(&created)).into_response();
    if let Ok(location) = HeaderValue::from_str(&format!("/api/v1/asks/{}", created.id)) {
        response.headers_mut().insert(LOCATION, location);
    }
    Ok(response)
}

#[derive(Deserialize)]
struct ReadQuery {
    wait: Option<String>,
}

async fn read(
    State(state): State<AppState>,
    Path(id): Path<String>,
    QueryParams(query): QueryParams<ReadQuery>,
    Extension(caller): Extension<Caller>,
    Extension(recheck): Extension<Recheck>,
) -> Result<Response, ApiError> {
    // A long-poll keeps only what it waits on while it waits: the reads
    // before and after are boxed, so their room is gone by then.
    let mut ended = None;
    if let Some(wait) = wait_seconds(query.wait.as_deref())? {
        match Box::pin(state.desk.watch(&id, wait)).await? {
            Watch::Over(ask) => ended = Some(ask),
            Watch::Pending(end) => {
                wait_or_stop(end.ended(), &state.shutdown).await;
                if let Err(refused) = recheck.still(&caller).await {
                    return Ok(refused);
                }
            }
        }
    }
    Box::pin(read_now(&state, &id, ended)).await
}

/// The ask (`known` already, or read now) with its notifications.
async fn read_now(
    state: &AppState,
    id: &str,
    known: Option<Box<interaction::Ask>>,
) -> Result<Response, ApiError> {
    let ask = match known {
        Some(ask) => *ask,
        None => state.desk.get(id).await?,
    };
    let deliveries = state.desk.deliveries(&ask.id).await?;
    Ok(axum::Json(AskRead { ask, deliveries }).into_response())
}

/// An ask as `GET /api/v1/asks/{id}` returns it: with its notifications,
/// when the server tells any channel.
#[derive(serde::Serialize)]
struct AskRead {
    #[serde(flatten)]
    ask: interaction::Ask,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    deliveries: Vec<interaction::Delivery>,
}

async fn answer(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    JsonBody(answers): JsonBody<Answers>,
) -> Result<Response, ApiError> {
    let by = Actor::new(caller, crate::http::identity::api_via(&headers));
    let ask = state.desk.answer(&id, answers, &by).await?;
    Ok(axum::Json(ask).into_response())
}

/// What a notification's button sends: the option it stands for and its
/// action token.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Action {
    /// The option's label.
    label: String,
    /// The action token the notification carried.
    token: String,
}

/// `POST /api/v1/actions/{id}`: a notification's button answers with its
/// option. The token is the capability (no session, no bearer token).
async fn act(
    State(state): State<AppState>,
    Path(id): Path<String>,
    JsonBody(action): JsonBody<Action>,
) -> Result<Response, ApiError> {
    // ntfy's buttons and browsers' push notifications post here; Slack's
    // come through its own signed endpoint.
    let ask = state
        .desk
        .answer_by_action(&[Via::Ntfy, Via::Push], &id, &action.label, &action.token)
        .await?;
    Ok(axum::Json(ask).into_response())
}

async fn decline(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body.map_err(|rejection| match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::Body(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than {MAX_BODY_BYTES} bytes (1 MiB)"),
        ),
        status => ApiError::Body(status, rejection.body_text()),
    })?;
    // The body is optional: no body declines without a reason.
    let decline = if body.iter().all(u8::is_ascii_whitespace) {
        Decline::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| {
            let status = if e.is_data() {
                StatusCode::UNPROCESSABLE_ENTITY
            } else {
                StatusCode::BAD_REQUEST
            };
            ApiError::Body(
                status,
                format!(
                    "the body is not the JSON this call takes: {e}; send {{\"reason\": \"…\"}} or nothing"
                ),
            )
        })?
    };
    let by = Actor::new(caller, crate::http::identity::api_via(&headers));
    let ask = state.desk.decline(&id, decline, &by).await?;
    Ok(axum::Json(ask).into_response())
}

async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    // `askdesk mcp` cancels through the API for its agent.
    let via = match crate::http::identity::api_via(&headers) {
        Via::McpClient | Via::McpApp => Via::Mcp,
        via => via,
    };
    let ask = state.desk.cancel(&id, &Actor::new(caller, via)).await?;
    Ok(axum::Json(ask).into_response())
}

/// `GET /api/v1/me`: who the credentials name, and whether answers their
/// client relays from inside its host are taken (as `ask_user` over
/// stdio asks before it offers the client's own form).
async fn me(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    // The guard lets no one through to the API without credentials.
    let me = state
        .desk
        .me(&caller)
        .await
        .ok_or_else(|| DeskError::Forbidden("this needs a token".to_owned()))?;
    Ok(axum::Json(me).into_response())
}

async fn openapi() -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        super::openapi::document(),
    )
        .into_response()
}

async fn unknown(request: Request) -> ApiError {
    ApiError::NoRoute(format!("{} {}", request.method(), request.uri().path()))
}

async fn wrong_method(request: Request) -> ApiError {
    ApiError::WrongMethod(format!("{} {}", request.method(), request.uri().path()))
}

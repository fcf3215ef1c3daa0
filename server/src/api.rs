//! HTTP API v1: JSON in and out, every error a JSON [`ErrorBody`] with a
//! message a person can act on. The handlers only decode and encode; the
//! [`Desk`] does the work, as it does for the answering page.

use crate::{
    waiting::{wait_seconds, Wait, Waited},
    AppState,
};
use axum::{
    body::Bytes,
    extract::{
        rejection::{BytesRejection, JsonRejection},
        Extension, FromRequest, Path, Query, Request, State,
    },
    http::{
        header::{LOCATION, RETRY_AFTER},
        HeaderMap, HeaderValue, StatusCode,
    },
    response::{IntoResponse, Response},
    routing::{get, post},
    Router,
};
use desk::{Actor, Caller, Desk, DeskError, StoreError, Watch};
use interaction::{Answers, Decline, ErrorBody, IdempotencyKey, NewAsk, Via};
use serde::{de::DeserializeOwned, Deserialize};

/// The most asks one page of `GET /api/v1/asks` holds (see [`crate::listing`]).
pub use crate::listing::PAGE_LIMIT;

/// The largest request body the API reads.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// The OpenAPI description of this API.
pub const OPENAPI: &str = include_str!("../openapi.json");

/// The API's routes, under `/api/v1`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/asks",
            post(create)
                .get(crate::listing::list)
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
        .route(
            "/api/v1/push/key",
            get(crate::push::key).fallback(wrong_method),
        )
        .route(
            "/api/v1/push/subscriptions",
            post(crate::push::subscribe)
                .delete(crate::push::unsubscribe)
                .fallback(wrong_method),
        )
        .route("/api/v1/openapi.json", get(openapi).fallback(wrong_method))
        .route("/api/{*rest}", axum::routing::any(unknown))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES))
}

/// Why an API call failed.
#[derive(Debug)]
pub enum ApiError {
    /// The desk refused or failed.
    Desk(DeskError),
    /// The body was not the JSON this call takes.
    Body(StatusCode, String),
    /// The query string was wrong.
    Query(String),
    /// No such endpoint.
    NoRoute(String),
    /// The endpoint exists, but not for this method.
    WrongMethod(String),
}

impl From<DeskError> for ApiError {
    fn from(e: DeskError) -> Self {
        Self::Desk(e)
    }
}

fn message(message: String) -> ErrorBody {
    ErrorBody {
        message,
        problems: Vec::new(),
        ask: None,
    }
}

/// What the API says of a desk error: the status the desk names and a
/// body the client may see. Failures of the server are logged in full and
/// told only as far as the client can act on them.
pub fn desk_error_body(error: DeskError) -> (StatusCode, ErrorBody) {
    let status =
        StatusCode::from_u16(error.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = match error {
        DeskError::Invalid(problems) => ErrorBody {
            message: format!(
                "the input was refused with {} problem(s); each names its path and rule",
                problems.0.len()
            ),
            problems: problems.0,
            ask: None,
        },
        DeskError::NotFound => {
            message("there is no ask with this id; check the id or URL".to_owned())
        }
        DeskError::Finished(ask) => ErrorBody {
            message: format!(
                "this ask was already {}; it cannot change any more",
                ask.status.as_str()
            ),
            problems: Vec::new(),
            ask: Some(ask),
        },
        DeskError::Gone(ask) => ErrorBody {
            message: format!(
                "this ask was {} and can no longer be answered",
                ask.status.as_str()
            ),
            problems: Vec::new(),
            ask: Some(ask),
        },
        DeskError::Forbidden(text) | DeskError::Conflict(text) => message(text),
        DeskError::Store(StoreError::Corrupt { id, detail }) => {
            tracing::error!(id = %id, "stored ask is unreadable: {detail}");
            message(format!(
                "the stored ask {id} is unreadable (changed by hand or by another askdesk \
                 version); the server's log says why, and nothing was changed"
            ))
        }
        DeskError::Store(e) if e.is_unavailable() => {
            tracing::warn!("the database is unreachable: {e}");
            message(
                "the database is unreachable right now; nothing was changed, try again shortly"
                    .to_owned(),
            )
        }
        e @ (DeskError::Store(_) | DeskError::System(_)) => {
            tracing::error!("{e}");
            message("the server failed; its log says why, and nothing was changed".to_owned())
        }
    };
    (status, body)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            Self::Desk(error) => desk_error_body(error),
            Self::Body(status, text) => (status, message(text)),
            Self::Query(text) => (StatusCode::BAD_REQUEST, message(text)),
            Self::WrongMethod(call) => (
                StatusCode::METHOD_NOT_ALLOWED,
                message(format!(
                    "{call} is not a call of this API; /api/v1/openapi.json lists the methods of each path"
                )),
            ),
            Self::NoRoute(path) => (
                StatusCode::NOT_FOUND,
                message(format!(
                    "there is no API endpoint {path}; /api/v1/openapi.json lists them"
                )),
            ),
        };
        let mut response = (status, axum::Json(body)).into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            // The database is away; a client retrying a little later is
            // what should happen (the database timeout is a few seconds).
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from_static("2"));
        }
        response
    }
}

/// A query string whose rejections are JSON [`ApiError`]s, not axum's
/// plain text (`?wait=1&wait=2`, `?after=soon`).
pub struct QueryParams<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> axum::extract::FromRequestParts<S> for QueryParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(Self(value)),
            Err(rejection) => Err(ApiError::Query(format!(
                "the query string is not what this call takes: {}; \
                 /api/v1/openapi.json lists its parameters",
                rejection.body_text()
            ))),
        }
    }
}

/// A JSON body whose rejections are [`ApiError`]s.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(json_rejection(&rejection)),
        }
    }
}

fn json_rejection(rejection: &JsonRejection) -> ApiError {
    let status = rejection.status();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!("the body is larger than {MAX_BODY_BYTES} bytes (1 MiB)")
        }
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            "send the body as JSON with `Content-Type: application/json`".to_owned()
        }
        _ => format!(
            "the body is not the JSON this call takes: {}",
            rejection.body_text()
        ),
    };
    ApiError::Body(status, message)
}

fn desk(state: &AppState) -> &Desk {
    &state.desk
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
            return Ok(crate::access::too_many_asks(wait));
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
        Some(key) => match desk(&state)
            .create_once(new, &key, "Idempotency-Key")
            .await?
        {
            (created, true) => (created, StatusCode::CREATED),
            (created, false) => (created, StatusCode::OK),
        },
        None => (desk(&state).create(new).await?, StatusCode::CREATED),
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
    waited: Option<Extension<Waited>>,
    request: Request,
) -> Result<Response, ApiError> {
    let ask = match wait_seconds(query.wait.as_deref())? {
        // The first pass of a long-poll: the wait itself is served outside
        // the stack (waiting.rs), then this request comes again, `Waited`.
        Some(wait) if waited.is_none() => match desk(&state).watch(&id, wait).await? {
            Watch::Over(ask) => *ask,
            Watch::Pending(end) => {
                let stop = state.shutdown.clone();
                // A server stopping answers its waiters with the ask as it
                // is, as if their wait had run out; they ask again elsewhere.
                let until = async move {
                    tokio::select! {
                        () = end.ended() => {}
                        () = stop.cancelled() => {}
                    }
                };
                return Ok(Wait::reply(until, request));
            }
        },
        _ => desk(&state).get(&id).await?,
    };
    let deliveries = desk(&state).deliveries(&ask.id).await?;
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
    let by = crate::access::answering(caller, &headers);
    let ask = desk(&state).answer(&id, answers, &by).await?;
    Ok(axum::Json(ask).into_response())
}

/// What a notification's button sends: the option it stands for and its
/// action token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Action {
    label: String,
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
    let ask = desk(&state)
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
    let by = crate::access::answering(caller, &headers);
    let ask = desk(&state).decline(&id, decline, &by).await?;
    Ok(axum::Json(ask).into_response())
}

async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    // `askdesk mcp` cancels through the API for its agent.
    let via = match crate::access::api_via(&headers) {
        Via::McpClient => Via::Mcp,
        via => via,
    };
    let ask = desk(&state).cancel(&id, &Actor::new(caller, via)).await?;
    Ok(axum::Json(ask).into_response())
}

async fn openapi() -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        OPENAPI,
    )
        .into_response()
}

async fn unknown(request: Request) -> ApiError {
    ApiError::NoRoute(format!("{} {}", request.method(), request.uri().path()))
}

async fn wrong_method(request: Request) -> ApiError {
    ApiError::WrongMethod(format!("{} {}", request.method(), request.uri().path()))
}

//! The replies every room gives: the API's JSON errors, the extractors
//! that turn bad input into them, and the plain refusals and redirects of
//! the guard and the pages.

use axum::{
    body::Bytes,
    extract::{rejection::JsonRejection, FromRequest, Query, Request},
    http::{
        header::{LOCATION, RETRY_AFTER, WWW_AUTHENTICATE},
        HeaderValue, StatusCode,
    },
    response::{IntoResponse, Response},
};
use desk::{DeskError, StoreError};
use interaction::ErrorBody;
use serde::de::DeserializeOwned;

/// The largest request body the API reads.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// `request` with its body cut off past [`MAX_BODY_BYTES`], which axum's
/// extractors refuse as too large (`413`). The API's body extractors
/// apply it themselves, so that the routes that take no body (a
/// long-poll) carry no layer for it.
fn limited(request: Request) -> Request {
    request.map(|body| axum::body::Body::new(http_body_util::Limited::new(body, MAX_BODY_BYTES)))
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
    /// The caller made too many asks this minute (`--create-limit`); it
    /// may again after the wait.
    Limited(std::time::Duration),
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
fn desk_error_body(error: DeskError) -> (StatusCode, ErrorBody) {
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
        DeskError::Forbidden(text) | DeskError::Conflict(text) | DeskError::TooMany(text) => {
            message(text)
        }
        DeskError::Store(StoreError::Corrupt { id, detail }) => {
            tracing::error!(id = %desk::Logged(&id), "stored ask is unreadable: {detail}");
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
            Self::Limited(wait) => {
                return too_many(
                    "this agent has created too many asks this minute (--create-limit)",
                    wait,
                )
            }
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
        match axum::Json::<T>::from_request(limited(req), state).await {
            Ok(axum::Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(json_rejection(&rejection)),
        }
    }
}

/// A JSON body that may be left out: no body, or only white space, is
/// `T::default()`. It takes any content type, as a client that sends
/// nothing sends none.
pub struct OptionalJsonBody<T>(pub T);

impl<T: DeserializeOwned + Default, S: Send + Sync> FromRequest<S> for OptionalJsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let body = Bytes::from_request(limited(req), state)
            .await
            .map_err(|rejection| match rejection.status() {
                StatusCode::PAYLOAD_TOO_LARGE => ApiError::Body(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the body is larger than {MAX_BODY_BYTES} bytes (1 MiB)"),
                ),
                status => ApiError::Body(status, rejection.body_text()),
            })?;
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self(T::default()));
        }
        serde_json::from_slice(&body).map(Self).map_err(|e| {
            let status = if e.is_data() {
                StatusCode::UNPROCESSABLE_ENTITY
            } else {
                StatusCode::BAD_REQUEST
            };
            ApiError::Body(
                status,
                format!(
                    "the body is not the JSON this call takes: {e}; send that, or no body at all"
                ),
            )
        })
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

/// A JSON error with no problems list: `status` and `message`.
pub fn error(status: StatusCode, text: String) -> Response {
    (status, axum::Json(message(text))).into_response()
}

/// `401` for the API, naming what to send.
pub fn unauthorized(message: &str) -> Response {
    let mut response = error(StatusCode::UNAUTHORIZED, message.to_owned());
    response
        .headers_mut()
        .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

/// `429` with `Retry-After`: `what` happened too often; try again after
/// `wait`.
pub fn too_many(what: &str, wait: std::time::Duration) -> Response {
    let seconds = wait.as_secs().max(1);
    let mut response = error(
        StatusCode::TOO_MANY_REQUESTS,
        format!("{what}; try again in {seconds} s"),
    );
    response
        .headers_mut()
        .insert(RETRY_AFTER, HeaderValue::from(seconds));
    response
}

/// `303 See Other` to `to`.
pub fn redirect(to: &str) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(to) {
        response.headers_mut().insert(LOCATION, value);
    }
    response
}

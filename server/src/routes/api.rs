//! HTTP API v1: JSON in and out, every error a JSON [`ErrorBody`] with a
//! message a person can act on. The handlers only decode and encode; the
//! [`Desk`] does the work, as it does for the answering page.

use super::openapi::{described::Waited, Document};
use crate::{
    http::{
        identity::ApiVia,
        recheck::Recheck,
        reply::{ApiError, JsonBody, OptionalJsonBody, QueryParams},
        waiting::{wait_or_stop, wait_seconds},
    },
    AppState,
};
use aide::{
    axum::{
        routing::{get_with, post_with},
        ApiRouter,
    },
    transform::TransformOperation,
};
use axum::{
    extract::{Extension, FromRequestParts, Path, Request, State},
    http::{header::LOCATION, request::Parts, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    Json, Router,
};
use desk::{Actor, Caller, DeskError, Watch};
use interaction::{Answers, Ask, AskCreated, AskPath, Decline, IdempotencyKey, Me, NewAsk, Via};
use serde::Deserialize;

/// The API's routes, under `/api/v1`: those of the document, a JSON
/// `405` for a method a path does not take, and a JSON `404` for any
/// other path.
pub fn routes() -> Router<AppState> {
    Router::from(described())
        .method_not_allowed_fallback(wrong_method)
        .route("/api/{*rest}", axum::routing::any(unknown))
}

/// The asks.
const ASKS: &str = "asks";

/// Every operation of the document: a path, a handler, and what the
/// handler's types cannot say (its name, its tag, the desk's refusals).
/// The words for a reader are in `server/openapi/operations.json`.
pub(super) fn described() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route(
            "/api/v1/asks",
            post_with(create, |op| op.id("createAsk").tag(ASKS))
                .get_with(super::listing::list, |op| op.id("listAsks").tag(ASKS)),
        )
        .api_route(
            "/api/v1/asks/{id}",
            get_with(read, |op| op.id("getAsk").tag(ASKS))
                .delete_with(cancel, |op| ends_an_ask(op.id("cancelAsk"))),
        )
        .api_route(
            "/api/v1/asks/{id}/answers",
            post_with(answer, |op| ends_an_ask(op.id("answerAsk"))),
        )
        .api_route(
            "/api/v1/asks/{id}/decline",
            post_with(decline, |op| ends_an_ask(op.id("declineAsk"))),
        )
        .api_route(
            "/api/v1/asks/{id}/messages",
            post_with(super::messages::write, |op| {
                writes_to_a_session(op.id("messageSession"))
            }),
        )
        .api_route(
            "/api/v1/sessions/{session}/messages",
            get_with(super::messages::read, |op| {
                for_agents(op.id("readMessages").tag(ASKS))
            }),
        )
        .api_route(
            "/api/v1/actions/{id}",
            post_with(super::actions::act, |op| ends_an_ask(op.id("actOnAsk"))),
        )
        .api_route(
            "/api/v1/events",
            get_with(super::events::all, |op| op.id("streamEvents")),
        )
        .api_route("/api/v1/me", get_with(me, |op| op.id("me").tag(ASKS)))
        .api_route(
            "/api/v1/push/key",
            get_with(super::push::key, |op| web_push(op.id("pushKey"))),
        )
        .api_route(
            "/api/v1/push/subscriptions",
            post_with(super::push::subscribe, |op| {
                web_push(op.id("subscribePush"))
            })
            .delete_with(super::push::unsubscribe, |op| {
                web_push(op.id("unsubscribePush"))
            }),
        )
        .api_route(
            "/api/v1/openapi.json",
            get_with(openapi, |op| op.id("getOpenApi").tag("meta")),
        )
}

/// An operation that ends a pending ask: one that ended already is
/// refused (`409`, or `410` when it can no longer be answered).
fn ends_an_ask(op: TransformOperation<'_>) -> TransformOperation<'_> {
    op.tag(ASKS).with(|mut op| {
        super::openapi::described::refuses(op.inner_mut(), 409, "Finished");
        super::openapi::described::refuses(op.inner_mut(), 410, "Gone");
        op
    })
}

/// An operation that writes into the asking agent's session: refused
/// (`409`) when that agent reads no messages.
fn writes_to_a_session(op: TransformOperation<'_>) -> TransformOperation<'_> {
    op.tag(ASKS).with(|mut op| {
        super::openapi::described::refuses(op.inner_mut(), 409, "Finished");
        op
    })
}

/// An operation for the agents that ask: a person's token is refused.
fn for_agents(op: TransformOperation<'_>) -> TransformOperation<'_> {
    op.with(|mut op| {
        super::openapi::described::refuses(op.inner_mut(), 403, "Forbidden");
        op
    })
}

/// An operation of Web Push, which is `404` on a server without it.
fn web_push(op: TransformOperation<'_>) -> TransformOperation<'_> {
    op.tag("push").with(|mut op| {
        super::openapi::described::refuses(op.inner_mut(), 404, "NotFound");
        op
    })
}

/// The header that makes `POST /api/v1/asks` idempotent.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";

/// The `Idempotency-Key` a call sent, checked.
pub(crate) struct Idempotency(Option<IdempotencyKey>);

impl<S: Send + Sync> FromRequestParts<S> for Idempotency {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts
            .headers
            .get(IDEMPOTENCY_KEY)
            .map(|value| {
                let text = value.to_str().unwrap_or("\u{fffd}");
                IdempotencyKey::parse(text, "Idempotency-Key")
                    .map_err(|p| ApiError::Desk(DeskError::Invalid(p)))
            })
            .transpose()
            .map(Self)
    }
}

/// A stored ask: `201` when it is new, `200` when an idempotency key made
/// it before; both say where it is.
pub(crate) struct Stored {
    created: AskCreated,
    new: bool,
}

impl IntoResponse for Stored {
    fn into_response(self) -> Response {
        let status = if self.new {
            StatusCode::CREATED
        } else {
            StatusCode::OK
        };
        let location = HeaderValue::from_str(&format!("/api/v1/asks/{}", self.created.id));
        let mut response = (status, Json(&self.created)).into_response();
        if let Ok(location) = location {
            response.headers_mut().insert(LOCATION, location);
        }
        response
    }
}

async fn create(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    Idempotency(key): Idempotency,
    JsonBody(new): JsonBody<NewAsk>,
) -> Result<Stored, ApiError> {
    caller.may_create()?;
    if let Some(limit) = &state.create_limit {
        if let Err(wait) = limit.take(&caller) {
            return Err(ApiError::Limited(wait));
        }
    }
    // With a key, the same body again gets the ask made the first time
    // (200), never a second one.
    let (created, new) = match key {
        Some(key) => {
            state
                .desk
                .create_once(new, &key, "Idempotency-Key", &caller)
                .await?
        }
        None => (state.desk.create(new, &caller).await?, true),
    };
    Ok(Stored { created, new })
}

/// What `GET /api/v1/asks/{id}` reads of its query string.
#[derive(Deserialize, schemars::JsonSchema)]
pub(crate) struct ReadQuery {
    #[schemars(with = "Option<u32>", extend("default" = 0))]
    wait: Option<String>,
}

async fn read(
    State(state): State<AppState>,
    Path(AskPath { id }): Path<AskPath>,
    QueryParams(query): QueryParams<ReadQuery>,
    Extension(caller): Extension<Caller>,
    Extension(recheck): Extension<Recheck>,
) -> Result<Waited<AskRead>, ApiError> {
    // A long-poll keeps only what it waits on while it waits: the reads
    // before and after are boxed, so their room is gone by then.
    let started = state.desk.now_ms();
    let mut ended = None;
    if let Some(wait) = wait_seconds(query.wait.as_deref())? {
        match Box::pin(state.desk.watch(&id, wait, &caller)).await? {
            Watch::Over(ask) => ended = Some(ask),
            Watch::Pending(end) => {
                wait_or_stop(end.ended(), &state.shutdown).await;
                if let Err(refused) = recheck.still(&caller).await {
                    return Ok(Waited::Refused(refused));
                }
            }
        }
    }
    let read = Box::pin(read_now(&state, &id, ended, &caller)).await?;
    if query.wait.is_some() {
        desk::metered::woke(read.ask.finished_at, started, state.desk.now_ms());
    }
    Ok(Waited::Reply(read))
}

/// The ask (`known` already, or read now for `caller`) with its
/// notifications.
async fn read_now(
    state: &AppState,
    id: &str,
    known: Option<Box<Ask>>,
    caller: &Caller,
) -> Result<AskRead, ApiError> {
    let ask = match known {
        Some(ask) => *ask,
        None => state.desk.get(id, caller).await?,
    };
    let deliveries = state.desk.deliveries(&ask.id).await?;
    Ok(AskRead { ask, deliveries })
}

/// An ask as `GET /api/v1/asks/{id}` returns it: with its notifications,
/// when the server tells any channel.
#[derive(serde::Serialize)]
pub(crate) struct AskRead {
    #[serde(flatten)]
    ask: Ask,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    deliveries: Vec<interaction::Delivery>,
}

impl IntoResponse for AskRead {
    fn into_response(self) -> Response {
        Json(self).into_response()
    }
}

async fn answer(
    State(state): State<AppState>,
    Path(AskPath { id }): Path<AskPath>,
    Extension(caller): Extension<Caller>,
    ApiVia(via): ApiVia,
    JsonBody(answers): JsonBody<Answers>,
) -> Result<Json<Ask>, ApiError> {
    let by = Actor::new(caller, via);
    Ok(Json(state.desk.answer(&id, answers, &by).await?))
}

/// The body is optional: no body declines without a reason.
async fn decline(
    State(state): State<AppState>,
    Path(AskPath { id }): Path<AskPath>,
    Extension(caller): Extension<Caller>,
    ApiVia(via): ApiVia,
    OptionalJsonBody(decline): OptionalJsonBody<Decline>,
) -> Result<Json<Ask>, ApiError> {
    let by = Actor::new(caller, via);
    Ok(Json(state.desk.decline(&id, decline, &by).await?))
}

async fn cancel(
    State(state): State<AppState>,
    Path(AskPath { id }): Path<AskPath>,
    Extension(caller): Extension<Caller>,
    ApiVia(via): ApiVia,
) -> Result<Json<Ask>, ApiError> {
    // `askdesk mcp` cancels through the API for its agent.
    let via = match via {
        Via::McpClient | Via::McpApp => Via::Mcp,
        via => via,
    };
    Ok(Json(
        state.desk.cancel(&id, &Actor::new(caller, via)).await?,
    ))
}

/// `GET /api/v1/me`: who the credentials name, and whether answers their
/// client relays from inside its host are taken (as `ask_user` over
/// stdio asks before it offers the client's own form).
async fn me(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
) -> Result<Json<Me>, ApiError> {
    // The guard lets no one through to the API without credentials.
    let me = state
        .desk
        .me(&caller)
        .await
        .ok_or_else(|| DeskError::Forbidden("this needs a token".to_owned()))?;
    Ok(Json(me))
}

/// The OpenAPI document of these routes, written once.
static DOCUMENT: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| super::openapi::written(described()));

/// The API's OpenAPI document, as `GET /api/v1/openapi.json` serves it.
pub fn document() -> &'static str {
    &DOCUMENT
}

async fn openapi() -> Document {
    Document(document())
}

async fn unknown(request: Request) -> ApiError {
    ApiError::NoRoute(format!("{} {}", request.method(), request.uri().path()))
}

async fn wrong_method(request: Request) -> ApiError {
    ApiError::WrongMethod(format!("{} {}", request.method(), request.uri().path()))
}

/// What the OpenAPI document reads off this module's extractors and replies.
mod operation;

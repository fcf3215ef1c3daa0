//! Server-Sent Events: `GET /api/v1/events` streams every ask created or
//! finished, and `GET /asks/{id}/events` the changes of one ask (open like
//! the ask page itself: its id is the capability).
//!
//! Each event is `event: ask`, `id: <seq>`, `data: {"seq", "ask":
//! AskSummary}`. Events are numbered by the database, so a client that
//! reconnects with `Last-Event-ID` (browsers' EventSource does so by
//! itself), to this instance or another one on the same database, before or
//! after a restart, gets exactly the events it missed, in order, then the
//! live ones. When the missed events are no longer kept (`--keep-events`),
//! or the id is not one of this database's, it gets `event: reset` instead
//! and should re-read `GET /api/v1/asks`.

use crate::{
    http::reply::{ApiError, QueryParams},
    AppState,
};
use axum::{
    extract::{Extension, Path, State},
    response::{
        sse::{Event as SseEvent, KeepAlive, Sse},
        IntoResponse, Response,
    },
    routing::get,
    Router,
};
use desk::{Caller, Desk, Event};
use futures_util::{stream, Stream, StreamExt};
use interaction::{AskEvent, AskSummary, ResetEvent, ASK_EVENT, RESET_EVENT};
use serde::Deserialize;
use std::convert::Infallible;
use tokio::sync::broadcast::error::RecvError;

/// The event stream of one ask; the API's (`GET /api/v1/events`, [`all`])
/// is one of the API's routes.
pub fn routes() -> Router<AppState> {
    Router::new().route("/asks/{id}/events", get(one))
}

/// What `GET /api/v1/events` reads of its query string.
#[derive(Deserialize, schemars::JsonSchema)]
pub(crate) struct EventsQuery {
    #[schemars(range(max = u64::MAX))]
    after: Option<u64>,
}

/// The `Last-Event-ID` a reconnecting client sends.
pub(crate) struct LastEventId(Option<String>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for LastEventId {
    type Rejection = Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        let last = parts.headers.get("last-event-id");
        // A value that is not text is no event id of ours: a reset.
        Ok(Self(
            last.map(|v| v.to_str().unwrap_or("\u{fffd}").to_owned()),
        ))
    }
}

/// A stream of Server-Sent Events, kept alive while idle.
pub(crate) struct EventStream<S>(S);

impl<S> IntoResponse for EventStream<S>
where
    S: Stream<Item = Result<SseEvent, Infallible>> + Send + 'static,
{
    fn into_response(self) -> Response {
        Sse::new(self.0)
            .keep_alive(KeepAlive::default())
            .into_response()
    }
}

/// Where a client picks up the stream.
enum Resume {
    /// From now on.
    Now,
    /// After event `seq`.
    After(u64),
    /// The client's place is unknown: it must re-read the asks.
    Reset,
}

fn resume(last: Option<&str>, after: Option<u64>) -> Resume {
    if let Some(last) = last {
        return last.trim().parse().map_or(Resume::Reset, Resume::After);
    }
    after.map_or(Resume::Now, Resume::After)
}

/// The one way an event of the stream is written: `event:`, `id:` and
/// the JSON of its interaction type.
fn sse(name: &str, seq: u64, data: &impl serde::Serialize) -> SseEvent {
    let event = SseEvent::default().event(name).id(seq.to_string());
    match event.clone().json_data(data) {
        Ok(event) => event,
        // Plain structs of strings and numbers always serialize; if one
        // ever did not, the client re-reads rather than missing it.
        Err(e) => {
            tracing::error!("an event did not serialize: {e}");
            event.event(RESET_EVENT).data("{}")
        }
    }
}

fn ask_event(seq: u64, ask: &AskSummary) -> SseEvent {
    let event = AskEvent {
        seq,
        ask: ask.clone(),
    };
    sse(ASK_EVENT, seq, &event)
}

fn reset_event(seq: u64, reason: &str) -> SseEvent {
    let event = ResetEvent {
        reason: reason.to_owned(),
    };
    sse(RESET_EVENT, seq, &event)
}

/// The events after the client's place, then the live ones, for asks that
/// `keep` accepts; ends when the server shuts down.
async fn event_stream(
    state: &AppState,
    resume: Resume,
    keep: impl Fn(&Event) -> bool + Send + 'static,
) -> Result<impl Stream<Item = Result<SseEvent, Infallible>> + Send + 'static, ApiError> {
    let desk = state.desk.clone();
    // Subscribe before reading the stored events: an event between the two
    // comes through both, and its number drops the second copy.
    let live = desk.subscribe();
    let reset = |reason: &str| {
        let now = desk.version();
        (vec![reset_event(now, reason)], now)
    };
    let (initial, last) = match resume {
        Resume::Now => (Vec::new(), desk.version()),
        Resume::After(after) => match desk.events_since(after).await? {
            Some(missed) => {
                let last = missed.last().map_or(after, |e| e.seq);
                let events = missed
                    .iter()
                    .filter(|e| keep(e))
                    .map(|e| ask_event(e.seq, &e.ask))
                    .collect();
                (events, last)
            }
            None => reset("the events after that id are no longer kept, or it is not this desk's"),
        },
        Resume::Reset => reset("that is not an event id of this desk"),
    };
    let following = stream::unfold(
        Follow {
            live,
            last,
            desk: desk.clone(),
        },
        |mut follow| async move {
            loop {
                match follow.live.recv().await {
                    Ok(event) if event.seq > follow.last => {
                        follow.last = event.seq;
                        return Some((Item::Ask(event), follow));
                    }
                    Ok(_) => {}
                    Err(RecvError::Lagged(_)) => {
                        // Too slow to follow: the client starts over from a fresh list.
                        follow.last = follow.desk.version();
                        return Some((Item::Reset(follow.last), follow));
                    }
                    Err(RecvError::Closed) => return None,
                }
            }
        },
    )
    .filter_map(move |item| {
        std::future::ready(match item {
            Item::Ask(event) => keep(&event).then(|| ask_event(event.seq, &event.ask)),
            Item::Reset(seq) => Some(reset_event(seq, "the stream fell behind")),
        })
    });
    Ok(stream::iter(initial)
        .chain(following)
        .map(Ok)
        .take_until(state.shutdown.clone().cancelled_owned()))
}

/// Where a live stream is.
struct Follow {
    live: tokio::sync::broadcast::Receiver<Event>,
    last: u64,
    desk: Desk,
}

/// What the live part of a stream yields.
enum Item {
    Ask(Event),
    Reset(u64),
}

pub(super) async fn all(
    State(state): State<AppState>,
    LastEventId(last): LastEventId,
    QueryParams(query): QueryParams<EventsQuery>,
    Extension(caller): Extension<Caller>,
) -> Result<EventStream<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let resume = resume(last.as_deref(), query.after);
    // An agent hears only of its own asks.
    let sees = move |e: &Event| caller.sees_listed(&e.ask);
    Ok(EventStream(event_stream(&state, resume, sees).await?))
}

async fn one(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    // Follow first, then read: a change in between shows in the snapshot
    // and again as an event, never in neither.
    let wanted = id.clone();
    let changes = event_stream(&state, Resume::Now, move |e| e.ask.id == wanted).await?;
    let ask = state.desk.get(&id, &caller).await?;
    // The ask as it is now, then its changes.
    let now = ask_event(state.desk.version(), &AskSummary::from(&ask));
    Ok(EventStream(stream::iter([Ok(now)]).chain(changes)).into_response())
}

/// What the OpenAPI document reads off the event streams' extractor and reply.
mod operation {
    use super::{EventStream, LastEventId};
    use crate::routes::openapi::described::{header, schema_object};
    use aide::{
        generate::GenContext,
        openapi::{MediaType, Operation, Response, StatusCode},
        operation::{OperationInput, OperationOutput},
    };
    use indexmap::IndexMap;
    use schemars::json_schema;

    impl OperationInput for LastEventId {
        fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
            header::<String>(ctx, operation, "Last-Event-ID");
        }
    }

    impl<S> OperationOutput for EventStream<S> {
        type Inner = ();

        /// One event, as an EventSource reads it.
        fn inferred_responses(
            _: &mut GenContext,
            _: &mut Operation,
        ) -> Vec<(Option<StatusCode>, Response)> {
            let event = json_schema!({
                "type": "object",
                "description": "One event, as an EventSource reads it. `data` is JSON: for `ask` \
                    {\"seq\": n, \"ask\": AskSummary}; for `reset` {\"reason\": text}.",
                "required": ["data"],
                "properties": {
                    "event": {"type": "string", "enum": [interaction::ASK_EVENT, interaction::RESET_EVENT]},
                    "id": {
                        "type": "string",
                        "description": "The event's number, `<seq>`; send it back as `Last-Event-ID`.",
                    },
                    "data": {"type": "string", "contentMediaType": "application/json"},
                    "retry": {"type": "integer", "minimum": 0},
                },
            });
            let stream = MediaType {
                schema: Some(schema_object(event)),
                ..MediaType::default()
            };
            let reply = Response {
                content: IndexMap::from([("text/event-stream".to_owned(), stream)]),
                ..Response::default()
            };
            vec![(Some(StatusCode::Code(200)), reply)]
        }
    }
}

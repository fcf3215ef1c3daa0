//! `GET /api/v1/events` read as typed events: `event: ask` is an
//! [`AskEvent`], `event: reset` a [`ResetEvent`]; the last `id:` seen is
//! kept for resuming with `Last-Event-ID`.

use crate::Error;
use futures_util::{Stream, StreamExt};
use interaction::{AskEvent, ResetEvent, ASK_EVENT, RESET_EVENT};
use reqwest::StatusCode;
use sse_stream::{Sse, SseStream};
use std::pin::Pin;

/// One event of the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// An ask was created or it ended.
    Ask(AskEvent),
    /// The server cannot say what was missed: re-read the list of asks.
    Reset(ResetEvent),
}

type Frames = Pin<Box<dyn Stream<Item = Result<Sse, sse_stream::Error>> + Send>>;

/// The server's events, in order, as they come.
pub struct EventStream {
    frames: Frames,
    base: String,
    last_event_id: Option<String>,
}

impl std::fmt::Debug for EventStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventStream")
            .field("base", &self.base)
            .field("last_event_id", &self.last_event_id)
            .finish_non_exhaustive()
    }
}

impl EventStream {
    pub(crate) fn new(response: reqwest::Response, base: String, resumed: Option<&str>) -> Self {
        let frames = SseStream::new(reqwest::Body::from(response));
        Self::from_frames(Box::pin(frames), base, resumed)
    }

    fn from_frames(frames: Frames, base: String, resumed: Option<&str>) -> Self {
        Self {
            frames,
            base,
            last_event_id: resumed.map(str::to_owned),
        }
    }

    /// The id of the last event read, to pass to
    /// [`Client::events`](crate::Client::events) when reconnecting.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// The next event; `None` when the server ended the stream. Events of
    /// kinds this client does not know are skipped.
    pub async fn next(&mut self) -> Option<Result<Event, Error>> {
        loop {
            let frame = match self.frames.next().await? {
                Ok(frame) => frame,
                Err(e) => {
                    return Some(Err(Error::Unreadable {
                        status: StatusCode::OK,
                        detail: format!("the event stream from {} broke: {e}", self.base),
                    }))
                }
            };
            if let Some(id) = &frame.id {
                self.last_event_id = Some(id.clone());
            }
            let data = frame.data.as_deref().unwrap_or_default();
            let event = match frame.event.as_deref() {
                Some(ASK_EVENT) => serde_json::from_str(data).map(Event::Ask),
                Some(RESET_EVENT) => serde_json::from_str(data).map(Event::Reset),
                _ => continue,
            };
            return Some(event.map_err(|e| Error::Unreadable {
                status: StatusCode::OK,
                detail: format!("an event this client cannot read: {e}"),
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(chunks: &[&'static str]) -> EventStream {
        let chunks: Vec<Result<bytes::Bytes, std::io::Error>> = chunks
            .iter()
            .map(|c| Ok(bytes::Bytes::from_static(c.as_bytes())))
            .collect();
        let frames = SseStream::from_bytes_stream(futures_util::stream::iter(chunks));
        EventStream::from_frames(Box::pin(frames), "http://test".to_owned(), Some("e-1"))
    }

    #[tokio::test]
    async fn ask_and_reset_events_are_typed_and_their_ids_kept() {
        let summary = r#"{"id":"a1","url":"http://test/asks/a1","title":null,"agent":null,"status":"pending","createdAt":"2026-11-30T11:20:00.000Z","expiresAt":null,"questionCount":1}"#;
        let ask = format!("event: ask\nid: e-2\ndata: {{\"seq\":2,\"ask\":{summary}}}\n\n");
        let ask: &'static str = Box::leak(ask.into_boxed_str());
        // A keep-alive comment, an event split across chunks, an unknown
        // event, then a reset.
        let mut events = stream(&[
            ":\n\n",
            &ask[..20],
            &ask[20..],
            "event: later\nid: e-3\ndata: {}\n\n",
            "event: reset\nid: e-4\ndata: {\"reason\":\"missed\"}\n\n",
        ]);
        assert_eq!(events.last_event_id(), Some("e-1"));
        match events.next().await {
            Some(Ok(Event::Ask(event))) => {
                assert_eq!(event.seq, 2);
                assert_eq!(event.ask.id, "a1");
            }
            other => panic!("expected an ask event, got {other:?}"),
        }
        assert_eq!(events.last_event_id(), Some("e-2"));
        assert_eq!(
            events.next().await.map(Result::ok),
            Some(Some(Event::Reset(ResetEvent {
                reason: "missed".to_owned()
            })))
        );
        assert_eq!(events.last_event_id(), Some("e-4"));
        assert!(events.next().await.is_none());
    }
}

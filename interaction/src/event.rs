//! The event stream's payloads (`GET /api/v1/events`, `GET /asks/{id}/events`),
//! shared by the server that writes them and the pages and clients that
//! read them.

use crate::listing::AskSummary;
use serde::{Deserialize, Serialize};

/// The SSE event name of an [`AskEvent`].
pub const ASK_EVENT: &str = "ask";
/// The SSE event name of a [`ResetEvent`].
pub const RESET_EVENT: &str = "reset";

/// `event: ask`: an ask was created (status `pending`) or it ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AskEvent {
    /// The event's place in the order of all events.
    pub seq: u64,
    /// The ask as it is after the event.
    pub ask: AskSummary,
}

/// `event: reset`: the stream cannot say what the client missed, so the
/// client re-reads `GET /api/v1/asks`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResetEvent {
    /// Why, for people reading the stream.
    pub reason: String,
}

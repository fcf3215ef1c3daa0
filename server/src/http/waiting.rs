//! Long-polls: `GET /api/v1/asks/{id}?wait=N` and
//! `GET /api/v1/asks?after=V&wait=N`.
//!
//! The handler awaits the wait itself ([`wait_or_stop`]), then checks its
//! caller again ([`Recheck`](super::recheck::Recheck)): an agent removed while it waited is refused,
//! not handed the answer.

use super::reply::ApiError;
use desk::MAX_WAIT;
use std::{future::Future, time::Duration};
use tokio_util::sync::CancellationToken;

/// Waits for `until`, or until the server stops: a stopping server answers
/// its waiters with what there is, as if their wait had run out, and they
/// ask again elsewhere.
pub async fn wait_or_stop(until: impl Future<Output = ()>, stop: &CancellationToken) {
    tokio::select! {
        () = until => {}
        () = stop.cancelled() => {}
    }
}

/// `?wait=`: whole seconds in decimal digits. A number too large for a
/// `u64` counts as the largest, since the desk caps a wait anyway.
pub(crate) fn wait_seconds(value: Option<&str>) -> Result<Option<Duration>, ApiError> {
    value
        .map(|v| {
            let digits = !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit());
            digits
                .then(|| Duration::from_secs(v.parse().unwrap_or(u64::MAX)))
                .ok_or_else(|| {
                    ApiError::Query(format!(
                        "wait={v:?} is not a number of seconds; use 0 to {}",
                        MAX_WAIT.as_secs()
                    ))
                })
        })
        .transpose()
}

/// Whether a request is a long-poll: a GET with `wait=` in its query.
pub fn is_long_poll<B>(request: &axum::http::Request<B>) -> bool {
    request.method() == axum::http::Method::GET
        && request
            .uri()
            .query()
            .is_some_and(|query| query.split('&').any(|pair| pair.starts_with("wait=")))
}

/// Requests waiting on this instance, by `kind`: `long_poll`,
/// `event_stream` or `mcp`.
pub const WAITING: &str = "askdesk_waiting_requests";

/// A request counted among those waiting here while it lives.
pub struct Waiting(&'static str);

impl Waiting {
    /// Counts `request` as waiting, by its kind.
    pub fn new<B>(request: &axum::http::Request<B>) -> Self {
        let kind = if request.uri().path().starts_with("/mcp") {
            "mcp"
        } else if is_long_poll(request) {
            "long_poll"
        } else {
            "event_stream"
        };
        metrics::gauge!(WAITING, "kind" => kind).increment(1.0);
        Self(kind)
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        metrics::gauge!(WAITING, "kind" => self.0).decrement(1.0);
    }
}

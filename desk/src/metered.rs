//! What the desk counts as it works, through the `metrics` facade (the
//! server exports it; without a recorder each count costs nothing): asks
//! created and ended, how long people took to answer, and how long
//! after an ask's end its waiting agent heard.

use interaction::{AskStatus, Via};

/// Asks created.
pub const ASKS_CREATED: &str = "askdesk_asks_created_total";
/// Asks ended, by `status` and the `via` they were ended through (`none`
/// when they expired).
pub const ASKS_ENDED: &str = "askdesk_asks_ended_total";
/// Seconds from an ask's creation to its answer, for answered asks.
pub const TIME_TO_ANSWER: &str = "askdesk_time_to_answer_seconds";
/// Seconds from an ask's end to the reply of an agent's wait on it.
pub const ANSWER_TO_WAITER: &str = "askdesk_answer_to_waiter_seconds";

pub(crate) fn created() {
    metrics::counter!(ASKS_CREATED).increment(1);
}

/// An ask ended with `status` through `via` after `open_ms`.
pub(crate) fn ended(status: AskStatus, via: Option<Via>, open_ms: i64) {
    let via = via.map_or("none", Via::as_str);
    metrics::counter!(ASKS_ENDED, "status" => status.as_str(), "via" => via).increment(1);
    if status == AskStatus::Answered {
        let open = std::time::Duration::from_millis(u64::try_from(open_ms).unwrap_or_default());
        metrics::histogram!(TIME_TO_ANSWER).record(open.as_secs_f64());
    }
}

/// A wait that began at `started` (ms) replies now (`now`, ms) with an
/// ask that ended at `finished`: counted when the ask ended while it
/// waited.
pub fn woke(finished: Option<interaction::Timestamp>, started: i64, now: i64) {
    if let Some(finished) = finished.filter(|at| at.ms() >= started) {
        let late = std::time::Duration::from_millis(
            u64::try_from(now - finished.ms()).unwrap_or_default(),
        );
        metrics::histogram!(ANSWER_TO_WAITER).record(late.as_secs_f64());
    }
}

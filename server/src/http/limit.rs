//! Counting in fixed windows: failed attempts at a token per client
//! address ([`Failures`]: after [`FAILURES`] wrong tokens or failed
//! sign-ins within [`WINDOW`], that address is refused with `429` and
//! `Retry-After` until the window ends, whatever it sends), and asks
//! created per agent (`--create-limit`). Counted per instance.

use axum::response::Response;
use desk::Caller;
use std::{
    collections::HashMap,
    hash::Hash,
    net::IpAddr,
    sync::{Mutex, PoisonError},
    time::{Duration, Instant},
};

/// How many failures an address may make in one window.
pub const FAILURES: u32 = 10;
/// The window failures are counted in.
pub const WINDOW: Duration = Duration::from_secs(60);
/// Past this many keys, ended windows are dropped.
const PRUNE_ABOVE: usize = 10_000;

/// Counts per key, in fixed windows, up to a limit.
#[derive(Debug)]
pub struct Windows<K> {
    limit: u32,
    window: Duration,
    counts: Mutex<HashMap<K, (Instant, u32)>>,
}

impl<K: Hash + Eq> Windows<K> {
    /// At most `limit` in each `window`.
    pub fn new(limit: u32, window: Duration) -> Self {
        Self {
            limit,
            window,
            counts: Mutex::default(),
        }
    }

    /// How long `key` must wait before it may count again, if it is
    /// refused now.
    pub fn refused(&self, key: &K, now: Instant) -> Option<Duration> {
        let counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        let (start, count) = counts.get(key)?;
        let left = self
            .window
            .checked_sub(now.saturating_duration_since(*start))?;
        (*count >= self.limit && !left.is_zero()).then_some(left)
    }

    /// Counts one for `key`.
    pub fn count(&self, key: K, now: Instant) {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if counts.len() > PRUNE_ABOVE {
            let window = self.window;
            counts.retain(|_, (start, _)| now.saturating_duration_since(*start) < window);
        }
        let entry = counts.entry(key).or_insert((now, 0));
        if now.saturating_duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        entry.1 += 1;
    }
}

/// Failed attempts at a token, per client address.
#[derive(Debug)]
pub struct Failures(Windows<IpAddr>);

impl Default for Failures {
    fn default() -> Self {
        Self(Windows::new(FAILURES, WINDOW))
    }
}

impl Failures {
    /// How long `addr` must wait before trying again, if it is refused now.
    pub fn refused(&self, addr: IpAddr, now: Instant) -> Option<Duration> {
        self.0.refused(&addr, now)
    }

    /// Counts one failure of `addr`.
    pub fn fail(&self, addr: IpAddr, now: Instant) {
        self.0.count(addr, now);
    }
}

/// Asks created per minute per caller, when `--create-limit` is set:
/// counted per agent (a person's name, or the shared token's holder), on
/// this instance.
#[derive(Debug)]
pub struct CreateLimit {
    windows: Windows<String>,
}

impl CreateLimit {
    /// At most `per_minute` asks a minute from each caller.
    pub fn new(per_minute: u32) -> Self {
        Self {
            windows: Windows::new(per_minute, Duration::from_secs(60)),
        }
    }

    /// Counts one creation by `caller`, or says how long it must wait.
    pub fn take(&self, caller: &Caller) -> Result<(), Duration> {
        let key = caller.name().unwrap_or("").to_owned();
        let now = Instant::now();
        if let Some(wait) = self.windows.refused(&key, now) {
            return Err(wait);
        }
        self.windows.count(key, now);
        Ok(())
    }
}

/// The refusal of a creation over the limit: `429` with `Retry-After`.
pub fn too_many_asks(wait: Duration) -> Response {
    super::reply::too_many(
        "this agent has created too many asks this minute (--create-limit)",
        wait,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_refused_after_its_tenth_failure_until_the_window_ends() {
        let failures = Failures::default();
        let (one, other): (IpAddr, IpAddr) = (
            "192.0.2.1".parse().expect("ip"),
            "192.0.2.2".parse().expect("ip"),
        );
        let start = Instant::now();
        for _ in 0..FAILURES - 1 {
            failures.fail(one, start);
        }
        assert_eq!(
            failures.refused(one, start),
            None,
            "nine failures are allowed"
        );
        failures.fail(one, start);
        let later = start + Duration::from_secs(15);
        assert_eq!(failures.refused(one, later), Some(Duration::from_secs(45)));
        assert_eq!(
            failures.refused(other, later),
            None,
            "other addresses are not affected"
        );
        let next_window = start + WINDOW;
        assert_eq!(failures.refused(one, next_window), None);
        failures.fail(one, next_window);
        assert_eq!(
            failures.refused(one, next_window),
            None,
            "a new window starts at one"
        );
    }

    #[test]
    fn keys_count_apart_up_to_their_limit() {
        let windows = Windows::new(2, Duration::from_secs(60));
        let start = Instant::now();
        windows.count("bot", start);
        windows.count("bot", start);
        assert!(windows.refused(&"bot", start).is_some());
        assert!(windows.refused(&"other", start).is_none());
        assert!(windows
            .refused(&"bot", start + Duration::from_secs(60))
            .is_none());
    }
}

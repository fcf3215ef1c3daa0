//! Counting in fixed windows, per key, up to a limit ([`Windows`]), and
//! the asks each agent may create a minute (`--create-limit`,
//! [`CreateLimit`]), which the API and MCP's `ask_user` both take from.
//! Counted per instance.

use desk::Caller;
use std::{
    collections::HashMap,
    hash::Hash,
    sync::{Mutex, PoisonError},
    time::{Duration, Instant},
};

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

#[cfg(test)]
mod tests {
    use super::*;

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

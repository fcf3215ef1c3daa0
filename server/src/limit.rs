//! Failed attempts at the token, counted per client address: after
//! [`FAILURES`] wrong tokens or failed sign-ins within [`WINDOW`], that
//! address is refused (`429` with `Retry-After`) until the window ends,
//! whatever it sends. Counted per instance.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Mutex, PoisonError},
    time::{Duration, Instant},
};

/// How many failures an address may make in one window.
pub const FAILURES: u32 = 10;
/// The window failures are counted in.
pub const WINDOW: Duration = Duration::from_secs(60);
/// Past this many addresses, ended windows are dropped.
const PRUNE_ABOVE: usize = 10_000;

/// Failures per address, in fixed windows.
#[derive(Debug, Default)]
pub struct Failures {
    windows: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl Failures {
    /// How long `addr` must wait before trying again, if it is refused now.
    pub fn refused(&self, addr: IpAddr, now: Instant) -> Option<Duration> {
        let windows = self.windows.lock().unwrap_or_else(PoisonError::into_inner);
        let (start, count) = windows.get(&addr)?;
        let left = WINDOW.checked_sub(now.saturating_duration_since(*start))?;
        (*count >= FAILURES && !left.is_zero()).then_some(left)
    }

    /// Counts one failure of `addr`.
    pub fn fail(&self, addr: IpAddr, now: Instant) {
        let mut windows = self.windows.lock().unwrap_or_else(PoisonError::into_inner);
        if windows.len() > PRUNE_ABOVE {
            windows.retain(|_, (start, _)| now.saturating_duration_since(*start) < WINDOW);
        }
        let window = windows.entry(addr).or_insert((now, 0));
        if now.saturating_duration_since(window.0) >= WINDOW {
            *window = (now, 0);
        }
        window.1 += 1;
    }
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
}

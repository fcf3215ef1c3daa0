//! Failed attempts at a token per client address ([`Failures`]: after
//! [`FAILURES`] wrong tokens or failed sign-ins within [`WINDOW`], that
//! address is refused with `429` and `Retry-After` until the window ends,
//! whatever it sends), counted per instance in `agents::limit`'s windows,
//! which also count `--create-limit` ([`CreateLimit`]).

pub use agents::limit::CreateLimit;
use agents::limit::Windows;
use std::{
    net::IpAddr,
    time::{Duration, Instant},
};

/// How many failures an address may make in one window.
pub const FAILURES: u32 = 10;
/// The window failures are counted in.
pub const WINDOW: Duration = Duration::from_secs(60);

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

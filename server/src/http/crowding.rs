//! What one client address may hold at once: open connections, and
//! requests that wait (long-polls, event streams, MCP calls). A client
//! that opens sockets and never finishes a request, or keeps waiting
//! requests open by the thousand, then holds at most its share of the
//! server's file descriptors and memory; everyone else is served as usual.
//!
//! Counted per instance. Behind a reverse proxy every client has the
//! proxy's address: raise the limits there, or turn them off with 0.

use axum::body::Body;
use http_body::{Body as HttpBody, Frame, SizeHint};
use std::{
    collections::HashMap,
    net::IpAddr,
    pin::Pin,
    sync::{Arc, Mutex, PoisonError},
    task::{Context, Poll},
    time::{Duration, Instant},
};

/// The serving settings that keep slow and greedy clients in their place.
#[derive(Debug, Clone)]
pub struct Limits {
    /// How long a client may take to send a request's head, and how long
    /// a kept-alive connection may sit idle before its next one.
    pub header_timeout: Duration,
    /// Open connections per client address.
    pub connections: Crowd,
    /// Waiting requests per client address.
    pub waits: Crowd,
}

impl Limits {
    /// `connections` open connections and `waits` waiting requests per
    /// address (0: any number), and `header_timeout` to send a request's
    /// head.
    pub fn new(header_timeout: Duration, connections: u32, waits: u32) -> Self {
        Self {
            header_timeout,
            connections: Crowd::new(
                connections,
                Refusal {
                    what: "closing new connections",
                    held: "open",
                    setting: "--max-connections-per-address",
                },
            ),
            waits: Crowd::new(
                waits,
                Refusal {
                    what: "refusing waiting requests",
                    held: "waiting",
                    setting: "--max-waits-per-address",
                },
            ),
        }
    }
}

/// How many of something each address holds, up to a limit.
#[derive(Debug, Clone)]
pub struct Crowd(Arc<Counts>);

#[derive(Debug)]
struct Counts {
    /// `None`: no limit (nothing is counted).
    limit: Option<usize>,
    held: Mutex<HashMap<IpAddr, usize>>,
    refusal: Refusal,
    /// When a refusal was last logged, so a flood logs once a minute.
    logged: Mutex<Option<Instant>>,
}

/// What the log says when a crowd refuses an address: "{what} from an
/// address with N {held} already ({setting})".
#[derive(Debug, Clone, Copy)]
pub struct Refusal {
    /// What is refused.
    pub what: &'static str,
    /// What the address holds.
    pub held: &'static str,
    /// The setting that limits it.
    pub setting: &'static str,
}

/// How often a crowd's refusals are logged at most.
const LOG_EVERY: Duration = Duration::from_secs(60);

impl Crowd {
    /// At most `limit` per address (0 is no limit), whose refusals the log
    /// words as `refusal` says.
    pub fn new(limit: u32, refusal: Refusal) -> Self {
        Self(Arc::new(Counts {
            limit: usize::try_from(limit).ok().filter(|l| *l > 0),
            held: Mutex::default(),
            refusal,
            logged: Mutex::default(),
        }))
    }

    /// Logs that `addr` was refused, once a minute at most: a flood of
    /// refusals logs one line.
    pub fn refused(&self, addr: IpAddr) {
        if self.should_log() {
            let Refusal {
                what,
                held,
                setting,
            } = self.0.refusal;
            tracing::warn!(
                %addr,
                "{what} from an address with {} {held} already ({setting})",
                self.held(addr)
            );
        }
    }

    /// The most each address may hold; `None` for no limit.
    pub fn limit(&self) -> Option<usize> {
        self.0.limit
    }

    /// One more for `addr`, held until the permit is dropped; `None` when
    /// `addr` holds its limit already.
    pub fn enter(&self, addr: IpAddr) -> Option<Permit> {
        let Some(limit) = self.0.limit else {
            return Some(Permit(None));
        };
        let mut held = self.0.held.lock().unwrap_or_else(PoisonError::into_inner);
        let count = held.entry(addr).or_insert(0);
        if *count >= limit {
            return None;
        }
        *count += 1;
        Some(Permit(Some((self.clone(), addr))))
    }

    /// How many `addr` holds now.
    pub fn held(&self, addr: IpAddr) -> usize {
        let held = self.0.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.get(&addr).copied().unwrap_or(0)
    }

    /// Whether a refusal should be logged now: once a [`LOG_EVERY`].
    fn should_log(&self) -> bool {
        let mut logged = self.0.logged.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        if logged.is_some_and(|at| now.saturating_duration_since(at) < LOG_EVERY) {
            return false;
        }
        *logged = Some(now);
        true
    }

    fn leave(&self, addr: IpAddr) {
        let mut held = self.0.held.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = held.get_mut(&addr) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                held.remove(&addr);
            }
        }
    }
}

/// One place in a [`Crowd`], given back when dropped.
#[derive(Debug)]
pub struct Permit(Option<(Crowd, IpAddr)>);

impl Drop for Permit {
    fn drop(&mut self) {
        if let Some((crowd, addr)) = self.0.take() {
            crowd.leave(addr);
        }
    }
}

pin_project_lite::pin_project! {
    /// A response body that holds something (a [`Permit`]) until it has
    /// been sent (or the connection dropped it): a waiting request counts
    /// for as long as its reply streams, not only while its handler runs.
    pub struct Holding<T> {
        #[pin]
        body: Body,
        held: T,
    }
}

impl<T: Send + 'static> Holding<T> {
    /// `body`, holding `held` while it lives.
    pub fn body(body: Body, held: T) -> Body {
        Body::new(Self { body, held })
    }
}

impl<T> HttpBody for Holding<T> {
    type Data = <Body as HttpBody>::Data;
    type Error = <Body as HttpBody>::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        self.project().body.poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REFUSAL: Refusal = Refusal {
        what: "refusing",
        held: "held",
        setting: "a test",
    };

    fn addr(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    #[test]
    fn an_address_holds_at_most_its_limit_and_others_are_not_counted_against_it() {
        let crowd = Crowd::new(2, REFUSAL);
        let first = crowd.enter(addr(1)).expect("first");
        let second = crowd.enter(addr(1)).expect("second");
        assert!(crowd.enter(addr(1)).is_none(), "a third is refused");
        let other = crowd.enter(addr(2)).expect("another address");
        assert_eq!((crowd.held(addr(1)), crowd.held(addr(2))), (2, 1));
        drop(first);
        let again = crowd.enter(addr(1)).expect("a place was given back");
        drop((second, again, other));
        assert_eq!((crowd.held(addr(1)), crowd.held(addr(2))), (0, 0));
        assert!(
            crowd.0.held.lock().expect("lock").is_empty(),
            "nothing kept"
        );
    }

    #[test]
    fn no_limit_counts_nothing() {
        let crowd = Crowd::new(0, REFUSAL);
        let permits: Vec<_> = (0..1000).filter_map(|_| crowd.enter(addr(1))).collect();
        assert_eq!(permits.len(), 1000);
        assert_eq!(crowd.held(addr(1)), 0);
        assert_eq!(crowd.limit(), None);
    }

    #[tokio::test]
    async fn a_body_holds_its_place_until_it_is_dropped_and_keeps_its_length() {
        use http_body_util::BodyExt;
        let crowd = Crowd::new(1, REFUSAL);
        let permit = crowd.enter(addr(1)).expect("place");
        let body = Holding::body(Body::from("hello"), permit);
        assert_eq!(body.size_hint().exact(), Some(5));
        assert!(crowd.enter(addr(1)).is_none(), "held by the body");
        let bytes = body.collect().await.expect("body").to_bytes();
        assert_eq!(&bytes[..], b"hello");
        assert!(crowd.enter(addr(1)).is_some(), "given back");
    }
}

//! Waiting for an ask to end: the long-poll's two halves, reading the ask
//! and watching its end ([`Desk::watch`]), then waiting with nothing read
//! held ([`EndWait::ended`]); [`Desk::wait`] is the two in one.

use super::{
    events::{EndWatch, MAX_WAIT},
    Desk,
};
use crate::{error::DeskError, people::Caller};
use interaction::Ask;
use std::{pin::Pin, time::Duration};
use tokio::sync::futures::OwnedNotified;

impl Desk {
    /// The ask, once it has finished or `max` (capped at [`MAX_WAIT`]) has
    /// passed, whichever comes first, as `caller` may see it.
    pub async fn wait(&self, id: &str, max: Duration, caller: &Caller) -> Result<Ask, DeskError> {
        match self.watch(id, max, caller).await? {
            Watch::Over(ask) => Ok(*ask),
            Watch::Pending(end) => {
                end.ended().await;
                self.get(id, caller).await
            }
        }
    }

    /// The first half of [`Desk::wait`]: the ask now, if there is nothing
    /// to wait for (it has ended, or `max` is zero), else its end watched.
    /// Waiting is then [`EndWait::ended`], which reads nothing and holds no
    /// record: thousands of agents may wait at once.
    pub async fn watch(
        &self,
        id: &str,
        max: Duration,
        caller: &Caller,
    ) -> Result<Watch, DeskError> {
        // Watch before reading, so a finish between the two is not missed.
        let watch = self.events.watch_end(id);
        let ended = watch.notified();
        let record = Box::pin(self.read_for(id, caller)).await?;
        if record.end.is_some() || max.is_zero() {
            return Ok(Watch::Over(Box::new(self.view_for(&record, caller))));
        }
        let mut wait = max.min(MAX_WAIT);
        if let Some(at) = record.expires_at {
            let left = u64::try_from(at.saturating_sub(self.now_ms())).unwrap_or(0);
            wait = wait.min(Duration::from_millis(left));
        }
        Ok(Watch::Pending(EndWait {
            ended,
            _watch: watch,
            wait,
        }))
    }
}

/// What [`Desk::watch`] found.
pub enum Watch {
    /// Nothing to wait for: the ask has ended, or the wait asked is zero.
    Over(Box<Ask>),
    /// The ask is pending; its end is watched.
    Pending(EndWait),
}

/// A pending ask's end, watched since before it was read: an end from
/// then on wakes it. Holds the watch and the time left, nothing read.
pub struct EndWait {
    // Dropped before the watch, whose entry goes with the last watch.
    ended: Pin<Box<OwnedNotified>>,
    _watch: EndWatch,
    wait: Duration,
}

impl EndWait {
    /// Returns once the ask has ended or the wait has run out.
    pub async fn ended(self) {
        let EndWait {
            ended,
            _watch: watch,
            wait,
        } = self;
        let _ = tokio::time::timeout(wait, ended).await;
        drop(watch);
    }
}

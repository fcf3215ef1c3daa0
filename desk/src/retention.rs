//! Retention: asks finished long ago, removed with everything kept about
//! them, and the tally of how many were.

use async_trait::async_trait;
use interaction::Timestamp;

use crate::error::StoreError;

/// How many finished asks retention has removed, and when it last did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Removed {
    /// Asks removed since the desk began keeping count.
    pub total: u64,
    /// When a batch last removed any.
    pub last_at: Option<Timestamp>,
}

/// The removal of finished asks; part of every `Store`.
#[async_trait]
pub trait Retention: Send + Sync {
    /// Removes at most `batch` of the asks that finished before `before`
    /// (ms since the epoch), oldest first, with their events,
    /// notifications and spent action tokens, and adds them to the tally,
    /// in one transaction stamped `now`. Returns how many it removed.
    async fn remove_finished(&self, before: i64, batch: u32, now: i64) -> Result<u64, StoreError>;

    /// The tally.
    async fn removed(&self) -> Result<Removed, StoreError>;
}

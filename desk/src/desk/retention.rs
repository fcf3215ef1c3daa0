//! The part of [`Desk`] that forgets: asks finished longer ago than the
//! desk keeps them (`--keep-finished`), removed a small batch at a time.

use super::Desk;
use crate::{error::DeskError, retention::Removed};
use std::time::Duration;

/// How many asks one batch removes: few, so each transaction is short and
/// no answer waits long behind one.
const BATCH: u32 = 200;

impl Desk {
    /// The same desk removing asks that finished more than `keep` ago
    /// when [`Desk::remove_old_finished`] runs; `None` keeps them all.
    pub fn keeping_finished(mut self, keep: Option<Duration>) -> Self {
        self.keep_finished = keep;
        self
    }

    /// How long finished asks are kept, if not forever.
    pub fn keep_finished(&self) -> Option<Duration> {
        self.keep_finished
    }

    /// Removes every ask that finished more than the desk's keep ago, with
    /// its events, notifications and spent action tokens, one batch per
    /// transaction, pausing between batches so other writes go first.
    /// Returns how many were removed; none when the desk keeps them all.
    pub async fn remove_old_finished(&self) -> Result<u64, DeskError> {
        let Some(keep) = self.keep_finished else {
            return Ok(0);
        };
        let now = self.now_ms();
        let before = now.saturating_sub(i64::try_from(keep.as_millis()).unwrap_or(i64::MAX));
        let mut total = 0;
        loop {
            let removed = self.store.remove_finished(before, BATCH, now).await?;
            total += removed;
            if removed < u64::from(BATCH) {
                return Ok(total);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// How many finished asks retention has removed, and when it last did.
    pub async fn removed(&self) -> Result<Removed, DeskError> {
        Ok(self.store.removed().await?)
    }
}

//! The part of [`Desk`] that forgets: asks finished longer ago than the
//! desk keeps them (`--keep-finished`), removed a small batch at a time,
//! at start and every hour after ([`Desk::keep_removing_old`]).

use super::Desk;
use crate::{error::DeskError, retention::Removed};
use std::time::Duration;

/// How often retention looks for asks to remove: a finished ask outlives
/// its keep by at most this much.
const EVERY: Duration = Duration::from_secs(3600);

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

impl Desk {
    /// Removes old finished asks now and every hour until `stop` ends,
    /// saying in the log how many; with several instances each runs it,
    /// and a batch another removed first is simply not found.
    pub async fn keep_removing_old(
        self,
        keep: Duration,
        stop: impl std::future::Future<Output = ()>,
    ) {
        let mut tick = tokio::time::interval(EVERY);
        let mut stop = std::pin::pin!(stop);
        loop {
            tokio::select! {
                () = &mut stop => return,
                _ = tick.tick() => match self.remove_old_finished().await {
                    Ok(0) => {}
                    Ok(removed) => tracing::info!(
                        removed,
                        "retention: removed {removed} asks finished more than {} ago",
                        written(keep)
                    ),
                    Err(e) => tracing::warn!("retention: removing old asks failed: {e}"),
                },
            }
        }
    }
}

/// A keep as people write it: whole days where it is some, else hours,
/// else seconds.
fn written(keep: Duration) -> String {
    let secs = keep.as_secs();
    match secs {
        s if s >= 86_400 && s % 86_400 == 0 => format!("{}d", s / 86_400),
        s if s >= 3_600 && s % 3_600 == 0 => format!("{}h", s / 3_600),
        s => format!("{s}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keep_reads_as_it_was_written() {
        assert_eq!(written(Duration::from_secs(90 * 86_400)), "90d");
        assert_eq!(written(Duration::from_secs(36 * 3_600)), "36h");
        assert_eq!(written(Duration::from_secs(90)), "90s");
    }
}

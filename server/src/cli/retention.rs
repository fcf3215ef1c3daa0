//! `--keep-finished`: the task that removes asks finished longer ago than
//! the desk keeps them, at start and every hour after, saying in the log
//! how many it removed.

use desk::Desk;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How often retention looks for asks to remove: a finished ask outlives
/// its keep by at most this much.
const EVERY: Duration = Duration::from_secs(3600);

/// Removes old finished asks from `desk` until `stop`; with several
/// instances each runs it, and a batch another removed first is simply
/// not found.
pub async fn run(desk: Desk, keep: Duration, stop: CancellationToken) {
    let mut tick = tokio::time::interval(EVERY);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = tick.tick() => match desk.remove_old_finished().await {
                Ok(0) => {}
                Ok(removed) => tracing::info!(
                    removed,
                    "retention: removed {removed} asks finished more than {} ago",
                    days(keep)
                ),
                Err(e) => tracing::warn!("retention: removing old asks failed: {e}"),
            },
        }
    }
}

/// A keep as people write it: whole days where it is some, else hours,
/// else seconds.
pub fn days(keep: Duration) -> String {
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
        assert_eq!(days(Duration::from_secs(90 * 86_400)), "90d");
        assert_eq!(days(Duration::from_secs(36 * 3_600)), "36h");
        assert_eq!(days(Duration::from_secs(90)), "90s");
    }
}

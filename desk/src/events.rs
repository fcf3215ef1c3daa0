//! The desk's numbered events: every ask created or finished, broadcast to
//! whoever listens and kept for a while for streams that reconnect.

use interaction::AskSummary;
use std::{
    collections::VecDeque,
    sync::{Arc, Mutex, MutexGuard, PoisonError},
    time::Duration,
};
use tokio::sync::broadcast;

/// Something that happened to an ask: it was created (status `pending`)
/// or it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The event's place in the order of all events since the desk started.
    pub seq: u64,
    /// The ask as it is after the event.
    pub ask: Arc<AskSummary>,
}

/// How many recent events the desk keeps for clients that reconnect.
pub const REPLAY_EVENTS: usize = 10_000;

/// How long a long poll may wait at most.
pub const MAX_WAIT: Duration = Duration::from_secs(300);

/// The numbered events, newest last.
#[derive(Debug, Default)]
struct Log {
    seq: u64,
    recent: VecDeque<Event>,
}

/// The events of one desk: numbered, kept and broadcast.
#[derive(Debug, Clone)]
pub(crate) struct Events {
    sender: broadcast::Sender<Event>,
    log: Arc<Mutex<Log>>,
    epoch: Arc<str>,
}

impl Events {
    pub(crate) fn new(epoch: String) -> Self {
        Self {
            sender: broadcast::channel(1024).0,
            log: Arc::default(),
            epoch: epoch.into(),
        }
    }

    fn log(&self) -> MutexGuard<'_, Log> {
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.sender.subscribe()
    }

    pub(crate) fn epoch(&self) -> &str {
        &self.epoch
    }

    pub(crate) fn publish(&self, ask: AskSummary) {
        // Numbering, keeping and sending under one lock keeps events in
        // number order for every listener.
        let mut log = self.log();
        log.seq += 1;
        let event = Event {
            seq: log.seq,
            ask: Arc::new(ask),
        };
        if log.recent.len() == REPLAY_EVENTS {
            log.recent.pop_front();
        }
        log.recent.push_back(event.clone());
        // Nobody listening is fine: events are hints, the store is the truth.
        let _ = self.sender.send(event);
    }

    pub(crate) fn version(&self) -> u64 {
        self.log().seq
    }

    pub(crate) fn since(&self, after: u64) -> Option<Vec<Event>> {
        let log = self.log();
        if after > log.seq {
            return None;
        }
        let oldest_kept = log.recent.front().map_or(log.seq + 1, |e| e.seq);
        if after + 1 < oldest_kept {
            return None;
        }
        Some(
            log.recent
                .iter()
                .filter(|e| e.seq > after)
                .cloned()
                .collect(),
        )
    }

    pub(crate) async fn wait_for_change(&self, after: u64, max: Duration) -> u64 {
        let mut events = self.subscribe();
        if self.version() > after {
            return self.version();
        }
        let deadline = tokio::time::sleep(max.min(MAX_WAIT));
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                event = events.recv() => match event {
                    Ok(event) if event.seq > after => break,
                    Ok(_) => {}
                    Err(_) => break,
                },
                () = &mut deadline => break,
            }
        }
        self.version()
    }
}

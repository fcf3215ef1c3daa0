//! The desk's numbered events: every ask created or finished, published
//! here in number order to whoever listens, followed from other instances,
//! and kept for a while for streams that reconnect.

use super::Desk;
use crate::{error::DeskError, sql::Changes};
use interaction::AskSummary;
use std::{
    collections::HashMap,
    pin::Pin,
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, Mutex, PoisonError,
    },
    time::Duration,
};
use tokio::sync::{broadcast, futures::OwnedNotified, Notify};

/// Something that happened to an ask: it was created (status `pending`)
/// or it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The event's number, given by the database in the transaction that
    /// made the change: the same on every instance and after restarts.
    pub seq: u64,
    /// The ask as it is after the event.
    pub ask: Arc<AskSummary>,
}

/// How many events the desk keeps by default for streams that resume.
pub const KEEP_EVENTS: u64 = 10_000;

/// How long a long poll may wait at most.
pub const MAX_WAIT: Duration = Duration::from_secs(300);

/// Who waits for which ask to end.
type Watchers = Arc<Mutex<HashMap<String, Arc<Notify>>>>;

/// The events of one desk as this process has heard them, in number
/// order: broadcast, and waking those who wait for an ask to end.
#[derive(Debug, Clone)]
pub(crate) struct Events {
    sender: broadcast::Sender<Event>,
    /// The newest event published here.
    seq: Arc<AtomicU64>,
    watchers: Watchers,
}

/// A wait for one ask to end, woken by the event that ends it and by no
/// other: with thousands of agents waiting, an answer wakes its own
/// waiters, not all of them.
#[derive(Debug)]
pub(crate) struct EndWatch {
    watchers: Watchers,
    id: String,
    notify: Option<Arc<Notify>>,
}

impl EndWatch {
    /// Wakes every `notified()` future made (and enabled or polled) before
    /// the ask's end is published.
    #[cfg(test)]
    pub(crate) fn notify(&self) -> &Notify {
        self.notify
            .as_deref()
            .expect("an EndWatch keeps its Notify until dropped")
    }

    /// A wait for the end, registered now: the ask's end published from
    /// here on wakes it. Drop it before this watch, whose entry goes with
    /// the last watch (the wait holds the `Notify` too).
    pub(crate) fn notified(&self) -> Pin<Box<OwnedNotified>> {
        let notify = self
            .notify
            .clone()
            .expect("an EndWatch keeps its Notify until dropped");
        let mut notified = Box::pin(notify.notified_owned());
        notified.as_mut().enable();
        notified
    }
}

impl Drop for EndWatch {
    fn drop(&mut self) {
        // Counts change only under the lock: the last watcher of an ask
        // removes its entry.
        let mut watchers = self.watchers.lock().unwrap_or_else(PoisonError::into_inner);
        drop(self.notify.take());
        if watchers
            .get(&self.id)
            .is_some_and(|n| Arc::strong_count(n) == 1)
        {
            watchers.remove(&self.id);
        }
    }
}

impl Events {
    /// Events published here will follow event `seq`.
    pub(crate) fn new(seq: u64) -> Self {
        Self {
            sender: broadcast::channel(1024).0,
            seq: Arc::new(AtomicU64::new(seq)),
            watchers: Arc::default(),
        }
    }

    /// Starts watching for the end of the ask `id`.
    pub(crate) fn watch_end(&self, id: &str) -> EndWatch {
        let mut watchers = self.watchers.lock().unwrap_or_else(PoisonError::into_inner);
        let notify = Arc::clone(watchers.entry(id.to_owned()).or_default());
        EndWatch {
            watchers: Arc::clone(&self.watchers),
            id: id.to_owned(),
            notify: Some(notify),
        }
    }

    /// How many asks have someone waiting for their end.
    #[cfg(test)]
    pub(crate) fn watched(&self) -> usize {
        self.watchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.sender.subscribe()
    }

    /// Publishes event `seq`. Callers publish in number order, one at a
    /// time ([`Desk`] does, under its cursor's lock).
    pub(crate) fn publish(&self, seq: u64, ask: AskSummary) {
        let event = Event {
            seq,
            ask: Arc::new(ask),
        };
        self.seq.store(seq, Ordering::Release);
        if event.ask.status.is_finished() {
            let watchers = self.watchers.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(notify) = watchers.get(&event.ask.id) {
                notify.notify_waiters();
            }
        }
        // Nobody listening is fine: events are hints, the store is the truth.
        let _ = self.sender.send(event);
    }

    /// The newest event published here.
    pub(crate) fn version(&self) -> u64 {
        self.seq.load(Ordering::Acquire)
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

impl Desk {
    /// Every event from now on. A receiver that falls behind gets
    /// `Lagged` and should re-read what it cares about.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    /// The number of the newest event heard here: it grows whenever an
    /// ask is created or finished (on any instance of this database), so a
    /// list read at version `v` is stale once it grows.
    pub fn version(&self) -> u64 {
        self.events.version()
    }

    /// Every event after number `after`, oldest first, read from the store;
    /// `None` when some of them are no longer kept, or `after` is not an
    /// event of this database, so the caller must re-read the asks instead.
    pub async fn events_since(&self, after: u64) -> Result<Option<Vec<Event>>, DeskError> {
        const BATCH: u32 = 1000;
        if !self.store.event_bounds().await?.keeps_after(after) {
            return Ok(None);
        }
        let mut events = Vec::new();
        let mut last = after;
        loop {
            let batch = self.store.events_after(last, BATCH).await?;
            let full = batch.len() == BATCH as usize;
            for (seq, entry) in batch {
                last = seq;
                events.push(Event {
                    seq,
                    ask: Arc::new(self.summary(entry)),
                });
            }
            if !full {
                return Ok(Some(events));
            }
        }
    }

    /// Forgets all but the newest `keep` events: a stream resuming from
    /// before them is told to re-read the asks.
    pub async fn prune_events(&self, keep: u64) -> Result<(), DeskError> {
        Ok(self.store.prune_events(keep).await?)
    }

    /// Returns once the version is past `after`, or `max` (capped at
    /// [`MAX_WAIT`]) has passed, with the version then.
    pub async fn wait_for_change(&self, after: u64, max: Duration) -> u64 {
        self.events.wait_for_change(after, max).await
    }

    /// Publishes the events stored since the last one published here, in
    /// order: this instance's own, after each change it makes, and other
    /// instances', when [`Desk::follow`] hears of them. A failed read is
    /// logged; the events stay stored for the next catch-up.
    pub(super) async fn catch_up(&self) {
        const BATCH: u32 = 500;
        let mut cursor = self.cursor.lock().await;
        loop {
            let batch = match self.store.events_after(*cursor, BATCH).await {
                Ok(batch) => batch,
                Err(e) => {
                    tracing::warn!("reading the desk's new events failed: {e}");
                    return;
                }
            };
            let full = batch.len() == BATCH as usize;
            for (seq, entry) in batch {
                self.events.publish(seq, self.summary(entry));
                *cursor = seq;
            }
            if !full {
                return;
            }
        }
    }

    /// Follows what other instances on the same PostgreSQL database do:
    /// the asks they create and finish reach this instance's waiters,
    /// event streams and open pages as its own do, in the database's
    /// order; after a lost connection, the events missed meanwhile follow.
    /// Runs until dropped.
    pub async fn follow(&self, mut changes: Changes) {
        loop {
            changes.next().await;
            self.catch_up().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use interaction::AskStatus;
    use std::{
        future::Future,
        pin::pin,
        task::{Context, Poll, Waker},
    };

    fn summary(id: &str, status: AskStatus) -> AskSummary {
        AskSummary {
            id: id.to_owned(),
            url: format!("http://desk/asks/{id}"),
            title: None,
            agent: None,
            status,
            created_at: interaction::Timestamp::from_ms(1_795_996_800_000),
            expires_at: None,
            question_count: 1,
            to: Vec::new(),
            listens: false,
            asked_by: None,
        }
    }

    fn is_woken(future: std::pin::Pin<&mut impl Future<Output = ()>>) -> bool {
        future.poll(&mut Context::from_waker(Waker::noop())) == Poll::Ready(())
    }

    #[test]
    fn an_ask_ending_wakes_its_own_waiters_only_and_their_entries_go_with_them() {
        let events = Events::new(0);
        let (a1, a2, b) = (
            events.watch_end("a"),
            events.watch_end("a"),
            events.watch_end("b"),
        );
        {
            let mut woken_a1 = pin!(a1.notify().notified());
            let mut woken_a2 = pin!(a2.notify().notified());
            let mut woken_b = pin!(b.notify().notified());
            for waiter in [woken_a1.as_mut(), woken_a2.as_mut(), woken_b.as_mut()] {
                waiter.enable();
            }
            assert_eq!(events.watched(), 2);

            events.publish(1, summary("a", AskStatus::Pending));
            events.publish(2, summary("b", AskStatus::Pending));
            events.publish(3, summary("c", AskStatus::Answered));
            assert!(!is_woken(woken_a1.as_mut()), "a new ask wakes nobody");
            assert!(!is_woken(woken_b.as_mut()));

            events.publish(4, summary("a", AskStatus::Answered));
            assert!(is_woken(woken_a1.as_mut()));
            assert!(is_woken(woken_a2.as_mut()));
            assert!(
                !is_woken(woken_b.as_mut()),
                "another ask's end wakes nobody else"
            );
        }

        drop(a1);
        assert_eq!(events.watched(), 2, "a2 still watches a");
        drop(a2);
        drop(b);
        assert_eq!(events.watched(), 0);
    }

    /// What a deferred long-poll holds: registered when made, so an end
    /// published before it is first polled still wakes it.
    #[test]
    fn an_owned_wait_hears_an_end_published_before_it_is_polled() {
        let events = Events::new(0);
        let watch = events.watch_end("a");
        let mut ended = watch.notified();
        events.publish(1, summary("a", AskStatus::Answered));
        assert!(is_woken(ended.as_mut()));
        drop(ended);
        drop(watch);
        assert_eq!(events.watched(), 0, "the entry goes with the watch");
    }
}

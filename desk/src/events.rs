//! The desk's numbered events: every ask created or finished, broadcast to
//! whoever listens and kept for a while for streams that reconnect.

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
    /// time ([`crate::Desk`] does, under its cursor's lock).
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
            created_at: "2026-11-30T00:00:00.000Z".to_owned(),
            expires_at: None,
            question_count: 1,
            to: Vec::new(),
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

//! The storage interface: what the desk needs from a database, and nothing
//! about which database it is.

use crate::{
    error::StoreError,
    id::AskId,
    outbox::Owed,
    record::{End, Entry, Record},
};
use async_trait::async_trait;
use interaction::AskStatus;

/// Which asks a list holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListFilter {
    /// Only asks with this status.
    pub status: Option<AskStatus>,
    /// Only asks from this agent (exactly).
    pub agent: Option<String>,
    /// Only asks whose title, agent, or a question's header or text
    /// contains this text, in any case.
    pub text: Option<String>,
    /// Only asks listed after this one: where the previous page ended.
    pub after: Option<Cursor>,
}

/// A place in a list, newest first: an ask's creation time and its rank
/// among asks created in the same millisecond.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    /// When the ask was made (ms since the epoch).
    pub created_at: i64,
    /// Its rank among asks made then (the store's insertion order).
    pub position: i64,
}

impl Cursor {
    /// The cursor as a list's `next` carries it.
    pub fn encode(self) -> String {
        format!("{}.{}", self.created_at, self.position)
    }

    /// A cursor from a list's `next`; `None` unless it is one.
    pub fn parse(text: &str) -> Option<Self> {
        let (created_at, position) = text.split_once('.')?;
        Some(Self {
            created_at: created_at.parse().ok()?,
            position: position.parse().ok()?,
        })
    }
}

/// An idempotency key and the digest of the content of the ask made with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keyed {
    /// The key.
    pub key: String,
    /// A digest of the ask's validated content.
    pub fingerprint: String,
}

/// Which events the store keeps: those numbered after `pruned`, up to and
/// including `last`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EventBounds {
    /// The newest event pruned (0 when none was).
    pub pruned: u64,
    /// The newest event (0 when there is none yet).
    pub last: u64,
}

impl EventBounds {
    /// Whether every event after `after` is still kept (and `after` is an
    /// event this store numbered at all).
    pub fn keeps_after(self, after: u64) -> bool {
        after >= self.pruned && after <= self.last
    }
}

/// What [`Store::counts`] counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Asks pending.
    pub pending: u64,
    /// Notifications neither delivered nor given up.
    pub backlog: u64,
}

/// Where asks live. Every method is one atomic step; [`Store::finish`] is
/// the only way out of `pending`, and it succeeds at most once per ask.
///
/// Every implementation passes the same conformance suite
/// (`desk/tests/conformance.rs`).
#[async_trait]
pub trait Store:
    crate::people::People
    + crate::sessions::Sessions
    + crate::outbox::Outbox
    + crate::retention::Retention
    + crate::messages::Messages
    + crate::owners::Owners
    + crate::grants::Grants
    + Send
    + Sync
    + 'static
{
    /// Stores a new pending ask, with the idempotency key and the digest of
    /// its content when it was created with one, its creation as the next
    /// event and the notifications `owed` for it, in one transaction.
    /// Returns `false`, storing nothing, when that key is taken already.
    async fn insert(
        &self,
        record: &Record,
        key: Option<&Keyed>,
        owed: &[Owed],
    ) -> Result<bool, StoreError>;

    /// The ask created with this idempotency key by the creator `scope`
    /// ([`crate::record::AskedBy::scope`]), and its content's digest.
    async fn by_key(&self, key: &str, scope: &str) -> Result<Option<(AskId, String)>, StoreError>;

    /// The ask with this id, if there is one, decoded and validated; an ask
    /// that fails either is [`StoreError::Corrupt`].
    async fn get(&self, id: &AskId) -> Result<Option<Record>, StoreError>;

    /// The asks `filter` lets through, newest first, at most `limit` of
    /// them, each with its place in the list; with `asked_by`, only the
    /// asks the person of that name made.
    async fn list(
        &self,
        filter: &ListFilter,
        asked_by: Option<&str>,
        limit: u32,
    ) -> Result<Vec<(Cursor, Entry)>, StoreError>;

    /// Ends a pending ask, numbers its end as the next event, drops its
    /// reminders not yet attempted and writes the notifications `owed` for
    /// it, in one transaction. Returns `false`,
    /// changing nothing, when the ask is unknown or has already ended.
    async fn finish(&self, id: &AskId, end: &End, owed: &[Owed]) -> Result<bool, StoreError>;

    /// The pending asks whose expiry is at or before `now`.
    async fn due(&self, now: i64) -> Result<Vec<AskId>, StoreError>;

    /// The events numbered after `after`, oldest first, at most `limit`:
    /// each with its ask's list line as it was after the event. Events
    /// commit in number order, so none can later appear before the last
    /// one returned.
    async fn events_after(&self, after: u64, limit: u32) -> Result<Vec<(u64, Entry)>, StoreError>;

    /// The numbers of the events kept.
    async fn event_bounds(&self) -> Result<EventBounds, StoreError>;

    /// Forgets all but the newest `keep` events.
    async fn prune_events(&self, keep: u64) -> Result<(), StoreError>;

    /// How many asks are pending, and how many notifications are neither
    /// delivered nor given up (the outbox's backlog).
    async fn counts(&self) -> Result<Counts, StoreError>;
}

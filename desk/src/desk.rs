//! [`Desk`] itself: what it holds, how it is opened, and reading an ask;
//! each other part of it is a child module named for what the desk does
//! there.

mod creating;
pub(crate) mod events;
mod finishing;
pub(crate) mod grants;
mod holders;
mod links;
pub(crate) mod listing;
pub(crate) mod messages;
mod notifying;
mod people;
mod retention;
pub(crate) mod watching;

use crate::{
    action,
    error::DeskError,
    id::AskId,
    outbox::Reminders,
    people::{Caller, LinkAnswers},
    record::{Entry, Record},
    store::Store,
};
use events::Events;
use interaction::{Ask, AskSummary};
use std::{
    fmt,
    sync::Arc,
    time::{SystemTime, UNIX_EPOCH},
};

/// The source of "now", in milliseconds since the Unix epoch.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

fn system_clock() -> Clock {
    Arc::new(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    })
}

/// The asks and everything that may happen to them. Cheap to clone.
#[derive(Clone)]
pub struct Desk {
    store: Arc<dyn Store>,
    events: Events,
    /// The newest event published here; held while events are read and
    /// published, so they go out one at a time, in number order.
    cursor: Arc<tokio::sync::Mutex<u64>>,
    public_url: Arc<str>,
    clock: Clock,
    /// The names of the channels every ask is told to (the outbox's).
    channels: Arc<[String]>,
    /// When waiting asks are told again, and to whom.
    reminders: Arc<Reminders>,
    /// The channel of browsers' push subscriptions: owed a notification
    /// only while some browser is subscribed.
    push_channel: Option<Arc<str>>,
    /// The key of action tokens, shared through the database.
    action_key: action::ActionKey,
    /// When an ask's link alone answers and declines.
    link_answers: LinkAnswers,
    /// How long finished asks are kept, if not forever (`retention`).
    keep_finished: Option<std::time::Duration>,
    /// The last answer to "does the desk have people?".
    people_seen: Arc<people::PeopleSeen>,
    /// Woken when a message to a session is written through this desk.
    written: Arc<tokio::sync::Notify>,
}

impl fmt::Debug for Desk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Desk")
            .field("public_url", &self.public_url)
            .finish_non_exhaustive()
    }
}

impl Desk {
    /// A desk over `store` whose ask pages live under `public_url` (e.g.
    /// `http://127.0.0.1:3000`). Its events follow the newest one stored.
    pub async fn open(store: Arc<dyn Store>, public_url: &str) -> Result<Self, DeskError> {
        let last = store.event_bounds().await?.last;
        let fresh = action::ActionKey::fresh()
            .map_err(|e| DeskError::System(format!("no randomness: {e}")))?;
        let action_key =
            action::ActionKey::from_stored(&store.server_key(action::KEY_NAME, &fresh).await?);
        Ok(Self {
            store,
            events: Events::new(last),
            cursor: Arc::new(tokio::sync::Mutex::new(last)),
            public_url: public_url.trim_end_matches('/').into(),
            clock: system_clock(),
            channels: Arc::new([]),
            reminders: Arc::default(),
            push_channel: None,
            action_key,
            link_answers: LinkAnswers::default(),
            keep_finished: None,
            people_seen: Arc::default(),
            written: Arc::default(),
        })
    }

    /// The same desk reading the time from `clock`; for tests of expiry.
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The same desk letting an ask's link answer as `rule` says: while
    /// the desk has no people (the default), always, or never (then only
    /// signed-in people and admins answer, a person only the asks for them
    /// or for anyone, and no agent's client relays).
    pub fn answering_by_link(mut self, rule: LinkAnswers) -> Self {
        self.link_answers = rule;
        self
    }

    /// When an ask's link answers on this desk.
    pub fn link_answers(&self) -> LinkAnswers {
        self.link_answers
    }

    /// The URL asks' pages start with.
    pub fn public_url(&self) -> &str {
        &self.public_url
    }

    fn url(&self, id: &AskId) -> String {
        format!("{}/asks/{id}", self.public_url)
    }

    fn summary(&self, entry: Entry) -> AskSummary {
        let url = self.url(&entry.id);
        entry.summary(url)
    }

    fn view(&self, record: &Record) -> Ask {
        record.view(self.url(&record.id))
    }

    /// The ask as the desk holds it, its request validated, expiring it
    /// first if its time is up: for the desk's own work (notifications,
    /// exports of its own), never for a caller ([`Desk::read_for`]).
    pub async fn read(&self, id: &str) -> Result<Record, DeskError> {
        let id = AskId::parse(id).ok_or(DeskError::NotFound)?;
        let record = self.store.get(&id).await?.ok_or(DeskError::NotFound)?;
        if !record.is_due(self.now_ms()) {
            return Ok(record);
        }
        let at = record.expires_at.unwrap_or_default();
        // Boxed: ending is the rare path of a read, and its future would
        // otherwise size every read's, and every long-poll's, which holds
        // one for as long as it waits.
        let outcome = record.expiry();
        match Box::pin(self.end(record, outcome, at, None)).await? {
            Ok(expired) => Ok(expired),
            // Someone else ended it first; read how.
            Err(id) => self.store.get(&id).await?.ok_or(DeskError::NotFound),
        }
    }

    /// The ask as `caller` may see it: another agent's ask is
    /// [`DeskError::NotFound`], as an id that is no ask's is, so an agent
    /// learns nothing of what others asked. Every read, wait and act on
    /// an ask for a caller starts here.
    pub(crate) async fn read_for(&self, id: &str, caller: &Caller) -> Result<Record, DeskError> {
        let record = self.read(id).await?;
        if !caller.sees(&record.asked_by) {
            return Err(DeskError::NotFound);
        }
        Ok(record)
    }

    /// The API's view of `record` for `caller`: the agent's session only
    /// to the agent itself and to admins.
    fn view_for(&self, record: &Record, caller: &Caller) -> Ask {
        let mut ask = self.view(record);
        if !caller.sees_session(&record.asked_by) {
            ask.session = None;
        }
        ask
    }

    /// The ask with this id, as `caller` may see it.
    pub async fn get(&self, id: &str, caller: &Caller) -> Result<Ask, DeskError> {
        // Boxed: a long-poll's handler holds a `get` beside its wait.
        let record = Box::pin(self.read_for(id, caller)).await?;
        Ok(self.view_for(&record, caller))
    }

    /// Whether the database answers: one cheap read, for `/readyz`.
    pub async fn answers(&self) -> Result<(), DeskError> {
        self.store.event_bounds().await?;
        Ok(())
    }

    /// The time now, as this desk's clock says, in ms since the epoch.
    pub fn now_ms(&self) -> i64 {
        (self.clock)()
    }
}

//! [`Desk`] itself: what it holds, how it is opened and configured, and
//! its core, reading and ending asks; each other part of it is a child
//! module named for its concern.

mod creating;
pub(crate) mod events;
mod notifying;
mod people;
pub(crate) mod watching;

use events::Events;

use crate::{
    action,
    error::DeskError,
    id::AskId,
    outbox::{Notice, Reminders},
    people::{Actor, Finishing},
    record::{End, Entry, Finisher, Record},
    store::{Cursor, ListFilter, Store},
};
use interaction::{Answers, Ask, AskStatus, AskSummary, Decline, Outcome, ValidRequest};
use std::{
    fmt,
    sync::Arc,
    time::{SystemTime, UNIX_EPOCH},
};

/// One page of a list of asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The asks, newest first.
    pub asks: Vec<AskSummary>,
    /// Where the next page starts, when there is one.
    pub next: Option<Cursor>,
}

/// How many asks a list returns at most.
pub const LIST_LIMIT: u32 = 500;

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
    /// Whether only signed-in people (and admins) may answer and decline.
    answer_requires_sign_in: bool,
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
            answer_requires_sign_in: false,
        })
    }

    /// The same desk reading the time from `clock`; for tests of expiry.
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The same desk letting only signed-in people and admins answer and
    /// decline: an ask's link alone no longer does, nor an agent's client,
    /// and a person answers only the asks for them (or for anyone).
    pub fn requiring_sign_in_to_answer(mut self, required: bool) -> Self {
        self.answer_requires_sign_in = required;
        self
    }

    /// Whether only signed-in people and admins may answer.
    pub fn answer_requires_sign_in(&self) -> bool {
        self.answer_requires_sign_in
    }

    /// The URL asks' pages start with.
    pub fn public_url(&self) -> &str {
        &self.public_url
    }

    fn now(&self) -> i64 {
        (self.clock)()
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
    /// first if its time is up.
    pub async fn read(&self, id: &str) -> Result<Record, DeskError> {
        let id = AskId::parse(id).ok_or(DeskError::NotFound)?;
        let record = self.store.get(&id).await?.ok_or(DeskError::NotFound)?;
        if !record.is_due(self.now()) {
            return Ok(record);
        }
        let at = record.expires_at.unwrap_or_default();
        // Boxed: ending is the rare path of a read, and its future would
        // otherwise size every read's, and every long-poll's, which holds
        // one for as long as it waits.
        match Box::pin(self.end(record, Outcome::Expired, at, None)).await? {
            Ok(expired) => Ok(expired),
            // Someone else ended it first; read how.
            Err(id) => self.store.get(&id).await?.ok_or(DeskError::NotFound),
        }
    }

    /// Ends the pending `record` with `outcome` at `at` by `finisher`
    /// (`None`: it expired): the record as it ended, or its id back when
    /// another caller ended it first.
    async fn end(
        &self,
        mut record: Record,
        outcome: Outcome,
        at: i64,
        finisher: Option<Finisher>,
    ) -> Result<Result<Record, AskId>, DeskError> {
        let end = End::new(&record.request, outcome, at, finisher);
        let owed = self.owed(Notice::Finished).await?;
        if !self.store.finish(&record.id, &end, &owed).await? {
            return Ok(Err(record.id));
        }
        tracing::info!(id = %record.id, status = end.outcome().status().as_str(), "ask finished");
        record.end = Some(end);
        self.catch_up().await;
        Ok(Ok(record))
    }

    /// The ask with this id.
    pub async fn get(&self, id: &str) -> Result<Ask, DeskError> {
        // Boxed: a long-poll's handler holds a `get` beside its wait.
        Ok(self.view(&Box::pin(self.read(id)).await?))
    }

    /// Ends a pending ask with the outcome `decide` makes of its request,
    /// if `by` may, recording who and how: one read, one conditional write.
    async fn finish(
        &self,
        id: &str,
        by: &Actor,
        finishing: Finishing,
        decide: impl FnOnce(&ValidRequest) -> Result<Outcome, DeskError>,
    ) -> Result<Ask, DeskError> {
        let record = self.read(id).await?;
        self.may(by, &record.to, finishing)?;
        if record.end.is_some() {
            return Err(self.refusal(&record));
        }
        let outcome = decide(&record.request)?;
        let now = self.now();
        match self.end(record, outcome, now, Some(by.finisher())).await? {
            Ok(ended) => Ok(self.view(&ended)),
            // Someone else finished it between our read and our write.
            Err(_) => Err(self.refusal(&self.read(id).await?)),
        }
    }

    fn refusal(&self, record: &Record) -> DeskError {
        let ask = Box::new(self.view(record));
        match ask.status {
            AskStatus::Cancelled | AskStatus::Expired => DeskError::Gone(ask),
            _ => DeskError::Finished(ask),
        }
    }

    /// Validates the human's answers against the stored request and ends
    /// the ask with them, if it is still pending, recording `by`.
    pub async fn answer(&self, id: &str, answers: Answers, by: &Actor) -> Result<Ask, DeskError> {
        self.answer_with(id, by, |_| answers).await
    }

    /// Like [`Desk::answer`], with answers made from the stored request by
    /// `make` (a posted form reads its fields by the request's questions):
    /// still one read and one write.
    pub async fn answer_with(
        &self,
        id: &str,
        by: &Actor,
        make: impl FnOnce(&ValidRequest) -> Answers,
    ) -> Result<Ask, DeskError> {
        self.finish(id, by, Finishing::Answer, |request| {
            request
                .validate_answers(make(request))
                .map(Outcome::Answered)
                .map_err(DeskError::Invalid)
        })
        .await
    }

    /// Ends a pending ask as declined, recording `by`.
    pub async fn decline(&self, id: &str, decline: Decline, by: &Actor) -> Result<Ask, DeskError> {
        let valid = decline.validate().map_err(DeskError::Invalid)?;
        self.finish(id, by, Finishing::Answer, |_| {
            Ok(Outcome::Declined {
                reason: valid.reason,
            })
        })
        .await
    }

    /// Ends a pending ask as cancelled: the agent gave up. Records `by`.
    pub async fn cancel(&self, id: &str, by: &Actor) -> Result<Ask, DeskError> {
        self.finish(id, by, Finishing::Cancel, |_| Ok(Outcome::Cancelled))
            .await
    }

    /// Asks with this status (all when `None`), newest first, at most
    /// [`LIST_LIMIT`].
    pub async fn list(&self, status: Option<AskStatus>) -> Result<Vec<AskSummary>, DeskError> {
        let filter = ListFilter {
            status,
            ..ListFilter::default()
        };
        Ok(self.search(&filter, LIST_LIMIT).await?.asks)
    }

    /// One page of the asks `filter` lets through, newest first: at most
    /// `limit`, and the cursor of the next page when there are more.
    pub async fn search(&self, filter: &ListFilter, limit: u32) -> Result<Page, DeskError> {
        self.expire_due().await?;
        let mut rows = self.store.list(filter, limit.saturating_add(1)).await?;
        let more = rows.len() > limit as usize;
        rows.truncate(limit as usize);
        let next = if more {
            rows.last().map(|(cursor, _)| *cursor)
        } else {
            None
        };
        Ok(Page {
            asks: rows.into_iter().map(|(_, e)| self.summary(e)).collect(),
            next,
        })
    }

    /// Expires every pending ask whose time is up, and tells listeners.
    /// The server calls this every second, so waiting pages and agents
    /// hear of an expiry when it happens.
    pub async fn expire_due(&self) -> Result<usize, DeskError> {
        let mut expired = 0;
        for id in self.store.due(self.now()).await? {
            // Reading an ask whose time is up expires it, once.
            if self.read(id.as_str()).await?.status() == AskStatus::Expired {
                expired += 1;
            }
        }
        Ok(expired)
    }
}

//! The desk: asks from pending to finished, stored durably.
//!
//! [`Desk`] is the one code path for every way in — the HTTP API, the
//! answering page's server functions, the plain form post and agent tools —
//! so an ask is validated, stored and finished the same way whoever acts on
//! it. Input is checked by the `interaction` crate; storage sits behind the
//! [`Store`] trait, with [`SqliteStore`] as the embedded default.

mod sqlite;
mod store;
mod time;

pub use sqlite::SqliteStore;
pub use store::{Finish, Record, Store, StoreError};
pub use time::rfc3339;

use interaction::{
    project, Answers, Ask, AskCreated, AskStatus, AskSummary, Decline, NewAsk, Outcome, Problems,
    ValidRequest,
};
use std::{
    fmt,
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};
use tokio::sync::broadcast;

/// An ask's id: 128 random bits as 32 lowercase hex digits. Nobody can
/// guess one, so the page URL that contains it is the capability to answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AskId(String);

impl AskId {
    /// A new random id.
    pub fn random() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)?;
        Ok(Self(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// Reads an id; `None` unless it has the shape of one.
    pub fn parse(s: &str) -> Option<Self> {
        (s.len() == 32 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
            .then(|| Self(s.to_owned()))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

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

/// The numbered events, newest last.
#[derive(Debug, Default)]
struct Log {
    seq: u64,
    recent: std::collections::VecDeque<Event>,
}

/// Why the desk did not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    /// The input broke rules of the `interaction` crate.
    #[error("the input was refused:\n{0}")]
    Invalid(Problems),
    /// No ask has this id.
    #[error("there is no ask with this id")]
    NotFound,
    /// The ask was already answered or declined.
    #[error("this ask was already {}", .0.status.as_str())]
    Finished(Box<Ask>),
    /// The ask was cancelled by its agent or expired.
    #[error("this ask was {} and can no longer be answered", .0.status.as_str())]
    Gone(Box<Ask>),
    /// The system clock or random source failed.
    #[error("{0}")]
    System(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl DeskError {
    /// The HTTP status that stands for this error, the one mapping used by
    /// the API and the pages' server functions alike.
    pub fn http_status(&self) -> u16 {
        match self {
            Self::Invalid(_) => 422,
            Self::NotFound => 404,
            Self::Finished(_) => 409,
            Self::Gone(_) => 410,
            Self::System(_) | Self::Store(_) => 500,
        }
    }
}

/// How long a long poll may wait at most.
pub const MAX_WAIT: Duration = Duration::from_secs(300);

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
    events: broadcast::Sender<Event>,
    log: Arc<std::sync::Mutex<Log>>,
    epoch: Arc<str>,
    public_url: Arc<str>,
    clock: Clock,
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
    /// `http://127.0.0.1:3000`).
    pub fn new(store: impl Store, public_url: &str) -> Self {
        let (events, _) = broadcast::channel(1024);
        Self {
            store: Arc::new(store),
            events,
            log: Arc::default(),
            epoch: AskId::random()
                .map(|id| id.0[..8].to_owned())
                .unwrap_or_else(|_| "0".to_owned())
                .into(),
            public_url: public_url.trim_end_matches('/').into(),
            clock: system_clock(),
        }
    }

    /// The same desk reading the time from `clock`; for tests of expiry.
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The URL asks' pages start with.
    pub fn public_url(&self) -> &str {
        &self.public_url
    }

    /// Every event from now on. A receiver that falls behind gets
    /// `Lagged` and should re-read what it cares about.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    fn now(&self) -> i64 {
        (self.clock)()
    }

    fn url(&self, id: &AskId) -> String {
        format!("{}/asks/{id}", self.public_url)
    }

    fn log(&self) -> std::sync::MutexGuard<'_, Log> {
        self.log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn publish(&self, record: &Record) {
        let ask = Arc::new(self.summary(record));
        // Numbering, keeping and sending under one lock keeps events in
        // number order for every listener.
        let mut log = self.log();
        log.seq += 1;
        let event = Event { seq: log.seq, ask };
        if log.recent.len() == REPLAY_EVENTS {
            log.recent.pop_front();
        }
        log.recent.push_back(event.clone());
        // Nobody listening is fine: events are hints, the store is the truth.
        let _ = self.events.send(event);
    }

    /// The number of the newest event: it grows whenever an ask is created
    /// or finished, so a list read at version `v` is stale once it grows.
    pub fn version(&self) -> u64 {
        self.log().seq
    }

    /// Names this run of the desk: event numbers restart when it restarts,
    /// so a client's last event id only means something with its epoch.
    pub fn epoch(&self) -> &str {
        &self.epoch
    }

    /// Every event after number `after`, oldest first; `None` when some of
    /// them are no longer kept (or `after` is in the future), so the caller
    /// must re-read the asks instead.
    pub fn events_since(&self, after: u64) -> Option<Vec<Event>> {
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

    /// Returns once the version is past `after`, or `max` (capped at
    /// [`MAX_WAIT`]) has passed, with the version then.
    pub async fn wait_for_change(&self, after: u64, max: Duration) -> u64 {
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

    /// Validates and stores a new ask.
    pub async fn create(&self, new: NewAsk) -> Result<AskCreated, DeskError> {
        let valid = new.validate().map_err(DeskError::Invalid)?;
        let id = AskId::random().map_err(|e| DeskError::System(format!("no randomness: {e}")))?;
        let created_at = self.now();
        let expires_at = valid.timeout_seconds.map(|s| {
            created_at.saturating_add(i64::try_from(s).unwrap_or(i64::MAX).saturating_mul(1000))
        });
        let record = Record {
            id: id.clone(),
            status: AskStatus::Pending,
            title: valid.title,
            agent: valid.agent,
            request: valid.request.into_inner(),
            created_at,
            expires_at,
            finished_at: None,
            answers: None,
            decline_reason: None,
        };
        self.store.insert(&record).await?;
        tracing::info!(id = %id, url = %self.url(&id), "new ask");
        self.publish(&record);
        Ok(AskCreated {
            url: self.url(&id),
            id: id.0,
            status: AskStatus::Pending,
            created_at: rfc3339(created_at),
            expires_at: expires_at.map(rfc3339),
        })
    }

    /// The ask's record, expiring it first if its time is up.
    async fn record(&self, id: &str) -> Result<Record, DeskError> {
        let id = AskId::parse(id).ok_or(DeskError::NotFound)?;
        let mut record = self.store.get(&id).await?.ok_or(DeskError::NotFound)?;
        if record.status == AskStatus::Pending
            && record.expires_at.is_some_and(|at| at <= self.now())
        {
            let at = record.expires_at.unwrap_or_default();
            let expired_now = self.store.finish(&id, &Finish::Expired, at).await?;
            record = self.store.get(&id).await?.ok_or(DeskError::NotFound)?;
            if expired_now {
                self.publish(&record);
            }
        }
        Ok(record)
    }

    /// The ask with this id.
    pub async fn get(&self, id: &str) -> Result<Ask, DeskError> {
        let record = self.record(id).await?;
        Ok(self.view(record))
    }

    /// The ask, once it has finished or `max` (capped at [`MAX_WAIT`]) has
    /// passed, whichever comes first.
    pub async fn wait(&self, id: &str, max: Duration) -> Result<Ask, DeskError> {
        // Subscribe before reading, so a finish between the two is not missed.
        let mut events = self.subscribe();
        let record = self.record(id).await?;
        if record.status.is_finished() || max.is_zero() {
            return Ok(self.view(record));
        }
        let mut wait = max.min(MAX_WAIT);
        if let Some(at) = record.expires_at {
            let left = u64::try_from(at.saturating_sub(self.now())).unwrap_or(0);
            wait = wait.min(Duration::from_millis(left));
        }
        let deadline = tokio::time::sleep(wait);
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                event = events.recv() => match event {
                    Ok(event) if event.ask.id == record.id.0 && event.ask.status.is_finished() => break,
                    Ok(_) => {}
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        if self.record(id).await?.status.is_finished() {
                            break;
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                () = &mut deadline => break,
            }
        }
        self.get(id).await
    }

    async fn finish(
        &self,
        id: &str,
        finish: impl FnOnce(&ValidRequest) -> Result<Finish, DeskError>,
    ) -> Result<Ask, DeskError> {
        let record = self.record(id).await?;
        if record.status.is_finished() {
            return Err(self.refusal(record));
        }
        let request =
            ValidRequest::new(record.request.clone()).map_err(|p| StoreError::Corrupt {
                id: id.to_owned(),
                detail: format!("stored request is invalid: {p}"),
            })?;
        let finish = finish(&request)?;
        let status = finish.status();
        if self.store.finish(&record.id, &finish, self.now()).await? {
            tracing::info!(id = %record.id, status = status.as_str(), "ask finished");
            let record = self.record(id).await?;
            self.publish(&record);
            Ok(self.view(record))
        } else {
            // Someone else finished it between our read and our write.
            Err(self.refusal(self.record(id).await?))
        }
    }

    fn refusal(&self, record: Record) -> DeskError {
        let ask = Box::new(self.view(record));
        match ask.status {
            AskStatus::Cancelled | AskStatus::Expired => DeskError::Gone(ask),
            _ => DeskError::Finished(ask),
        }
    }

    /// Validates the human's answers against the stored request and ends
    /// the ask with them, if it is still pending.
    pub async fn answer(&self, id: &str, answers: &Answers) -> Result<Ask, DeskError> {
        self.finish(id, |request| {
            let valid = request
                .validate_answers(answers)
                .map_err(DeskError::Invalid)?;
            Ok(Finish::Answered(valid.items().to_vec()))
        })
        .await
    }

    /// Ends a pending ask as declined.
    pub async fn decline(&self, id: &str, decline: Decline) -> Result<Ask, DeskError> {
        let valid = decline.validate().map_err(DeskError::Invalid)?;
        self.finish(id, |_| Ok(Finish::Declined(valid.reason)))
            .await
    }

    /// Ends a pending ask as cancelled: the agent gave up.
    pub async fn cancel(&self, id: &str) -> Result<Ask, DeskError> {
        self.finish(id, |_| Ok(Finish::Cancelled)).await
    }

    /// Asks with this status (all when `None`), newest first.
    pub async fn list(&self, status: Option<AskStatus>) -> Result<Vec<AskSummary>, DeskError> {
        self.expire_due().await?;
        let records = self.store.list(status, LIST_LIMIT).await?;
        Ok(records.iter().map(|r| self.summary(r)).collect())
    }

    /// Expires every pending ask whose time is up, and tells listeners.
    /// The server calls this every second, so waiting pages and agents
    /// hear of an expiry when it happens.
    pub async fn expire_due(&self) -> Result<usize, DeskError> {
        let ids = self.store.expire_due(self.now()).await?;
        for id in &ids {
            if let Some(record) = self.store.get(id).await? {
                self.publish(&record);
            }
        }
        Ok(ids.len())
    }

    fn summary(&self, r: &Record) -> AskSummary {
        AskSummary {
            url: self.url(&r.id),
            question_count: r.request.questions.len(),
            id: r.id.0.clone(),
            title: r.title.clone(),
            agent: r.agent.clone(),
            status: r.status,
            created_at: rfc3339(r.created_at),
            expires_at: r.expires_at.map(rfc3339),
        }
    }

    /// The API's view of a record, with the projection once finished.
    fn view(&self, record: Record) -> Ask {
        let projection = self
            .outcome(&record)
            .map(|(request, outcome)| project(&request, &outcome));
        Ask {
            url: self.url(&record.id),
            id: record.id.0,
            status: record.status,
            title: record.title,
            agent: record.agent,
            request: record.request,
            created_at: rfc3339(record.created_at),
            expires_at: record.expires_at.map(rfc3339),
            finished_at: record.finished_at.map(rfc3339),
            answers: record.answers,
            decline_reason: record.decline_reason,
            projection,
        }
    }

    fn outcome(&self, record: &Record) -> Option<(ValidRequest, Outcome)> {
        let request = ValidRequest::new(record.request.clone()).ok()?;
        let outcome = match record.status {
            AskStatus::Pending => return None,
            AskStatus::Answered => {
                let answers = Answers {
                    answers: record.answers.clone()?,
                };
                Outcome::Answered(request.validate_answers(&answers).ok()?)
            }
            AskStatus::Declined => Outcome::Declined {
                reason: record.decline_reason.clone(),
            },
            AskStatus::Cancelled => Outcome::Cancelled,
            AskStatus::Expired => Outcome::Expired,
        };
        Some((request, outcome))
    }
}

//! The outbox: notifications owed to the channels a desk tells of its asks
//! (webhooks first). Each is a row written in the transaction that creates
//! or finishes its ask, so none is lost to a crash; a worker claims the
//! rows that are due, delivers them at least once, and records how it went.

use crate::{error::StoreError, id::AskId};
pub use interaction::Notice;
use interaction::{DeliveryState, Timestamp};

/// A notification owed to one channel, written with the change that owes
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owed {
    /// The delivery id: the same on every attempt, so receivers can
    /// de-duplicate on it.
    pub id: String,
    /// The channel's name (never a secret: see the server's channels).
    pub channel: String,
    /// What it tells.
    pub notice: Notice,
    /// How long after the change it is due (reminders wait), in ms.
    pub delay_ms: i64,
}

impl Owed {
    /// A notification of `notice` owed to `channel` `delay_ms` after the
    /// change, with a new random id.
    pub fn new(channel: &str, notice: Notice, delay_ms: i64) -> Result<Self, getrandom::Error> {
        Ok(Self {
            id: format!("dlv_{}", AskId::random()?),
            channel: channel.to_owned(),
            notice,
            delay_ms,
        })
    }
}

/// When reminders of a waiting ask go out: every channel gets one each
/// `every`, at most `max` times; the escalation channel gets one once the
/// ask has waited its time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reminders {
    /// The time between reminders (none when `None`).
    pub every: Option<std::time::Duration>,
    /// How many reminders at most.
    pub max: u32,
    /// A second channel told once an ask has waited this long.
    pub escalate: Option<(String, std::time::Duration)>,
}

/// A delivery a worker has claimed: nobody else attempts it until its
/// lease runs out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    /// The delivery id.
    pub id: String,
    /// The ask it is about.
    pub ask_id: AskId,
    /// The channel's name.
    pub channel: String,
    /// What it tells.
    pub notice: Notice,
    /// When it was owed, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// Attempts so far, this one included.
    pub attempts: u32,
}

/// How one delivery stands, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryRow {
    /// The delivery id.
    pub id: String,
    /// The channel's name.
    pub channel: String,
    /// What it tells.
    pub notice: Notice,
    /// When it was owed (ms since the epoch).
    pub created_at: i64,
    /// Attempts so far.
    pub attempts: u32,
    /// When it was last attempted.
    pub last_at: Option<i64>,
    /// Why the last attempt failed, when it did.
    pub last_error: Option<String>,
    /// When a receiver took it.
    pub delivered_at: Option<i64>,
    /// When the worker gave up on it.
    pub failed_at: Option<i64>,
}

impl DeliveryRow {
    /// The delivery as the API and the ask's page show it.
    pub fn view(self) -> interaction::Delivery {
        let state = if self.delivered_at.is_some() {
            DeliveryState::Delivered
        } else if self.failed_at.is_some() {
            DeliveryState::Failed
        } else {
            DeliveryState::Pending
        };
        interaction::Delivery {
            id: self.id,
            channel: self.channel,
            event: self.notice,
            state,
            attempts: self.attempts,
            created_at: Timestamp::from_ms(self.created_at),
            last_attempt_at: self.last_at.map(Timestamp::from_ms),
            last_error: self.last_error,
            delivered_at: self.delivered_at.map(Timestamp::from_ms),
            failed_at: self.failed_at.map(Timestamp::from_ms),
        }
    }
}

/// How an attempt went, as the worker records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// The receiver took it.
    Delivered,
    /// It failed with `error`; try again at `retry_at`.
    Retry {
        /// Why, without secrets.
        error: String,
        /// When to try again (ms since the epoch).
        retry_at: i64,
    },
    /// It failed with `error`, and the worker gives up.
    GaveUp {
        /// Why, without secrets.
        error: String,
    },
}

/// A browser's Web Push subscription, as `PushSubscription.toJSON()` gives
/// it: where its push service takes messages, and its keys (base64url).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushSubscription {
    /// The push service's URL for this browser.
    pub endpoint: String,
    /// The browser's P-256 public key, messages are encrypted to.
    pub p256dh: String,
    /// The browser's authentication secret.
    pub auth: String,
}

/// The outbox's rows, and the rest a desk keeps for telling people of its
/// asks: the server's keys, used action tokens, browsers' push
/// subscriptions. Part of every `Store`.
#[async_trait::async_trait]
pub trait Outbox: Send + Sync {
    /// Claims at most `limit` deliveries due at `now`, oldest first, each
    /// one attempt more, until `lease_until`: no other claim (by any
    /// worker, on any instance) gets them before then, and one whose
    /// worker died comes back then.
    async fn claim_deliveries(
        &self,
        now: i64,
        lease_until: i64,
        limit: u32,
    ) -> Result<Vec<Claimed>, StoreError>;

    /// Records how an attempt at delivery `id` went, at `at`.
    async fn record_attempt(&self, id: &str, at: i64, attempt: &Attempt) -> Result<(), StoreError>;

    /// The server key `name`: the one stored, or `fresh` stored now when
    /// there was none (racing instances all get the one that won).
    async fn server_key(&self, name: &str, fresh: &str) -> Result<String, StoreError>;

    /// Marks the action token with digest `token` used for ask `ask` at
    /// `at`: `false`, changing nothing, when it was used already.
    async fn use_action(&self, token: &str, ask: &AskId, at: i64) -> Result<bool, StoreError>;

    /// Forgets a use of the action token with digest `token`, whose answer
    /// failed for a reason that may pass.
    async fn unuse_action(&self, token: &str) -> Result<(), StoreError>;

    /// Keeps a browser's push subscription (replacing the keys of one with
    /// the same endpoint).
    async fn add_push_subscription(
        &self,
        subscription: &PushSubscription,
        at: i64,
    ) -> Result<(), StoreError>;

    /// Forgets the push subscription at `endpoint`; whether there was one.
    async fn remove_push_subscription(&self, endpoint: &str) -> Result<bool, StoreError>;

    /// Every push subscription, oldest first.
    async fn push_subscriptions(&self) -> Result<Vec<PushSubscription>, StoreError>;

    /// Every delivery owed for an ask, oldest first.
    async fn deliveries(&self, ask: &AskId) -> Result<Vec<DeliveryRow>, StoreError>;
}

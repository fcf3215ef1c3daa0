//! The storage interface: what the desk needs from a database, and nothing
//! about which database it is.

use crate::AskId;
use async_trait::async_trait;
use interaction::{AnswerItem, AskStatus, Request};

/// An ask as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The ask's id.
    pub id: AskId,
    /// Where it is in its life.
    pub status: AskStatus,
    /// What it is about.
    pub title: Option<String>,
    /// Who asked.
    pub agent: Option<String>,
    /// The questions; valid when stored.
    pub request: Request,
    /// When it was made, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// When it expires, if it has a timeout.
    pub expires_at: Option<i64>,
    /// When it left `pending`.
    pub finished_at: Option<i64>,
    /// The canonical answers, once answered.
    pub answers: Option<Vec<AnswerItem>>,
    /// The human's reason, once declined with one.
    pub decline_reason: Option<String>,
}

/// How a pending ask ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finish {
    /// With these canonical answers.
    Answered(Vec<AnswerItem>),
    /// Declined, with the human's reason if any.
    Declined(Option<String>),
    /// Withdrawn by the agent.
    Cancelled,
    /// Out of time.
    Expired,
}

impl Finish {
    /// The status the ask ends in.
    pub fn status(&self) -> AskStatus {
        match self {
            Self::Answered(_) => AskStatus::Answered,
            Self::Declined(_) => AskStatus::Declined,
            Self::Cancelled => AskStatus::Cancelled,
            Self::Expired => AskStatus::Expired,
        }
    }
}

/// A failure of the database itself (not of the caller's input).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed an operation.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value does not decode; the database was changed by hand or
    /// by a newer askdesk.
    #[error("stored ask {id} is unreadable: {detail}")]
    Corrupt {
        /// The ask.
        id: String,
        /// What is wrong with it.
        detail: String,
    },
}

/// Where asks live. Every method is one atomic step; [`Store::finish`] is
/// the only way out of `pending`, and it succeeds at most once per ask.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Stores a new pending ask.
    async fn insert(&self, record: &Record) -> Result<(), StoreError>;

    /// The ask with this id, if there is one.
    async fn get(&self, id: &AskId) -> Result<Option<Record>, StoreError>;

    /// Asks with this status (all asks when `None`), newest first, at most
    /// `limit` of them.
    async fn list(&self, status: Option<AskStatus>, limit: u32) -> Result<Vec<Record>, StoreError>;

    /// Ends a pending ask at time `at`. Returns `false`, changing nothing,
    /// when the ask is unknown or has already ended.
    async fn finish(&self, id: &AskId, finish: &Finish, at: i64) -> Result<bool, StoreError>;

    /// Ends every pending ask whose expiry is at or before `now`, and
    /// returns their ids.
    async fn expire_due(&self, now: i64) -> Result<Vec<AskId>, StoreError>;
}

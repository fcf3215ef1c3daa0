//! Why the desk, or the database beneath it, did not do what it was asked.

use interaction::{Ask, Problems};

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
    /// The caller may not do this (a forged or used action token): what to
    /// do instead.
    #[error("{0}")]
    Forbidden(String),
    /// The change conflicts with what the desk holds (a person's name is
    /// taken): what to do instead.
    #[error("{0}")]
    Conflict(String),
    /// The caller did this too often, or too many times: what to do
    /// instead.
    #[error("{0}")]
    TooMany(String),
    /// The system clock or random source failed.
    #[error("{0}")]
    System(String),
    /// The database failed, or holds an ask it cannot read.
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
            Self::Finished(_) | Self::Conflict(_) => 409,
            Self::Gone(_) => 410,
            Self::Forbidden(_) => 403,
            Self::TooMany(_) => 429,
            Self::Store(e) if e.is_unavailable() => 503,
            Self::System(_) | Self::Store(_) => 500,
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
    /// The database's schema is newer than this askdesk knows.
    #[error(
        "the database's schema is version {found}, newer than this askdesk knows ({known}); \
         a newer askdesk has used it, so run that one (or a copy of the data)"
    )]
    TooNew {
        /// The version the database has.
        found: i64,
        /// The newest version this binary knows.
        known: i64,
    },
    /// A stored ask does not decode, or no longer passes validation: the
    /// database was changed by hand or by a newer askdesk.
    #[error("stored ask {id} is unreadable: {detail}")]
    Corrupt {
        /// The ask.
        id: String,
        /// What is wrong with it.
        detail: String,
    },
}

impl StoreError {
    /// Whether the database could not be reached (down, or every
    /// connection busy past the timeout): worth trying again, unlike a
    /// refusal or an unreadable ask.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            Self::Database(
                sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_)
            )
        )
    }
}

/// The error for the stored row `id` when it does not decode or no longer
/// validates.
pub(crate) fn corrupt(id: &str, detail: impl ToString) -> StoreError {
    StoreError::Corrupt {
        id: id.to_owned(),
        detail: detail.to_string(),
    }
}

//! Why the desk did not do what it was asked.

use crate::store::StoreError;
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
            Self::Store(e) if e.is_unavailable() => 503,
            Self::System(_) | Self::Store(_) => 500,
        }
    }
}

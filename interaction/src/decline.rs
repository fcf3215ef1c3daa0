//! Declining an ask: what the human sends instead of answers, and what
//! `askdesk answer` prints when they decline a request file.

use crate::{
    problem::{ProblemCode, Problems},
    validate::{control_problem, MAX_CUSTOM_CHARS},
    validate::{too_long, trimmed},
};
use serde::{Deserialize, Serialize};

/// The body of `POST /api/v1/asks/{id}/decline`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Decline {
    /// Why the human does not answer, for the agent to read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_CUSTOM_CHARS), pattern(crate::schema::TEXT)))]
    pub reason: Option<String>,
}

/// A [`Decline`] that passed validation; a blank reason counts as none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidDecline {
    /// The trimmed reason, if there is one.
    pub reason: Option<String>,
}

impl Decline {
    /// Checks the reason's length and characters.
    pub fn validate(self) -> Result<ValidDecline, Problems> {
        let reason = trimmed(self.reason);
        let problem = too_long(
            &reason,
            MAX_CUSTOM_CHARS,
            "reason",
            ProblemCode::ReasonTooLong,
            "the reason",
        )
        .or_else(|| control_problem(|| "reason".to_owned(), reason.as_deref()?));
        match problem {
            Some(problem) => Err(Problems(vec![problem])),
            None => Ok(ValidDecline { reason }),
        }
    }
}

/// What `askdesk answer` prints when the human declines a request file:
/// `{"reason": …, "status": "declined"}`, the reason `null` when none was
/// given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Declined {
    /// Why the human does not answer.
    pub reason: Option<String>,
    status: DeclinedStatus,
}

/// The one status a [`Declined`] can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum DeclinedStatus {
    Declined,
}

impl Declined {
    /// The human declined, for `reason`.
    pub fn new(reason: Option<String>) -> Self {
        Self {
            reason,
            status: DeclinedStatus::Declined,
        }
    }
}

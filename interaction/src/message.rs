//! Messages from the person at the desk into the agent's running session:
//! an ask made by a session that reads them (`session`) lets the person
//! answering write to it, and the session reads them in order.

use crate::{
    problem::{Problem, ProblemCode, Problems},
    time::Timestamp,
    validate::{control_problem, trimmed, MAX_CUSTOM_CHARS},
};
use serde::{Deserialize, Serialize};

/// The longest message, in characters.
pub const MAX_MESSAGE_CHARS: usize = MAX_CUSTOM_CHARS;

/// Whether `session` is a session's name, as `session` takes it: 1 to 64
/// letters, digits, `-` or `_`.
pub fn is_session(session: &str) -> bool {
    crate::validate::is_valid_id(session)
}

/// The problem of a `session` that is not a session's name.
pub(crate) fn session_problem(session: &str) -> Option<Problem> {
    (!is_session(session)).then(|| {
        Problem::new(
            "session",
            ProblemCode::InvalidSession,
            "the session must be 1 to 64 characters: letters, digits, - or _".to_owned(),
        )
    })
}

/// The body of `POST /api/v1/asks/{id}/messages`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewMessage {
    /// What the person tells the agent.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = crate::MAX_MESSAGE_CHARS), pattern(crate::schema::NOT_BLANK)))]
    pub text: String,
}

impl NewMessage {
    /// The trimmed text, or the problem with it.
    pub fn validate(self) -> Result<String, Problems> {
        let Some(text) = trimmed(Some(self.text)) else {
            return Err(Problems(vec![Problem::new(
                "text",
                ProblemCode::EmptyMessage,
                "the message is blank; write what the agent should know".to_owned(),
            )]));
        };
        let chars = text.chars().count();
        if chars > MAX_MESSAGE_CHARS {
            return Err(Problems(vec![Problem::new(
                "text",
                ProblemCode::MessageTooLong,
                format!(
                    "the message has {chars} characters; at most {MAX_MESSAGE_CHARS} are taken"
                ),
            )]));
        }
        match control_problem(|| "text".to_owned(), &text) {
            Some(problem) => Err(Problems(vec![problem])),
            None => Ok(text),
        }
    }
}

/// A message to an agent's session, as the session reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SessionMessage {
    /// Its number: later messages have larger ones.
    pub seq: u64,
    /// The ask it was written on.
    #[cfg_attr(feature = "schema", schemars(pattern(crate::schema::ASK_ID)))]
    pub ask: String,
    /// What the person wrote.
    pub text: String,
    /// Who wrote it: a person's name; `null` for the shared token, an open
    /// desk or the ask's link.
    pub from: Option<String>,
    /// When, RFC 3339 in UTC.
    pub at: Timestamp,
}

/// `GET /api/v1/sessions/{session}/messages`: the messages after the one
/// the session read last, oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SessionMessages {
    /// The messages, oldest first.
    pub messages: Vec<SessionMessage>,
    /// The number to ask after next time: the last message's, or the one
    /// given when there are none.
    pub last: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_trimmed_and_refused_blank_too_long_or_with_control_characters() {
        let message = |text: &str| {
            NewMessage {
                text: text.to_owned(),
            }
            .validate()
        };
        assert_eq!(message("  go on with B \n"), Ok("go on with B".to_owned()));
        let code = |text: &str| message(text).expect_err("refused").0[0].code;
        assert_eq!(code(" \n "), ProblemCode::EmptyMessage);
        assert_eq!(
            code(&"x".repeat(MAX_MESSAGE_CHARS + 1)),
            ProblemCode::MessageTooLong
        );
        assert_eq!(code("stop\u{7}"), ProblemCode::ControlCharacter);
    }

    #[test]
    fn a_session_is_a_short_name() {
        assert!(is_session("3f9c2a7d-41e8_4b0c"));
        for wrong in ["", "a b", "é", &"a".repeat(65)] {
            assert!(session_problem(wrong).is_some(), "{wrong:?}");
        }
    }
}

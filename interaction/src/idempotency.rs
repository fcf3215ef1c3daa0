//! Idempotency keys: the same key with the same ask gives the ask made the
//! first time, on the HTTP API (`Idempotency-Key`) and MCP alike.

use crate::problem::{Problem, ProblemCode, Problems};

/// The longest idempotency key, in characters.
pub const MAX_IDEMPOTENCY_KEY_CHARS: usize = 200;

/// A key that makes creating an ask idempotent: the same key with the same
/// ask gives the ask made the first time, never a second one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// Checks a key: 1 to [`MAX_IDEMPOTENCY_KEY_CHARS`] visible ASCII
    /// characters. `path` names where it came from in a problem.
    pub fn parse(key: &str, path: &str) -> Result<Self, Problems> {
        let chars = key.chars().count();
        if (1..=MAX_IDEMPOTENCY_KEY_CHARS).contains(&chars)
            && key.bytes().all(|b| b.is_ascii_graphic())
        {
            return Ok(Self(key.to_owned()));
        }
        Err(Problems(vec![Problem::new(
            path,
            ProblemCode::InvalidIdempotencyKey,
            format!(
                "the idempotency key has {chars} characters; use 1 to \
                 {MAX_IDEMPOTENCY_KEY_CHARS} visible ASCII characters (no spaces), e.g. a UUID"
            ),
        )]))
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The problem of this key used again for another ask, at `path`.
    pub fn conflict(&self, path: &str) -> Problems {
        Problems(vec![Problem::new(
            path,
            ProblemCode::IdempotencyConflict,
            "this idempotency key was used for an ask with other content; send the same ask \
             again, or use a new key for a new ask"
                .to_owned(),
        )])
    }
}

//! The JSON Schemas of the wire types that derive none (feature `schema`):
//! the names of an enum as its `ALL` and `as_str` give them, timestamps,
//! scalars and a finished status; and the patterns of the texts the
//! validator takes, for the derived schemas' `pattern`s.

use crate::{AskStatus, Notice, ProblemCode, Role, Scalar, Timestamp, Via};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use std::borrow::Cow;

/// Any text without a control character (C0, DEL or C1) other than tab
/// and newline.
pub(crate) const TEXT: &str = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$";
/// [`TEXT`] that is not blank.
pub(crate) const NOT_BLANK: &str = r"^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*[^\s\u0000-\u0008\u000B-\u001F\u007F-\u009F][^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$";
/// A question's id.
pub(crate) const QUESTION_ID: &str = "^[A-Za-z0-9_-]{1,64}$";
/// An ask's id.
pub(crate) const ASK_ID: &str = "^[0-9a-f]{32}$";
/// A person's name.
pub(crate) const PERSON: &str = "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$";

/// An enum written as its names: `{"type": "string", "enum": [...]}`, in
/// `ALL`'s order, a component of its own (or `inline`).
macro_rules! names {
    ($type:ty, $inline:literal) => {
        impl JsonSchema for $type {
            fn inline_schema() -> bool {
                $inline
            }

            fn schema_name() -> Cow<'static, str> {
                stringify!($type).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({
                    "type": "string",
                    "enum": <$type>::ALL.map(<$type>::as_str).to_vec(),
                })
            }
        }
    };
}

names!(AskStatus, false);
names!(ProblemCode, false);
names!(Via, false);
names!(Role, true);
names!(Notice, true);

/// How an ask ended: a status other than `pending` (`Structured.status`).
pub(crate) struct Finished;

impl JsonSchema for Finished {
    fn schema_name() -> Cow<'static, str> {
        "Status".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let ended: Vec<&str> = AskStatus::ALL
            .into_iter()
            .filter(|status| status.is_finished())
            .map(AskStatus::as_str)
            .collect();
        json_schema!({"type": "string", "enum": ended})
    }
}

impl JsonSchema for Timestamp {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Timestamp".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "format": "date-time"})
    }
}

impl JsonSchema for Scalar {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Scalar".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": ["number", "string"]})
    }
}

impl JsonSchema for crate::IdempotencyKey {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "IdempotencyKey".into()
    }

    /// What [`crate::IdempotencyKey::parse`] takes.
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "minLength": 1,
            "maxLength": crate::MAX_IDEMPOTENCY_KEY_CHARS,
            "pattern": "^[!-~]+$",
        })
    }
}

/// A session's name where a path names it, as
/// `/api/v1/sessions/{session}/messages` does: what an ask's `session`
/// takes ([`crate::is_session`]).
#[derive(Debug, serde::Deserialize, JsonSchema)]
pub struct SessionPath {
    /// The session's name.
    #[schemars(pattern(QUESTION_ID))]
    pub session: String,
}

/// An ask's id where a path names it, as `/api/v1/asks/{id}` does.
#[derive(Debug, serde::Deserialize, JsonSchema)]
pub struct AskPath {
    /// The ask's id.
    #[schemars(pattern(ASK_ID))]
    pub id: String,
}

//! The app-only tools' names, arguments and results, on both sides: the
//! view calls them through the host, the server (`agents::mcp::hosted`)
//! answers them with the same types.

use crate::error::ServerError;
use interaction::{AnswerItem, Ask, Decline};
use serde::{Deserialize, Serialize};

/// The app-only tool that answers or declines the ask with what the person
/// gave in the view.
pub const ANSWER_TOOL: &str = "answer_in_app";
/// The app-only tool that reads the ask, waiting a while for it to end.
pub const READ_TOOL: &str = "read_ask";
/// The element the view lives in.
pub const ROOT_ID: &str = "askdesk-app";
/// How long one [`READ_TOOL`] call waits for the ask to end, in seconds:
/// below the timeouts hosts give a tool call.
pub const READ_WAIT_SECONDS: u64 = 25;

/// [`ANSWER_TOOL`]'s arguments: the ask, and the person's answers or
/// their decline, one of the two (the type says so; the wire has a key
/// for each, [`AnswerInAppArguments`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "AnswerInAppArguments", into = "AnswerInAppArguments")]
pub struct AnswerInApp {
    /// The ask's id, from ask_user's result.
    pub ask_id: String,
    /// What the person gave.
    pub reply: AppAnswer,
}

/// What the person gives in the view.
#[derive(Debug, Clone, PartialEq)]
pub enum AppAnswer {
    /// The person's answers, one item per question.
    Answers(Vec<AnswerItem>),
    /// The person does not answer.
    Decline(Decline),
}

/// [`AnswerInApp`] as the tool takes it: the server lists this schema as
/// the tool's input (the docs are its descriptions).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnswerInAppArguments {
    /// The ask's id, from ask_user's result.
    pub ask_id: String,
    /// The person's answers, one item per question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<Vec<AnswerItem>>,
    /// Instead of answers: the person does not answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decline: Option<Decline>,
}

impl TryFrom<AnswerInAppArguments> for AnswerInApp {
    type Error = String;

    fn try_from(wire: AnswerInAppArguments) -> Result<Self, String> {
        let reply = match (wire.answers, wire.decline) {
            (Some(answers), None) => AppAnswer::Answers(answers),
            (None, Some(decline)) => AppAnswer::Decline(decline),
            _ => {
                return Err(format!(
                    "{ANSWER_TOOL} takes answers or a decline: one of the two"
                ))
            }
        };
        Ok(Self {
            ask_id: wire.ask_id,
            reply,
        })
    }
}

impl From<AnswerInApp> for AnswerInAppArguments {
    fn from(call: AnswerInApp) -> Self {
        let (answers, decline) = match call.reply {
            AppAnswer::Answers(answers) => (Some(answers), None),
            AppAnswer::Decline(decline) => (None, Some(decline)),
        };
        Self {
            ask_id: call.ask_id,
            answers,
            decline,
        }
    }
}

/// [`READ_TOOL`]'s arguments, listed as its input schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadAsk {
    /// The ask's id, from ask_user's result.
    pub ask_id: String,
    /// Wait up to this long, in seconds, for the ask to end.
    #[serde(default)]
    #[cfg_attr(feature = "ssr", schemars(range(max = READ_WAIT_SECONDS)))]
    pub wait_seconds: Option<u64>,
}

/// The app-only tool that shows the ask as the server renders it (the same
/// components, rendered on the server), and answers or declines with the
/// form's fields first when asked to: for a view whose host runs no
/// WebAssembly, which the `hosted-script` bundle drives.
pub const SHOW_TOOL: &str = "show_ask";

/// [`SHOW_TOOL`]'s arguments, listed as its input schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShowAsk {
    /// The ask's id, from ask_user's result.
    pub ask_id: String,
    /// The form's fields as a browser would post them, in order: [name, value] pairs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<(String, String)>,
    /// Answer (or decline, as the fields' intent says) with the fields first.
    #[serde(default)]
    pub send: bool,
    /// The host's locale (BCP 47), for the form's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
}

/// [`SHOW_TOOL`]'s `structuredContent`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Shown {
    /// The form with what was entered and the server's problems, or how
    /// the ask ended, as HTML for the view's element.
    pub html: String,
    /// The ask's status after the call; none when it could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<interaction::AskStatus>,
}

/// The app-only tool that keeps what the person has entered in the view,
/// on the desk, for that ask and the client that shows it: a host may
/// unmount the view (the conversation scrolls, or reloads) and show it
/// again; the opaque frame has no storage of its own.
pub const DRAFT_TOOL: &str = "keep_draft";

/// [`DRAFT_TOOL`]'s arguments, listed as its input schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeepDraft {
    /// The ask's id, from ask_user's result.
    pub ask_id: String,
    /// What the form holds now, as a browser would post it: [name, value] pairs; none to
    /// only read what is kept, empty to forget it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ssr", schemars(length(max = DRAFT_FIELDS)))]
    pub fields: Option<Vec<(String, String)>>,
}

/// How many fields a kept draft may hold.
pub const DRAFT_FIELDS: usize = 1_000;
/// How many bytes of names and values a kept draft may hold.
pub const DRAFT_BYTES: usize = 64 * 1024;

/// [`DRAFT_TOOL`]'s `structuredContent`: the draft kept, as fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeptDraft {
    /// The fields kept; none when nothing is (or the ask has ended).
    pub fields: Vec<(String, String)>,
}

/// Both tools' `structuredContent`: the ask as it stands after the call,
/// or why the call was refused, as the page's server functions say it.
pub type AppReply = Result<Ask, ServerError>;

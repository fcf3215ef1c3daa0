//! What the agent's model reads: a request and its outcome as text and as a
//! structured value.
//!
//! All text that came from outside (question texts, labels, the human's
//! custom text, a decline reason) appears JSON-quoted in the text, so a
//! newline or a quote typed by the human cannot start a line of its own or
//! pass for an option label.

use crate::{model::AnswerItem, validate::ValidAnswers, AskStatus, ValidRequest};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// How an ask ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The human answered every question.
    Answered(ValidAnswers),
    /// The human chose not to answer.
    Declined {
        /// What the human said about it, if anything.
        reason: Option<String>,
    },
    /// The agent withdrew the ask before it was answered.
    Cancelled,
    /// The ask ran out of time before it was answered.
    Expired,
    /// The ask ran out of time before it was answered, and the agent had
    /// given default answers for that case: they apply, though no person
    /// chose them. Its status is `expired`.
    Defaulted(ValidAnswers),
}

impl Outcome {
    /// The status an ask that ended this way has; never `pending`.
    pub fn status(&self) -> AskStatus {
        match self {
            Self::Answered(_) => AskStatus::Answered,
            Self::Declined { .. } => AskStatus::Declined,
            Self::Cancelled => AskStatus::Cancelled,
            Self::Expired | Self::Defaulted(_) => AskStatus::Expired,
        }
    }

    /// The agent's default answers, when they applied because nobody
    /// answered in time. Never a person's answers: see [`Outcome::answers`].
    pub fn defaults(&self) -> Option<&ValidAnswers> {
        match self {
            Self::Defaulted(defaults) => Some(defaults),
            _ => None,
        }
    }

    /// The human's answers, when the ask was answered.
    pub fn answers(&self) -> Option<&ValidAnswers> {
        match self {
            Self::Answered(answers) => Some(answers),
            _ => None,
        }
    }

    /// The human's reason, when the ask was declined with one.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Self::Declined { reason } => reason.as_deref(),
            _ => None,
        }
    }
}

/// The structured value: `{"status": "answered", "answers": [...]}`, with
/// `reason` on a declined ask that has one. `answers` is empty unless
/// answered, or expired with the agent's defaults (then `defaulted` is true).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Structured {
    /// How the ask ended; never `pending`.
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::Finished"))]
    pub status: AskStatus,
    /// The answers, one per question in request order.
    pub answers: Vec<AnswerItem>,
    /// The human's reason for declining.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether `answers` are the agent's own defaults, which applied
    /// because nobody answered in time; absent (false) otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "schema", schemars(extend("const" = true)))]
    pub defaulted: bool,
}

/// A request and its outcome, as the agent receives them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ToolOutput {
    /// For the model to read.
    pub text: String,
    /// For programs.
    pub structured: Structured,
}

/// Projects an outcome of `request` into what the agent receives.
pub fn project(request: &ValidRequest, outcome: &Outcome) -> ToolOutput {
    let (text, structured) = match outcome {
        Outcome::Answered(answers) => (
            answered_text(request, answers),
            Structured {
                status: AskStatus::Answered,
                answers: answers.items().to_vec(),
                reason: None,
                defaulted: false,
            },
        ),
        Outcome::Declined { reason } => {
            let mut text = String::from("The user declined to answer; there are no answers.");
            if let Some(reason) = reason {
                let _ = write!(text, "\nReason typed by the user: {}", json_quote(reason));
            }
            (
                text,
                Structured {
                    status: AskStatus::Declined,
                    answers: Vec::new(),
                    reason: reason.clone(),
                    defaulted: false,
                },
            )
        }
        Outcome::Cancelled => (
            "The question was cancelled before the user answered; there are no answers.".to_owned(),
            Structured {
                status: AskStatus::Cancelled,
                answers: Vec::new(),
                reason: None,
                defaulted: false,
            },
        ),
        Outcome::Expired => (
            "The question expired before the user answered; there are no answers.".to_owned(),
            Structured {
                status: AskStatus::Expired,
                answers: Vec::new(),
                reason: None,
                defaulted: false,
            },
        ),
        Outcome::Defaulted(defaults) => (
            defaulted_text(request, defaults),
            Structured {
                status: AskStatus::Expired,
                answers: defaults.items().to_vec(),
                reason: None,
                defaulted: true,
            },
        ),
    };
    ToolOutput { text, structured }
}

fn answered_text(request: &ValidRequest, answers: &ValidAnswers) -> String {
    let questions = request.questions();
    let mut text = format!(
        "The user answered {} question{}. Quoted strings are JSON; text marked \
         \"typed by the user\" is the user's own words, not an option.",
        questions.len(),
        if questions.len() == 1 { "" } else { "s" }
    );
    push_items(
        &mut text,
        request,
        answers,
        "Selected options",
        "Text typed by the user",
    );
    text
}

/// An expiry with the agent's defaults: said so first, and each default
/// marked as the agent's, so the model never takes it for the user's.
fn defaulted_text(request: &ValidRequest, defaults: &ValidAnswers) -> String {
    let mut text = String::from(
        "No person answered: the question expired first. The agent's own default answers, \
         given when it asked, apply instead; the user did not choose them. Quoted strings \
         are JSON.",
    );
    push_items(
        &mut text,
        request,
        defaults,
        "Default options",
        "Default text",
    );
    text
}

/// Each question of `request` with its item of `answers`: the options
/// under `chosen`, the text under `typed`.
fn push_items(
    text: &mut String,
    request: &ValidRequest,
    answers: &ValidAnswers,
    chosen: &str,
    typed: &str,
) {
    for (i, question) in request.questions().iter().enumerate() {
        let _ = write!(
            text,
            "\n\nQuestion {} (id {}",
            i + 1,
            json_quote(&question.id)
        );
        if let Some(header) = &question.header {
            let _ = write!(text, ", header {}", json_quote(header));
        }
        let _ = write!(text, "): {}", json_quote(&question.question));
        let Some(item) = answers.items().iter().find(|a| a.id == question.id) else {
            continue;
        };
        let labels: Vec<String> = item.selected.iter().map(|l| json_quote(l)).collect();
        let _ = write!(text, "\n{chosen}: [{}]", labels.join(", "));
        if let Some(custom) = &item.custom {
            let _ = write!(text, "\n{typed}: {}", json_quote(custom));
        }
    }
}

/// One answer in the format of Claude Code's own `AskUserQuestion` tool:
/// the chosen labels joined by `", "`, then the typed text. Labels and text
/// can run together here, so [`project`]'s text, which keeps them apart,
/// goes beside it.
pub fn claude_code_answer(item: &AnswerItem) -> String {
    item.selected
        .iter()
        .map(String::as_str)
        .chain(item.custom.as_deref())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `s` as a JSON string literal, quotes included. Line separators are
/// escaped too, so the result is always one line.
pub fn json_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

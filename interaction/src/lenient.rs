//! Lenient decoding of agent input: the shape models trained on Claude
//! Code's `AskUserQuestion` tool emit.
//!
//! It accepts questions without ids (they become `q1`, `q2`, … by position),
//! options given as plain strings, and `multiple` as another name of
//! `multiSelect`. The result is a plain [`NewAsk`], which then goes through
//! the same validation as any other ([`LenientAsk::validate`]).

use crate::{
    ask::{NewAsk, ValidNewAsk},
    format::Scalar,
    model::{AnswerItem, Question, QuestionOption},
    problem::Problems,
};
use serde::Deserialize;

/// An ask as an agent may write it: the input of the MCP tool `ask_user`
/// and the request file of `askdesk answer`. Besides the questions it
/// takes the fields of `POST /api/v1/asks` and how long a tool call waits;
/// what they mean is up to the caller (a file answered without a server
/// has no timeout and no wait).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LenientAsk {
    /// The questions.
    pub questions: Vec<LenientQuestion>,
    /// A line saying what the ask is about.
    #[serde(default)]
    pub title: Option<String>,
    /// What the agent was doing when it asked, shown above the questions.
    #[serde(default)]
    pub context: Option<String>,
    /// Who asks.
    #[serde(default)]
    pub agent: Option<String>,
    /// After how many seconds a pending ask expires.
    #[serde(default)]
    pub timeout_seconds: Option<u64>,
    /// For a tool call: how long this call waits before it returns the ask
    /// still pending (the ask itself keeps waiting). Not part of the ask.
    #[serde(default)]
    pub wait_seconds: Option<u64>,
    /// For a tool call: the same key with the same ask gives the ask made
    /// the first time (a call retried after a cut-off), never a second.
    #[serde(default)]
    pub idempotency_key: Option<String>,
    /// The people the ask is for, by name.
    #[serde(default)]
    pub to: Vec<String>,
    /// What the agent goes on with if nobody answers in time (with
    /// `timeout_seconds`): an item per question, by id (`q1`, `q2`, … for
    /// questions given without one).
    #[serde(default)]
    pub default_answers: Option<Vec<AnswerItem>>,
}

/// A question as an agent may write it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LenientQuestion {
    /// Optional here; assigned by position when missing.
    #[serde(default)]
    pub id: Option<String>,
    /// The question text.
    pub question: String,
    /// A short label shown above the question.
    #[serde(default)]
    pub header: Option<String>,
    /// The options, as objects or plain strings.
    #[serde(default)]
    pub options: Vec<LenientOption>,
    /// Whether several options may be chosen (`multiple` works too).
    #[serde(default, alias = "multiple")]
    pub multi_select: Option<bool>,
    /// What a typed answer must be (see [`Question::format`]).
    #[serde(default)]
    pub format: Option<String>,
    /// The least value of a typed answer.
    #[serde(default)]
    pub minimum: Option<Scalar>,
    /// The greatest value of a typed answer.
    #[serde(default)]
    pub maximum: Option<Scalar>,
    /// The text the answer starts with.
    #[serde(default)]
    pub default: Option<Scalar>,
}

/// An option as an agent may write it: `"SQLite"` or `{"label": "SQLite", …}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum LenientOption {
    /// Just the label.
    Label(String),
    /// The full form.
    Full(QuestionOption),
}

impl LenientQuestion {
    /// The strict question this stands for, `position` (from 0) naming it
    /// when it has no id.
    fn into_question(self, position: usize) -> Question {
        Question {
            id: self.id.unwrap_or_else(|| format!("q{}", position + 1)),
            question: self.question,
            header: self.header,
            options: self
                .options
                .into_iter()
                .map(|o| match o {
                    LenientOption::Label(label) => QuestionOption {
                        label,
                        description: None,
                        preview: None,
                    },
                    LenientOption::Full(option) => option,
                })
                .collect(),
            multi_select: self.multi_select.unwrap_or(false),
            format: self.format,
            minimum: self.minimum,
            maximum: self.maximum,
            default: self.default,
        }
    }
}

impl LenientAsk {
    /// The strict ask this stands for.
    pub fn into_new_ask(self) -> NewAsk {
        NewAsk {
            questions: self
                .questions
                .into_iter()
                .enumerate()
                .map(|(i, q)| q.into_question(i))
                .collect(),
            context: self.context,
            title: self.title,
            agent: self.agent,
            timeout_seconds: self.timeout_seconds,
            to: self.to,
            default_answers: self.default_answers,
            session: None,
        }
    }

    /// Converts and validates the ask, reporting every problem at once.
    pub fn validate(self) -> Result<ValidNewAsk, Problems> {
        self.into_new_ask().validate()
    }
}

//! Lenient decoding of agent input: the shape models trained on Claude
//! Code's `AskUserQuestion` tool emit.
//!
//! It accepts questions without ids (they become `q1`, `q2`, … by position),
//! options given as plain strings, and `multiple` as another name of
//! `multiSelect`. The result is a plain [`Request`], which then goes through
//! the same validation as any other ([`LenientRequest::validate`]).

use crate::{
    model::{Question, QuestionOption, Request},
    problem::Problems,
    validate::ValidRequest,
};
use serde::Deserialize;

/// A request as an agent may write it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LenientRequest {
    /// The questions.
    pub questions: Vec<LenientQuestion>,
}

/// A question as an agent may write it.
#[derive(Debug, Clone, Deserialize)]
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

impl LenientRequest {
    /// The strict request this stands for.
    pub fn into_request(self) -> Request {
        let questions = self
            .questions
            .into_iter()
            .enumerate()
            .map(|(i, q)| Question {
                id: q.id.unwrap_or_else(|| format!("q{}", i + 1)),
                question: q.question,
                header: q.header,
                options: q
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
                multi_select: q.multi_select.unwrap_or(false),
            })
            .collect();
        Request { questions }
    }

    /// Converts and validates, reporting every problem at once.
    pub fn validate(self) -> Result<ValidRequest, Problems> {
        ValidRequest::new(self.into_request())
    }
}

//! Answers in progress, as a UI holds them while a person answers.
//!
//! A [`QuestionDraft`] keeps everything the person entered (checked options
//! and Other text) whatever order it came in, and projects it to an
//! [`AnswerItem`] by the rules of its question:
//!
//! - multi-select: every checked label (in option order) together with the
//!   Other text, trimmed, when it is not blank;
//! - single-select and optionless: the Other text when it is not blank
//!   (it overrides the chosen option), otherwise the chosen option.
//!
//! A draft keeps checked options and Other text side by side, so a UI that
//! moves between them (the terminal UI's option and custom modes) never
//! discards either. Why a draft cannot be submitted yet comes from the
//! validator itself, so UIs never restate a rule.

use crate::{
    model::{AnswerItem, Answers, Question},
    problem::{Problem, ProblemCode},
    validate::{item_problems, Texts, ValidRequest, MAX_CUSTOM_CHARS},
};
use std::fmt;

/// The answer to one question while it is being given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionDraft {
    question: Question,
    checked: Vec<bool>,
    custom: String,
}

impl QuestionDraft {
    /// A draft with nothing checked, and the question's default (if any)
    /// as its text.
    pub fn new(question: &Question) -> Self {
        Self {
            question: question.clone(),
            checked: vec![false; question.options.len()],
            custom: question
                .default
                .as_ref()
                .map(crate::format::Scalar::text)
                .unwrap_or_default(),
        }
    }

    /// The question this draft answers.
    pub fn question(&self) -> &Question {
        &self.question
    }

    /// Whether option `index` is checked (or, on single-select, chosen).
    pub fn is_checked(&self, index: usize) -> bool {
        self.checked.get(index).copied().unwrap_or(false)
    }

    /// The checked labels, in option order.
    pub fn checked_labels(&self) -> impl Iterator<Item = &str> {
        self.question
            .options
            .iter()
            .zip(&self.checked)
            .filter(|(_, on)| **on)
            .map(|(o, _)| o.label.as_str())
    }

    /// Checks or unchecks option `index`. On single-select, checking it
    /// unchecks the others. An index past the options changes nothing.
    pub fn set_checked(&mut self, index: usize, on: bool) {
        if index >= self.checked.len() {
            return;
        }
        if on && !self.question.multi_select {
            self.checked.iter_mut().for_each(|c| *c = false);
        }
        self.checked[index] = on;
    }

    /// Flips option `index`: the checkbox of multi-select, and on
    /// single-select chooses it, or un-chooses it when it was chosen.
    pub fn toggle(&mut self, index: usize) {
        let on = !self.is_checked(index);
        self.set_checked(index, on);
    }

    /// Chooses option `index`: on single-select the only one, on
    /// multi-select in addition to the others.
    pub fn pick(&mut self, index: usize) {
        self.set_checked(index, true);
    }

    /// The index of the option with this label.
    pub fn index_of(&self, label: &str) -> Option<usize> {
        self.question.options.iter().position(|o| o.label == label)
    }

    /// The Other text as typed.
    pub fn custom(&self) -> &str {
        &self.custom
    }

    /// Replaces the Other text.
    pub fn set_custom(&mut self, text: impl Into<String>) {
        self.custom = text.into();
    }

    /// Empties the Other text.
    pub fn clear_custom(&mut self) {
        self.custom.clear();
    }

    /// Whether the Other text replaces a chosen option in the answer (on
    /// single-select), so a UI can show that it does.
    pub fn custom_overrides_choice(&self) -> bool {
        !self.question.multi_select
            && self.trimmed_custom().is_some()
            && self.checked.contains(&true)
    }

    fn trimmed_custom(&self) -> Option<&str> {
        let trimmed = self.custom.trim();
        (!trimmed.is_empty()).then_some(trimmed)
    }

    /// The answer item this draft stands for now, complete or not.
    pub fn item(&self) -> AnswerItem {
        let custom = self.trimmed_custom().map(str::to_owned);
        let selected = if self.question.multi_select || custom.is_none() {
            self.checked_labels().map(str::to_owned).collect()
        } else {
            Vec::new()
        };
        AnswerItem {
            id: self.question.id.clone(),
            selected,
            custom,
        }
    }

    /// The answer item, or why this question cannot be submitted yet.
    pub fn status(&self) -> Result<AnswerItem, Reason> {
        let item = self.item();
        let problems = item_problems(&self.question, &item, None, Texts::Incoming);
        let Some(problem) = problems.first() else {
            return Ok(item);
        };
        Err(match problem.code {
            ProblemCode::EmptyAnswer if !self.custom.is_empty() => Reason::BlankCustom,
            ProblemCode::EmptyAnswer => Reason::Unanswered,
            ProblemCode::CustomTooLong => Reason::CustomTooLong {
                chars: self.trimmed_custom().map_or(0, |c| c.chars().count()),
            },
            code => Reason::Invalid {
                problem: problem.clone(),
                typed: matches!(code, ProblemCode::InvalidFormat | ProblemCode::OutOfRange)
                    .then(|| self.custom.trim().to_owned()),
            },
        })
    }
}

/// Why a question cannot be submitted yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// Nothing is chosen and nothing is typed.
    Unanswered,
    /// Only blank Other text is there.
    BlankCustom,
    /// The Other text is longer than allowed.
    CustomTooLong {
        /// How many characters it has.
        chars: usize,
    },
    /// The validator refused the answer for another reason.
    Invalid {
        /// The validator's problem.
        problem: Problem,
        /// The typed text it refused, where the rule is about what was
        /// typed (a format, a bound), so that every language can name it.
        typed: Option<String>,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unanswered => f.write_str("unanswered"),
            Self::BlankCustom => f.write_str("Other text is blank"),
            Self::CustomTooLong { chars } => {
                write!(
                    f,
                    "Other text is too long ({chars} of at most {MAX_CUSTOM_CHARS} characters)"
                )
            }
            Self::Invalid { problem, .. } => f.write_str(&problem.message),
        }
    }
}

/// A question of a [`BatchDraft`] that cannot be submitted yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocker {
    /// The position of the question in the request.
    pub index: usize,
    /// The question's id.
    pub question_id: String,
    /// Why.
    pub reason: Reason,
}

/// The answers to a whole request while they are being given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchDraft {
    drafts: Vec<QuestionDraft>,
}

impl BatchDraft {
    /// Empty drafts for every question of the request.
    pub fn new(request: &ValidRequest) -> Self {
        Self {
            drafts: request.questions().iter().map(QuestionDraft::new).collect(),
        }
    }

    /// The per-question drafts, in request order.
    pub fn drafts(&self) -> &[QuestionDraft] {
        &self.drafts
    }

    /// The draft of question `index`.
    pub fn draft(&self, index: usize) -> Option<&QuestionDraft> {
        self.drafts.get(index)
    }

    /// The draft of question `index`, to change it.
    pub fn draft_mut(&mut self, index: usize) -> Option<&mut QuestionDraft> {
        self.drafts.get_mut(index)
    }

    /// The draft of the question with this id, to change it.
    pub fn draft_by_id_mut(&mut self, id: &str) -> Option<&mut QuestionDraft> {
        self.drafts.iter_mut().find(|d| d.question.id == id)
    }

    /// Every question that cannot be submitted yet, with the reason.
    pub fn blockers(&self) -> Vec<Blocker> {
        self.drafts
            .iter()
            .enumerate()
            .filter_map(|(index, d)| {
                d.status().err().map(|reason| Blocker {
                    index,
                    question_id: d.question.id.clone(),
                    reason,
                })
            })
            .collect()
    }

    /// Whether every question can be submitted.
    pub fn is_complete(&self) -> bool {
        self.drafts.iter().all(|d| d.status().is_ok())
    }

    /// The answers the drafts stand for, one item per question.
    pub fn answers(&self) -> Answers {
        Answers {
            answers: self.drafts.iter().map(QuestionDraft::item).collect(),
        }
    }
}

//! The wire types, exactly as they travel as JSON (camelCase).

use crate::format::{Format, Scalar};
use serde::{Deserialize, Serialize};

/// A batch of questions an agent puts to a human.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Request {
    /// The questions, in the order the human should see them.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = crate::MAX_QUESTIONS)))]
    pub questions: Vec<Question>,
    /// What the agent was doing when it asked (its last message, say),
    /// shown above the questions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_CONTEXT_CHARS), pattern(crate::schema::NOT_BLANK)))]
    pub context: Option<String>,
}

/// One question of a [`Request`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
// Unknown fields are refused: a misspelt `multiselect` must not quietly
// turn a question into single-select. Agents' looser shapes go through
// `LenientRequest`.
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Question {
    /// Identifies the question within its request; answers refer to it.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = crate::MAX_ID_CHARS), pattern(crate::schema::QUESTION_ID)))]
    pub id: String,
    /// The question as the human reads it.
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_QUESTION_CHARS), pattern(crate::schema::NOT_BLANK)))]
    pub question: String,
    /// A short label shown above the question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_HEADER_CHARS), pattern(crate::schema::TEXT)))]
    pub header: Option<String>,
    /// The choices offered; empty for a free-text question.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_OPTIONS)))]
    pub options: Vec<QuestionOption>,
    /// Whether several options may be chosen, together with custom text.
    #[serde(default)]
    pub multi_select: bool,
    /// What the typed answer of a question without options must be:
    /// `integer`, `number`, `date`, `date-time`, `email` or `uri`
    /// ([`Format`]); any text when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// The least value a typed answer may have (numbers and dates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<Scalar>,
    /// The greatest value a typed answer may have (numbers and dates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<Scalar>,
    /// The text a question without options starts with, for the person to
    /// keep or change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Scalar>,
}

impl Question {
    /// A question of `options` (none for typed text only), one or several
    /// of them, and nothing else: no format, bounds or default. What the
    /// agents' doors build from another product's question.
    pub fn choice(
        id: String,
        question: String,
        header: Option<String>,
        options: Vec<QuestionOption>,
        multi_select: bool,
    ) -> Self {
        Self {
            id,
            question,
            header,
            options,
            multi_select,
            format: None,
            minimum: None,
            maximum: None,
            default: None,
        }
    }

    /// The format the typed answer must have, if the question names a
    /// known one (a valid request names only known formats).
    pub fn format(&self) -> Option<Format> {
        self.format.as_deref().and_then(Format::parse)
    }
}

/// One choice offered by a [`Question`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QuestionOption {
    /// The text of the choice; answers name the option by it.
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_LABEL_CHARS), pattern(crate::schema::NOT_BLANK)))]
    pub label: String,
    /// What choosing this option means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_DESCRIPTION_CHARS), pattern(crate::schema::TEXT)))]
    pub description: Option<String>,
    /// Longer text shown while the option has focus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_PREVIEW_CHARS), pattern(crate::schema::TEXT)))]
    pub preview: Option<String>,
}

/// A human's answers to a whole [`Request`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Answers {
    /// One item per question.
    pub answers: Vec<AnswerItem>,
}

/// The answer to one question: chosen labels and, optionally, typed text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnswerItem {
    /// The id of the question answered.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = crate::MAX_ID_CHARS), pattern(crate::schema::QUESTION_ID)))]
    pub id: String,
    /// The labels of the chosen options; may be empty or left out.
    #[serde(default)]
    #[cfg_attr(
        feature = "schema",
        schemars(with = "std::collections::BTreeSet<String>")
    )]
    pub selected: Vec<String>,
    /// Text the human typed; absent (or `null`) when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_CUSTOM_CHARS), pattern(crate::schema::NOT_BLANK)))]
    pub custom: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_reads_optional_fields_as_defaults() {
        let json = r#"{"questions":[{"id":"notes","question":"Anything else?"}]}"#;
        let request: Request = serde_json::from_str(json).expect("valid request JSON");
        let q = &request.questions[0];
        assert_eq!(q.header, None);
        assert!(q.options.is_empty());
        assert!(!q.multi_select);
    }

    #[test]
    fn answer_item_reads_null_custom_as_absent_and_omits_it() {
        let item: AnswerItem =
            serde_json::from_str(r#"{"id":"db","selected":["SQLite"],"custom":null}"#)
                .expect("valid answer JSON");
        assert_eq!(item.custom, None);
        let out = serde_json::to_string(&item).expect("serializes");
        assert_eq!(out, r#"{"id":"db","selected":["SQLite"]}"#);
    }

    #[test]
    fn answers_reject_unknown_fields() {
        let err = serde_json::from_str::<AnswerItem>(r#"{"id":"db","selected":[],"extra":1}"#)
            .expect_err("unknown field must be refused");
        assert!(err.to_string().contains("unknown field `extra`"), "{err}");
    }
}

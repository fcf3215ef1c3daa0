//! What validation reports: a problem with its place, a stable code and a
//! message a person can act on.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One thing wrong with a request or with answers.
///
/// Serialized as `{"path": "answers[1].selected[0]", "code": "unknown_label",
/// "message": "…"}`, plus `questionId` when the problem belongs to one
/// question (so a UI can show it next to that question).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// Where the problem is, e.g. `questions[0].options[2].label`.
    pub path: String,
    /// What kind of problem it is; stable, for programs.
    pub code: ProblemCode,
    /// What is wrong, for people.
    pub message: String,
    /// The id of the question the problem belongs to, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question_id: Option<String>,
}

impl Problem {
    /// A problem at `path`; the validators of this crate make them, and
    /// callers that check input of their own (an HTTP header) may too.
    pub fn new(path: impl Into<String>, code: ProblemCode, message: String) -> Self {
        Self {
            path: path.into(),
            code,
            message,
            question_id: None,
        }
    }

    pub(crate) fn for_question(mut self, id: &str) -> Self {
        self.question_id = Some(id.to_owned());
        self
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.path, self.message, self.code)
    }
}

/// The stable codes of [`Problem`]s; the crate documentation has the table.
/// Written as its [`as_str`](ProblemCode::as_str) form, and read through
/// [`ProblemCode::parse`]: a derived reader would cost every browser bundle
/// a second copy of the names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum ProblemCode {
    // Requests.
    /// The request has no questions.
    NoQuestions,
    /// The request has more questions than allowed.
    TooManyQuestions,
    /// A question id is empty, too long or uses other characters than
    /// `A-Z a-z 0-9 _ -`.
    InvalidId,
    /// Two questions share an id.
    DuplicateId,
    /// A question's text is blank.
    EmptyQuestion,
    /// A question's text is too long.
    QuestionTooLong,
    /// A header is too long.
    HeaderTooLong,
    /// A question has more options than allowed.
    TooManyOptions,
    /// An option label is blank.
    EmptyLabel,
    /// An option label is too long.
    LabelTooLong,
    /// Two options of one question share a label.
    DuplicateOption,
    /// An option's description is too long.
    DescriptionTooLong,
    /// An option's preview is too long.
    PreviewTooLong,
    /// A request's context is too long.
    ContextTooLong,
    /// A multi-select question offers no options.
    MultiSelectWithoutOptions,
    /// A question names a format askdesk does not know.
    UnknownFormat,
    /// A question with options has a format or a default.
    FormatWithOptions,
    /// A minimum or maximum is no value of the question's format, is given
    /// for a format without order, or the maximum is below the minimum.
    InvalidBound,
    /// A question's default is no valid answer to it.
    InvalidDefault,
    // Answers.
    /// An answer names no question of the request.
    UnknownQuestion,
    /// Two answers name the same question.
    DuplicateAnswer,
    /// A question has no answer.
    MissingAnswer,
    /// A selected label is not an option of the question.
    UnknownLabel,
    /// A label is selected twice.
    DuplicateLabel,
    /// A single-select question has more than one label selected.
    TooManySelected,
    /// Custom text is present but blank.
    EmptyCustom,
    /// Custom text is too long.
    CustomTooLong,
    /// An answer has neither a label nor custom text.
    EmptyAnswer,
    /// A single-select or optionless question has both a label and custom text.
    ExclusiveCustom,
    /// Typed text is not of the question's format.
    InvalidFormat,
    /// Typed text is below the question's minimum or above its maximum.
    OutOfRange,
    // Asks.
    /// An ask's title is too long.
    TitleTooLong,
    /// The name of the asking agent is too long.
    AgentTooLong,
    /// An ask's timeout is zero or longer than allowed.
    TimeoutOutOfRange,
    /// An ask has default answers but no timeout, so they could never apply.
    DefaultsWithoutTimeout,
    /// A decline reason is too long.
    ReasonTooLong,
    /// An idempotency key is empty, too long or not visible ASCII.
    InvalidIdempotencyKey,
    /// An idempotency key was used before for an ask with other content.
    IdempotencyConflict,
    /// A name in an ask's `to` is not a person's name, or is listed twice,
    /// or the list is too long.
    InvalidRecipient,
    /// A name in an ask's `to` is no person of the desk.
    UnknownRecipient,
    /// An ask's `session` is not 1 to 64 letters, digits, `-` or `_`.
    InvalidSession,
    /// An ask's `session` is another agent's: the agent that first named
    /// it reads its messages.
    SessionTaken,
    // Messages.
    /// A message to an agent's session is blank.
    EmptyMessage,
    /// A message to an agent's session is too long.
    MessageTooLong,
    // Every text.
    /// A text has a control character (C0, DEL or C1) other than tab and
    /// newline.
    ControlCharacter,
}

impl ProblemCode {
    /// Every code, in the order of the crate documentation's table.
    pub const ALL: [Self; 45] = [
        Self::NoQuestions,
        Self::TooManyQuestions,
        Self::InvalidId,
        Self::DuplicateId,
        Self::EmptyQuestion,
        Self::QuestionTooLong,
        Self::HeaderTooLong,
        Self::TooManyOptions,
        Self::EmptyLabel,
        Self::LabelTooLong,
        Self::DuplicateOption,
        Self::DescriptionTooLong,
        Self::PreviewTooLong,
        Self::ContextTooLong,
        Self::MultiSelectWithoutOptions,
        Self::UnknownFormat,
        Self::FormatWithOptions,
        Self::InvalidBound,
        Self::InvalidDefault,
        Self::UnknownQuestion,
        Self::DuplicateAnswer,
        Self::MissingAnswer,
        Self::UnknownLabel,
        Self::DuplicateLabel,
        Self::TooManySelected,
        Self::EmptyCustom,
        Self::CustomTooLong,
        Self::EmptyAnswer,
        Self::ExclusiveCustom,
        Self::InvalidFormat,
        Self::OutOfRange,
        Self::TitleTooLong,
        Self::AgentTooLong,
        Self::TimeoutOutOfRange,
        Self::DefaultsWithoutTimeout,
        Self::ReasonTooLong,
        Self::InvalidIdempotencyKey,
        Self::IdempotencyConflict,
        Self::InvalidRecipient,
        Self::UnknownRecipient,
        Self::InvalidSession,
        Self::SessionTaken,
        Self::EmptyMessage,
        Self::MessageTooLong,
        Self::ControlCharacter,
    ];

    /// The code as it appears in JSON, e.g. `unknown_label`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NoQuestions => "no_questions",
            Self::TooManyQuestions => "too_many_questions",
            Self::InvalidId => "invalid_id",
            Self::DuplicateId => "duplicate_id",
            Self::EmptyQuestion => "empty_question",
            Self::QuestionTooLong => "question_too_long",
            Self::HeaderTooLong => "header_too_long",
            Self::TooManyOptions => "too_many_options",
            Self::EmptyLabel => "empty_label",
            Self::LabelTooLong => "label_too_long",
            Self::DuplicateOption => "duplicate_option",
            Self::DescriptionTooLong => "description_too_long",
            Self::PreviewTooLong => "preview_too_long",
            Self::ContextTooLong => "context_too_long",
            Self::MultiSelectWithoutOptions => "multi_select_without_options",
            Self::UnknownFormat => "unknown_format",
            Self::FormatWithOptions => "format_with_options",
            Self::InvalidBound => "invalid_bound",
            Self::InvalidDefault => "invalid_default",
            Self::UnknownQuestion => "unknown_question",
            Self::DuplicateAnswer => "duplicate_answer",
            Self::MissingAnswer => "missing_answer",
            Self::UnknownLabel => "unknown_label",
            Self::DuplicateLabel => "duplicate_label",
            Self::TooManySelected => "too_many_selected",
            Self::EmptyCustom => "empty_custom",
            Self::CustomTooLong => "custom_too_long",
            Self::EmptyAnswer => "empty_answer",
            Self::ExclusiveCustom => "exclusive_custom",
            Self::InvalidFormat => "invalid_format",
            Self::OutOfRange => "out_of_range",
            Self::TitleTooLong => "title_too_long",
            Self::AgentTooLong => "agent_too_long",
            Self::TimeoutOutOfRange => "timeout_out_of_range",
            Self::DefaultsWithoutTimeout => "defaults_without_timeout",
            Self::ReasonTooLong => "reason_too_long",
            Self::InvalidIdempotencyKey => "invalid_idempotency_key",
            Self::IdempotencyConflict => "idempotency_conflict",
            Self::InvalidRecipient => "invalid_recipient",
            Self::UnknownRecipient => "unknown_recipient",
            Self::InvalidSession => "invalid_session",
            Self::SessionTaken => "session_taken",
            Self::EmptyMessage => "empty_message",
            Self::MessageTooLong => "message_too_long",
            Self::ControlCharacter => "control_character",
        }
    }
}

/// A text as a message quotes it: in double quotes, with quotes,
/// backslashes, control characters and the marks that reorder text
/// escaped, as `{:?}` writes a string. Written through `Display`, because
/// the browser bundles are built with `-Zfmt-debug=none`, under which
/// `{:?}` writes nothing at all; and by hand, because `char::escape_debug`
/// would bring Unicode's tables of printable characters into every bundle.
pub(crate) fn quoted(text: &str) -> Quoted<'_> {
    Quoted(text)
}

/// See [`quoted`].
pub(crate) struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\0' => f.write_str("\\0")?,
                '\t' => f.write_str("\\t")?,
                '\r' => f.write_str("\\r")?,
                '\n' => f.write_str("\\n")?,
                // Other controls, and the bidirectional marks, embeddings,
                // overrides and isolates (the text rules' one list).
                c if c.is_control() || crate::chars::is_bidi_control(c) => {
                    write!(f, "\\u{{{:x}}}", u32::from(c))?;
                }
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

impl ProblemCode {
    /// Reads a code from its [`as_str`](Self::as_str) form.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|code| code.as_str() == text)
    }
}

impl TryFrom<String> for ProblemCode {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        Self::parse(&text).ok_or_else(|| format!("{} is no problem code", quoted(&text)))
    }
}

impl From<ProblemCode> for &'static str {
    fn from(code: ProblemCode) -> Self {
        code.as_str()
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Every problem found, at once. Never empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    /// The problems, in the order they were found.
    pub fn iter(&self) -> std::slice::Iter<'_, Problem> {
        self.0.iter()
    }

    /// Whether any problem has this code.
    pub fn has(&self, code: ProblemCode) -> bool {
        self.0.iter().any(|p| p.code == code)
    }
}

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "- {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Problems {}

impl<'a> IntoIterator for &'a Problems {
    type Item = &'a Problem;
    type IntoIter = std::slice::Iter<'a, Problem>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests;

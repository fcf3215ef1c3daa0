//! The one validator of requests and answers. Every part of askdesk calls
//! these functions; none restates a rule.

use crate::{
    model::{AnswerItem, Answers, Question, Request},
    problem::{Problem, ProblemCode as Code, Problems},
};
use std::collections::HashSet;

/// Most questions in one request.
pub const MAX_QUESTIONS: usize = 50;
/// Longest question id, in characters.
pub const MAX_ID_CHARS: usize = 64;
/// Longest question text, in characters.
pub const MAX_QUESTION_CHARS: usize = 4_000;
/// Longest header, in characters.
pub const MAX_HEADER_CHARS: usize = 40;
/// Most options of one question.
pub const MAX_OPTIONS: usize = 32;
/// Longest option label, in characters.
pub const MAX_LABEL_CHARS: usize = 200;
/// The longest option description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 2_000;
/// The longest option preview, in characters.
pub const MAX_PREVIEW_CHARS: usize = 20_000;
/// Longest custom text, in characters.
pub const MAX_CUSTOM_CHARS: usize = 10_000;

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// Whether `s` has more than `max` characters; only text with more than
/// `max` bytes needs counting.
fn longer_than(s: &str, max: usize) -> bool {
    s.len() > max && chars(s) > max
}

fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// A request that passed validation. Only [`ValidRequest::new`] makes one,
/// so code holding it may rely on unique ids and unique labels.
///
/// On the wire it is the request itself; decoding one validates it, so a
/// value that crossed a boundary (an [`Ask`](crate::Ask) from the server,
/// the page's props) is as valid as one made here.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct ValidRequest(Request);

impl<'de> serde::Deserialize<'de> for ValidRequest {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let request = Request::deserialize(deserializer)?;
        ValidRequest::new(request).map_err(serde::de::Error::custom)
    }
}

impl ValidRequest {
    /// Checks a request and reports every problem at once.
    pub fn new(request: Request) -> Result<Self, Problems> {
        let problems = request_problems(&request);
        if problems.is_empty() {
            Ok(Self(request))
        } else {
            Err(Problems(problems))
        }
    }

    /// The request.
    pub fn request(&self) -> &Request {
        &self.0
    }

    /// The questions, in order.
    pub fn questions(&self) -> &[Question] {
        &self.0.questions
    }

    /// The question with this id.
    pub fn question(&self, id: &str) -> Option<&Question> {
        self.0.questions.iter().find(|q| q.id == id)
    }

    /// Gives the request back.
    pub fn into_inner(self) -> Request {
        self.0
    }

    /// Checks answers against this request and reports every problem at once.
    ///
    /// Accepted answers come back in canonical form: one item per question
    /// in request order, labels in option order, custom text trimmed. The
    /// answers are taken, not copied: canonical form is made by moving the
    /// items into place, so acceptance allocates nothing.
    pub fn validate_answers(&self, answers: Answers) -> Result<ValidAnswers, Problems> {
        let questions = &self.0.questions;
        let mut problems = Vec::new();
        // The answers' index for each question. A valid request has at most
        // MAX_QUESTIONS questions (`new` and decoding both check).
        let mut answered = [None::<usize>; MAX_QUESTIONS];
        let answered = &mut answered[..questions.len()];
        for (i, item) in answers.answers.iter().enumerate() {
            let Some(q) = questions.iter().position(|q| q.id == item.id) else {
                problems.push(Problem::new(
                    format!("answers[{i}].id"),
                    Code::UnknownQuestion,
                    format!("there is no question with id {:?}", item.id),
                ));
                continue;
            };
            match answered[q] {
                Some(first) => problems.push(
                    Problem::new(
                        format!("answers[{i}].id"),
                        Code::DuplicateAnswer,
                        format!(
                            "question {:?} is already answered by answers[{first}]; \
                             answer each question once",
                            item.id
                        ),
                    )
                    .for_question(&item.id),
                ),
                None => answered[q] = Some(i),
            }
            problems.extend(item_problems(&questions[q], item, Some(i)));
        }
        for (q, slot) in answered.iter().enumerate() {
            if slot.is_none() {
                let id = &questions[q].id;
                problems.push(
                    Problem::new(
                        "answers",
                        Code::MissingAnswer,
                        format!("question {id:?} has no answer; every question needs one"),
                    )
                    .for_question(id),
                );
            }
        }
        if !problems.is_empty() {
            return Err(Problems(problems));
        }
        // Without problems every question has exactly one item, so sorting
        // the items by their question's index puts them in request order.
        let mut items = answers.answers;
        items.sort_unstable_by_key(|item| questions.iter().position(|q| q.id == item.id));
        for (item, question) in items.iter_mut().zip(questions) {
            canonicalize(question, item);
        }
        Ok(ValidAnswers(items))
    }
}

/// Answers that passed validation against their request, in canonical form.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ValidAnswers(Vec<AnswerItem>);

impl ValidAnswers {
    /// One item per question, in request order.
    pub fn items(&self) -> &[AnswerItem] {
        &self.0
    }

    /// The answers as they travel on the wire.
    pub fn into_answers(self) -> Answers {
        Answers { answers: self.0 }
    }
}

/// Puts a valid item in canonical form in place: its labels, each an option
/// of `question` and none twice, in option order; its custom text trimmed.
fn canonicalize(question: &Question, item: &mut AnswerItem) {
    item.selected
        .sort_unstable_by_key(|label| question.options.iter().position(|o| o.label == *label));
    if let Some(custom) = &mut item.custom {
        custom.truncate(custom.trim_end().len());
        custom.drain(..custom.len() - custom.trim_start().len());
    }
}

fn request_problems(request: &Request) -> Vec<Problem> {
    let mut problems = Vec::new();
    let n = request.questions.len();
    if n == 0 {
        problems.push(Problem::new(
            "questions",
            Code::NoQuestions,
            "a request needs at least one question".to_owned(),
        ));
    } else if n > MAX_QUESTIONS {
        problems.push(Problem::new(
            "questions",
            Code::TooManyQuestions,
            format!("a request may have at most {MAX_QUESTIONS} questions, this one has {n}"),
        ));
    }
    let mut ids = HashSet::new();
    for (i, q) in request.questions.iter().enumerate() {
        let path = format!("questions[{i}]");
        let mut push = |suffix: &str, code, message| {
            problems
                .push(Problem::new(format!("{path}{suffix}"), code, message).for_question(&q.id))
        };
        if !is_valid_id(&q.id) {
            push(
                ".id",
                Code::InvalidId,
                format!(
                    "id {:?} must be 1 to {MAX_ID_CHARS} characters from A-Z, a-z, 0-9, _ and -",
                    q.id
                ),
            );
        } else if !ids.insert(q.id.as_str()) {
            push(
                ".id",
                Code::DuplicateId,
                format!("id {:?} is used by another question", q.id),
            );
        }
        if is_blank(&q.question) {
            push(
                ".question",
                Code::EmptyQuestion,
                "the question text is blank".to_owned(),
            );
        } else if longer_than(&q.question, MAX_QUESTION_CHARS) {
            push(
                ".question",
                Code::QuestionTooLong,
                format!(
                    "the question text has {} characters; at most {MAX_QUESTION_CHARS} are allowed",
                    chars(&q.question)
                ),
            );
        }
        if let Some(header) = &q.header {
            if longer_than(header, MAX_HEADER_CHARS) {
                push(
                    ".header",
                    Code::HeaderTooLong,
                    format!(
                        "the header has {} characters; at most {MAX_HEADER_CHARS} are allowed",
                        chars(header)
                    ),
                );
            }
        }
        if q.options.len() > MAX_OPTIONS {
            push(
                ".options",
                Code::TooManyOptions,
                format!(
                    "a question may have at most {MAX_OPTIONS} options, this one has {}",
                    q.options.len()
                ),
            );
        }
        if q.multi_select && q.options.is_empty() {
            push(
                ".multiSelect",
                Code::MultiSelectWithoutOptions,
                "a multi-select question needs at least one option".to_owned(),
            );
        }
        let mut labels = HashSet::new();
        for (j, option) in q.options.iter().enumerate() {
            let suffix = format!(".options[{j}].label");
            if is_blank(&option.label) {
                push(
                    &suffix,
                    Code::EmptyLabel,
                    "the option label is blank".to_owned(),
                );
            } else if longer_than(&option.label, MAX_LABEL_CHARS) {
                push(
                    &suffix,
                    Code::LabelTooLong,
                    format!(
                        "the label has {} characters; at most {MAX_LABEL_CHARS} are allowed",
                        chars(&option.label)
                    ),
                );
            } else if !labels.insert(option.label.as_str()) {
                push(
                    &suffix,
                    Code::DuplicateOption,
                    format!(
                        "label {:?} is used by another option of this question",
                        option.label
                    ),
                );
            }
            for (field, text, max, code) in [
                (
                    "description",
                    &option.description,
                    MAX_DESCRIPTION_CHARS,
                    Code::DescriptionTooLong,
                ),
                (
                    "preview",
                    &option.preview,
                    MAX_PREVIEW_CHARS,
                    Code::PreviewTooLong,
                ),
            ] {
                if let Some(text) = text.as_deref().filter(|t| longer_than(t, max)) {
                    push(
                        &format!(".options[{j}].{field}"),
                        code,
                        format!(
                            "the {field} has {} characters; at most {max} are allowed",
                            chars(text)
                        ),
                    );
                }
            }
        }
    }
    problems
}

fn is_valid_id(id: &str) -> bool {
    (1..=MAX_ID_CHARS).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The problems of one answer item against its question. Drafts use it to
/// say why a question cannot be submitted yet.
///
/// `index` is the item's position in `answers`, for the problem paths. The
/// happy path allocates nothing: paths are only formatted for problems.
pub(crate) fn item_problems(
    question: &Question,
    item: &AnswerItem,
    index: Option<usize>,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut push = |suffix: &str, code, message| {
        let path = match index {
            Some(i) => format!("answers[{i}]{suffix}"),
            None => suffix.trim_start_matches('.').to_owned(),
        };
        problems.push(Problem::new(path, code, message).for_question(&question.id))
    };
    for (j, label) in item.selected.iter().enumerate() {
        let suffix = || format!(".selected[{j}]");
        if !question.options.iter().any(|o| o.label == *label) {
            let message = if question.options.is_empty() {
                format!(
                    "question {:?} has no options; {label:?} cannot be selected",
                    question.id
                )
            } else {
                format!("{label:?} is not an option of question {:?}", question.id)
            };
            push(&suffix(), Code::UnknownLabel, message);
        } else if item.selected[..j].contains(label) {
            push(
                &suffix(),
                Code::DuplicateLabel,
                format!("{label:?} is selected twice"),
            );
        }
    }
    if !question.multi_select && item.selected.len() > 1 {
        push(
            ".selected",
            Code::TooManySelected,
            format!(
                "question {:?} takes one option, {} are selected",
                question.id,
                item.selected.len()
            ),
        );
    }
    match item.custom.as_deref() {
        Some(custom) if is_blank(custom) => push(
            ".custom",
            Code::EmptyCustom,
            "the custom text is blank; omit it or write something".to_owned(),
        ),
        Some(custom) if longer_than(custom, MAX_CUSTOM_CHARS) => push(
            ".custom",
            Code::CustomTooLong,
            format!(
                "the custom text has {} characters; at most {MAX_CUSTOM_CHARS} are allowed",
                chars(custom)
            ),
        ),
        _ => {}
    }
    if item.selected.is_empty() && item.custom.is_none() {
        push(
            "",
            Code::EmptyAnswer,
            "choose an option or write an answer".to_owned(),
        );
    }
    if !question.multi_select && !item.selected.is_empty() && item.custom.is_some() {
        let kind = if question.options.is_empty() {
            "an optionless"
        } else {
            "a single-select"
        };
        push(
            ".custom",
            Code::ExclusiveCustom,
            format!(
                "question {:?} is {kind} question: send either a selected option or custom text, not both",
                question.id
            ),
        );
    }
    problems
}

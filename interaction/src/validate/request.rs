//! The rules a request keeps: how many questions it has, and each one's
//! id, text, header and options.

use super::{
    chars, is_blank, longer_than, MAX_CONTEXT_CHARS, MAX_DESCRIPTION_CHARS, MAX_HEADER_CHARS,
    MAX_ID_CHARS, MAX_LABEL_CHARS, MAX_OPTIONS, MAX_PREVIEW_CHARS, MAX_QUESTIONS,
    MAX_QUESTION_CHARS,
};
use crate::{
    format::Format,
    model::{Question, Request},
    problem::{quoted, Problem, ProblemCode as Code},
};

/// Every problem of `request`.
pub(super) fn request_problems(request: &Request) -> Vec<Problem> {
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
    if let Some(context) = &request.context {
        if longer_than(context, MAX_CONTEXT_CHARS) {
            problems.push(Problem::new(
                "context",
                Code::ContextTooLong,
                format!(
                    "the context has {} characters; at most {MAX_CONTEXT_CHARS} are allowed",
                    chars(context)
                ),
            ));
        }
    }
    // Duplicates are looked for among the questions before, up to as many
    // as a request may have: past that it is refused anyway, and the search
    // stays bounded for any body.
    let questions = &request.questions;
    for (i, q) in questions.iter().enumerate() {
        let path = format!("questions[{i}]");
        let mut push = |suffix: &str, code, message| {
            problems
                .push(Problem::new(format!("{path}{suffix}"), code, message).for_question(&q.id))
        };
        question_rules(questions, i, q, &mut push);
        typed_rules(q, &mut push);
        option_rules(q, &mut push);
    }
    problems
}

/// The rules of the question `q` at `i` among `questions`: its id (valid,
/// and not one an earlier question has), text, header, how many options,
/// and multi-select with options.
fn question_rules(
    questions: &[Question],
    i: usize,
    q: &Question,
    push: &mut impl FnMut(&str, Code, String),
) {
    if !is_valid_id(&q.id) {
        push(
            ".id",
            Code::InvalidId,
            format!(
                "id {} must be 1 to {MAX_ID_CHARS} characters from A-Z, a-z, 0-9, _ and -",
                quoted(&q.id)
            ),
        );
    } else if questions[..i.min(MAX_QUESTIONS)]
        .iter()
        .any(|p| p.id == q.id)
    {
        push(
            ".id",
            Code::DuplicateId,
            format!("id {} is used by another question", quoted(&q.id)),
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
}

/// The rules of `q`'s options: each label given, not too long and not one
/// an earlier option has; descriptions and previews not too long.
fn option_rules(q: &Question, push: &mut impl FnMut(&str, Code, String)) {
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
        } else if q.options[..j.min(MAX_OPTIONS)]
            .iter()
            .any(|o| o.label == option.label)
        {
            push(
                &suffix,
                Code::DuplicateOption,
                format!(
                    "label {} is used by another option of this question",
                    quoted(&option.label)
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

/// The rules of a typed question: a known format, on a question without
/// options; bounds that are values of an ordered format, the least first;
/// and a default that is itself a valid answer.
fn typed_rules(q: &Question, push: &mut impl FnMut(&str, Code, String)) {
    let format = match q.format.as_deref() {
        None => None,
        Some(name) => match Format::parse(name) {
            Some(format) => Some(format),
            None => {
                let known: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
                push(
                    ".format",
                    Code::UnknownFormat,
                    format!("format {} is not one of {}", quoted(name), known.join(", ")),
                );
                return;
            }
        },
    };
    if !q.options.is_empty() {
        for (field, given) in [
            ("format", q.format.is_some()),
            ("default", q.default.is_some()),
        ] {
            if given {
                push(
                    &format!(".{field}"),
                    Code::FormatWithOptions,
                    format!("a {field} applies only to a question without options"),
                );
            }
        }
        return;
    }
    let mut bounds = Vec::new();
    for (field, bound) in [("minimum", &q.minimum), ("maximum", &q.maximum)] {
        let Some(bound) = bound else { continue };
        let text = bound.text();
        match format.filter(|f| f.has_range()) {
            None => push(
                &format!(".{field}"),
                Code::InvalidBound,
                format!(
                    "a {field} applies only to the formats integer, number, date and date-time"
                ),
            ),
            Some(format) => match format.read(&text) {
                Some(value) => bounds.push(value),
                None => push(
                    &format!(".{field}"),
                    Code::InvalidBound,
                    format!(
                        "the {field} must be {}; {} is not",
                        format.describe(),
                        quoted(&text)
                    ),
                ),
            },
        }
    }
    if let [least, most] = &bounds[..] {
        if most.compare(least) == Some(std::cmp::Ordering::Less) {
            push(
                ".maximum",
                Code::InvalidBound,
                "the maximum is below the minimum".to_owned(),
            );
        }
    }
    if let Some(default) = &q.default {
        let text = default.text();
        let problem = if is_blank(&text) {
            Some("the default is blank; leave it out or give a value".to_owned())
        } else if longer_than(&text, super::MAX_CUSTOM_CHARS) {
            Some(format!(
                "the default has more than {} characters",
                super::MAX_CUSTOM_CHARS
            ))
        } else {
            super::typed_problem(q, text.trim()).map(|(_, message)| message)
        };
        if let Some(message) = problem {
            push(".default", Code::InvalidDefault, message);
        }
    }
}

/// Whether `id` is written as a question's id is: 1 to 64 letters,
/// digits, `-` or `_` (a session's name is written so too).
pub(crate) fn is_valid_id(id: &str) -> bool {
    (1..=MAX_ID_CHARS).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

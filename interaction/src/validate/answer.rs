//! The rules one answer item keeps against its question.

use super::{chars, control_problem, is_blank, longer_than, Texts, MAX_CUSTOM_CHARS};
use crate::{
    format::Scalar,
    model::{AnswerItem, Question},
    problem::{quoted, Problem, ProblemCode as Code},
};
use std::cmp::Ordering;

/// The problems of one answer item against its question. Drafts use it to
/// say why a question cannot be submitted yet.
///
/// `index` is the item's position in `answers`, for the problem paths. The
/// happy path allocates nothing: paths are only formatted for problems.
pub(crate) fn item_problems(
    question: &Question,
    item: &AnswerItem,
    index: Option<usize>,
    texts: Texts,
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
                    "question {} has no options; {} cannot be selected",
                    quoted(&question.id),
                    quoted(label)
                )
            } else {
                format!(
                    "{} is not an option of question {}",
                    quoted(label),
                    quoted(&question.id)
                )
            };
            push(&suffix(), Code::UnknownLabel, message);
        } else if item.selected[..j].contains(label) {
            push(
                &suffix(),
                Code::DuplicateLabel,
                format!("{} is selected twice", quoted(label)),
            );
        }
    }
    if !question.multi_select && item.selected.len() > 1 {
        push(
            ".selected",
            Code::TooManySelected,
            format!(
                "question {} takes one option, {} are selected",
                quoted(&question.id),
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
        Some(custom) => {
            let control = (texts == Texts::Incoming)
                .then(|| control_problem(String::new, custom))
                .flatten();
            if let Some(problem) = control {
                push(".custom", problem.code, problem.message);
            } else if let Some((code, message)) = typed_problem(question, custom.trim()) {
                push(".custom", code, message);
            }
        }
        None => {}
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
                "question {} is {kind} question: send either a selected option or custom text, not both",
                quoted(&question.id)
            ),
        );
    }
    problems
}

/// What is wrong with typed `text` (trimmed, not blank) as the answer to
/// `question`: not of its format, or outside its bounds. A question's
/// `default` is held to the same rule.
pub(crate) fn typed_problem(question: &Question, text: &str) -> Option<(Code, String)> {
    let format = question.format()?;
    let Some(value) = format.read(text) else {
        return Some((
            Code::InvalidFormat,
            format!(
                "the answer must be {}; {} is not",
                format.describe(),
                quoted(text)
            ),
        ));
    };
    let bound = |scalar: &Option<Scalar>| {
        let scalar = scalar.as_ref()?;
        Some((scalar.text(), format.read(&scalar.text())?))
    };
    if let Some((least, minimum)) = bound(&question.minimum) {
        if value.compare(&minimum) == Some(Ordering::Less) {
            return Some((
                Code::OutOfRange,
                format!("the answer must be at least {least}; {text} is less"),
            ));
        }
    }
    if let Some((most, maximum)) = bound(&question.maximum) {
        if value.compare(&maximum) == Some(Ordering::Greater) {
            return Some((
                Code::OutOfRange,
                format!("the answer must be at most {most}; {text} is more"),
            ));
        }
    }
    None
}

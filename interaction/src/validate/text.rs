//! The rule every text that comes in keeps, whatever its field: no C0
//! control character but tab and newline. A NUL, an escape or a carriage
//! return in a title or an answer is no text a person wrote, and stores,
//! terminals and pages each read it differently. And the free texts of an
//! ask and a decline (title, agent, context, reason): trimmed, blank as
//! none, and no longer than their field allows.

use crate::{
    model::Request,
    problem::{Problem, ProblemCode},
};

/// Which rules of text apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Texts {
    /// Every rule: what arrives from an agent or a person.
    Incoming,
    /// What a store kept, written before askdesk refused control
    /// characters: read as it was, so that no earlier ask becomes unreadable.
    Stored,
}

/// The first control character of `text` other than tab and newline, and
/// how many characters come before it.
pub(crate) fn control_character(text: &str) -> Option<(usize, char)> {
    if !text.bytes().any(|b| b < 0x20 && b != b'\t' && b != b'\n') {
        return None;
    }
    text.chars()
        .enumerate()
        .find(|(_, c)| u32::from(*c) < 0x20 && *c != '\t' && *c != '\n')
}

/// The problem at `path` when `text` has a control character.
pub(crate) fn control_problem(path: impl FnOnce() -> String, text: &str) -> Option<Problem> {
    let (at, found) = control_character(text)?;
    Some(Problem::new(
        path(),
        ProblemCode::ControlCharacter,
        format!(
            "the text has the control character U+{:04X} after {at} characters; only tab and \
             newline may be used",
            u32::from(found)
        ),
    ))
}

/// The control characters of a request's texts: its questions, headers,
/// options' labels, descriptions and previews.
pub(crate) fn request_control_problems(request: &Request) -> Vec<Problem> {
    let mut problems = Vec::new();
    if let Some(context) = &request.context {
        problems.extend(control_problem(|| "context".to_owned(), context));
    }
    for (i, q) in request.questions.iter().enumerate() {
        let mut check = |suffix: &str, text: &str| {
            if let Some(problem) = control_problem(|| format!("questions[{i}]{suffix}"), text) {
                problems.push(problem.for_question(&q.id));
            }
        };
        check(".question", &q.question);
        if let Some(header) = &q.header {
            check(".header", header);
        }
        for (j, option) in q.options.iter().enumerate() {
            check(&format!(".options[{j}].label"), &option.label);
            if let Some(description) = &option.description {
                check(&format!(".options[{j}].description"), description);
            }
            if let Some(preview) = &option.preview {
                check(&format!(".options[{j}].preview"), preview);
            }
        }
    }
    problems
}

/// The text trimmed; blank text counts as none.
pub(crate) fn trimmed(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty())
}

/// A problem at `path` when `text` has more than `max` characters.
pub(crate) fn too_long(
    text: &Option<String>,
    max: usize,
    path: &str,
    code: ProblemCode,
    what: &str,
) -> Option<Problem> {
    let chars = text.as_deref()?.chars().count();
    (chars > max).then(|| {
        Problem::new(
            path,
            code,
            format!("{what} has {chars} characters; at most {max} are allowed"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_and_newline_pass_and_every_other_c0_character_is_found_where_it_is() {
        assert_eq!(control_character("line one\n\tline two"), None);
        assert_eq!(control_character("ünïcode \u{202e} stays"), None, "not C0");
        for code in (0u32..0x20).filter(|c| ![0x09, 0x0a].contains(c)) {
            let found = char::from_u32(code).expect("char");
            let text = format!("é{found}x");
            assert_eq!(control_character(&text), Some((1, found)), "U+{code:04X}");
        }
    }

    #[test]
    fn the_problem_names_the_character_and_its_place() {
        let problem = control_problem(|| "title".to_owned(), "ab\0c").expect("problem");
        assert_eq!(problem.path, "title");
        assert_eq!(problem.code, ProblemCode::ControlCharacter);
        assert!(
            problem.message.contains("U+0000 after 2 characters"),
            "{}",
            problem.message
        );
    }
}

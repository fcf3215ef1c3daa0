//! The rule every text that comes in keeps, whatever its field: no
//! control character but tab and newline: none of C0, DEL or C1 (U+0080 to
//! U+009F, an 8-bit escape among them). A NUL, an escape or a carriage
//! return in a title or an answer is no text a person wrote, and stores,
//! terminals and pages each read it differently. How such text, and the
//! bidirectional controls a text may hold, are shown where they cannot be
//! isolated ([`with_visible_controls`]). And the free texts of an ask and
//! a decline (title, agent, context, reason): trimmed, blank as none, and
//! no longer than their field allows.

use crate::{
    chars::{is_bidi_control, is_refused_control},
    model::Request,
    problem::{Problem, ProblemCode},
};
use std::borrow::Cow;

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
    // Every such character is a byte below 0x20, DEL, or (C1) a two-byte
    // sequence led by 0xC2: text without those bytes, nearly all of it, is
    // passed without decoding.
    if !text
        .bytes()
        .any(|b| (b < 0x20 && b != b'\t' && b != b'\n') || b == 0x7f || b == 0xc2)
    {
        return None;
    }
    text.chars()
        .enumerate()
        .find(|(_, c)| is_refused_control(*c))
}

/// `text` as it is shown where what it holds cannot be isolated from the
/// rest: a preview (a command, a diff) or a title. A page's `dir="auto"`
/// or `<bdi>` keeps agent text from reordering the page's own words, but
/// not its parts from each other, so an override in a command would make
/// it read otherwise than it runs; and a terminal or a notification
/// isolates nothing. Each bidirectional control, and each control
/// character the text rules refuse (a store may hold them from before the
/// rule), is written as its code point, `⟨U+202E⟩`, and the text reads in
/// the order it is stored. Every surface that shows a preview or a title
/// calls this.
pub fn with_visible_controls(text: &str) -> Cow<'_, str> {
    let hidden = |c: char| is_refused_control(c) || is_bidi_control(c);
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if hidden(c) {
            // By hand, not `format!`: the browser bundles carry this for
            // notifications' titles, and the formatting machinery is bytes.
            shown.push_str("⟨U+");
            let code = u32::from(c);
            let digits = if code > 0xffff { 6 } else { 4 };
            for shift in (0..digits).rev() {
                let digit = (code >> (shift * 4)) & 0xf;
                shown.push(char::from_digit(digit, 16).map_or('0', |d| d.to_ascii_uppercase()));
            }
            shown.push('⟩');
        } else {
            shown.push(c);
        }
    }
    Cow::Owned(shown)
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
    fn tab_and_newline_pass_and_every_other_control_character_is_found_where_it_is() {
        assert_eq!(control_character("line one\n\tline two"), None);
        assert_eq!(
            control_character("ünïcode \u{202e} stays"),
            None,
            "no control"
        );
        assert_eq!(
            control_character("\u{a0}\u{bf}Â"),
            None,
            "led by 0xC2, not C1"
        );
        let c0 = (0u32..0x20).filter(|c| ![0x09, 0x0a].contains(c));
        for code in c0.chain(0x7f..=0x9f) {
            let found = char::from_u32(code).expect("char");
            let text = format!("é{found}x");
            assert_eq!(control_character(&text), Some((1, found)), "U+{code:04X}");
        }
    }

    #[test]
    fn bidi_and_control_characters_are_shown_as_their_code_points_and_the_rest_as_it_is() {
        let plain = "rm -rf build/ # ünïcode, עברית, tab\tand\nnewline";
        assert!(matches!(with_visible_controls(plain), Cow::Borrowed(_)));
        assert_eq!(
            with_visible_controls("echo safe \u{202e}fr- mr\u{202c} # x"),
            "echo safe ⟨U+202E⟩fr- mr⟨U+202C⟩ # x"
        );
        for code in [
            0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068,
            0x2069, 0x1b, 0x7f, 0x85, 0x9b,
        ] {
            let c = char::from_u32(code).expect("char");
            assert_eq!(
                with_visible_controls(&format!("a{c}b")),
                format!("a⟨U+{code:04X}⟩b")
            );
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

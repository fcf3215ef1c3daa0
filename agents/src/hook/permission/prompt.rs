//! The ask a permission prompt becomes: from `agent · folder`, titled by
//! the tool and its target, one single-select question saying which agent
//! wants what, in which folder, and that text typed under Other denies it.
//! Allow once carries exactly what will happen as its preview: the command,
//! the change as a unified diff, the URL, or the raw input as JSON.
//!
//! Every limit is the `interaction` crate's; text from the event is cut to
//! fit it, so the desk never refuses a prompt for its size.

use super::{Agent, PermissionRequest as Event};
use interaction::{
    AnswerItem, LenientAsk, NewAsk, QuestionOption, MAX_AGENT_CHARS, MAX_DESCRIPTION_CHARS,
    MAX_PREVIEW_CHARS, MAX_QUESTION_CHARS, MAX_TITLE_CHARS,
};
use serde_json::Value;

/// The options' labels: what the answer is read back by.
const ALLOW_ONCE: &str = "Allow once";
const ALWAYS_ALLOW: &str = "Always allow";
const DENY: &str = "Deny";

/// The person's answer to a prompt.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Choice<'a> {
    AllowOnce,
    AlwaysAllow,
    Deny,
    /// Text typed under Other, which denies in the person's words.
    Said(&'a str),
}

impl<'a> Choice<'a> {
    /// The choice a valid answer item makes: on a single-select question
    /// the validator lets it hold either one label or typed text.
    pub(super) fn of(item: &'a AnswerItem) -> Option<Choice<'a>> {
        if let Some(text) = &item.custom {
            return Some(Choice::Said(text));
        }
        match item.selected.first()?.as_str() {
            ALLOW_ONCE => Some(Choice::AllowOnce),
            ALWAYS_ALLOW => Some(Choice::AlwaysAllow),
            DENY => Some(Choice::Deny),
            _ => None,
        }
    }
}

/// What the tool will do: a title, a phrase for the question, and the
/// exact detail for the preview.
struct Action {
    title: String,
    wants: String,
    detail: String,
}

/// The ask for `event`; an error only if the lenient input stopped
/// reading what it always has.
pub(super) fn ask(agent: Agent, event: &Event) -> Result<NewAsk, String> {
    let name = agent.title();
    let action = action(&event.tool_name, &event.tool_input);
    let mut question = format!("{name} wants to {}", action.wants);
    if let Some(cwd) = &event.cwd {
        question.push_str(&format!(" in {cwd}"));
    }
    question.push('.');
    if let Some(why) = event.tool_input.get("description").and_then(Value::as_str) {
        question.push_str(&format!(" It says why: {}.", why.trim_end_matches('.')));
    }
    let suffix =
        format!(" Anything typed under Other denies it and is sent to {name} as the reason.");
    let question = fit(&question, MAX_QUESTION_CHARS - suffix.chars().count()) + &suffix;
    let option = |label: &str, description: String, preview: Option<String>| QuestionOption {
        label: label.to_owned(),
        description: Some(fit(&description, MAX_DESCRIPTION_CHARS)),
        preview,
    };
    let mut options = vec![option(
        ALLOW_ONCE,
        format!("{name} goes ahead this time and asks again next time."),
        Some(fit_lines(&action.detail, MAX_PREVIEW_CHARS)),
    )];
    if !event.suggestions().is_empty() {
        let rules: Vec<String> = event.suggestions().iter().map(suggestion).collect();
        options.push(option(
            ALWAYS_ALLOW,
            format!("{name} goes ahead, and from now on: {}.", rules.join("; ")),
            None,
        ));
    }
    options.push(option(
        DENY,
        format!("{name} does not go ahead, and is told you said no."),
        None,
    ));
    // Through the lenient input, as `ask_user` and the `PreToolUse` path
    // go: the fields this leaves out are the ask's defaults.
    let lenient = serde_json::json!({
        "questions": [{
            "id": "permission",
            "question": question,
            "header": "Permission",
            "options": options,
            "multiSelect": false,
        }],
        "title": fit(&action.title, MAX_TITLE_CHARS),
        "agent": fit(&crate::hook::agent_name(agent, event.cwd.as_deref()), MAX_AGENT_CHARS),
    });
    serde_json::from_value::<LenientAsk>(lenient)
        .map(LenientAsk::into_new_ask)
        .map_err(|e| e.to_string())
}

/// What `tool` will do with `input`.
fn action(tool: &str, input: &Value) -> Action {
    let text = |key: &str| input.get(key).and_then(Value::as_str);
    // Some tools' input is one text, a patch for instance: shown as it is.
    if let Some(whole) = input.as_str() {
        return Action {
            title: tool.to_owned(),
            wants: format!("use {tool}"),
            detail: whole.to_owned(),
        };
    }
    // Claude Code's Bash and every Codex prompt carry a command.
    if let Some(command) = text("command") {
        return Action {
            title: format!("{tool}: {}", first_line(command)),
            wants: "run this command".to_owned(),
            detail: command.to_owned(),
        };
    }
    let change = match (tool, text("file_path")) {
        ("Edit", Some(path)) => replacement(input).map(|r| (path, "edit", Change::Edits(vec![r]))),
        ("MultiEdit", Some(path)) => input
            .get("edits")
            .and_then(Value::as_array)
            .and_then(|edits| edits.iter().map(replacement).collect())
            .map(|edits| (path, "edit", Change::Edits(edits))),
        ("Write", Some(path)) => {
            text("content").map(|content| (path, "write", Change::Content(content.to_owned())))
        }
        _ => None,
    };
    if let Some((path, verb, change)) = change {
        return Action {
            title: format!("{tool}: {path}"),
            wants: format!("{verb} {path}"),
            detail: change.diff(path),
        };
    }
    match (tool, text("url")) {
        ("WebFetch", Some(url)) => Action {
            title: format!("{tool}: {url}"),
            wants: format!("fetch {url}"),
            detail: url.to_owned(),
        },
        _ => Action {
            title: tool.to_owned(),
            wants: format!("use {tool}"),
            detail: serde_json::to_string_pretty(input).unwrap_or_default(),
        },
    }
}

/// One replacement of an edit: `old_string` becomes `new_string`, once or
/// everywhere (`replace_all`).
struct Replacement {
    old: String,
    new: String,
    all: bool,
}

fn replacement(edit: &Value) -> Option<Replacement> {
    let text = |key: &str| edit.get(key).and_then(Value::as_str).map(str::to_owned);
    Some(Replacement {
        old: text("old_string")?,
        new: text("new_string")?,
        all: edit.get("replace_all").and_then(Value::as_bool) == Some(true),
    })
}

/// The largest file read for an edit's diff: a preview shows only the
/// start of a long diff, and the hook should not hold a huge file.
const MAX_READ_BYTES: u64 = 1 << 20;

/// What an edit or a write does to one file.
enum Change {
    Edits(Vec<Replacement>),
    /// The file's whole new text.
    Content(String),
}

impl Change {
    /// The change as a unified diff of the file at `path`. The file is
    /// read, so the diff has its line numbers and context; when it cannot
    /// be read, or an edit's text is not in it, each replacement is shown
    /// on its own.
    fn diff(&self, path: &str) -> String {
        let size = std::fs::metadata(path).map(|m| m.len()).ok();
        let before = size
            .filter(|&size| size <= MAX_READ_BYTES)
            .and_then(|_| std::fs::read_to_string(path).ok());
        match self {
            // A file there but not read is shown as if empty, not as new.
            Change::Content(after) => {
                let old = size.map(|_| before.as_deref().unwrap_or_default());
                diff(path, old, after)
            }
            Change::Edits(edits) => match before.as_deref().and_then(|b| applied(b, edits)) {
                Some(after) => diff(path, before.as_deref(), &after),
                None => edits
                    .iter()
                    .map(|edit| diff(path, Some(&edit.old), &edit.new))
                    .collect(),
            },
        }
    }
}

/// `text` with every edit made in turn; `None` when one's text is not there.
fn applied(text: &str, edits: &[Replacement]) -> Option<String> {
    edits.iter().try_fold(text.to_owned(), |text, edit| {
        if edit.old.is_empty() || !text.contains(&edit.old) {
            return None;
        }
        Some(match edit.all {
            true => text.replace(&edit.old, &edit.new),
            false => text.replacen(&edit.old, &edit.new, 1),
        })
    })
}

/// The unified diff from `before` (`None`: no file yet) to `after`.
fn diff(path: &str, before: Option<&str>, after: &str) -> String {
    let old = if before.is_some() { path } else { "/dev/null" };
    similar::TextDiff::from_lines(before.unwrap_or_default(), after)
        .unified_diff()
        .header(old, path)
        .to_string()
}

/// A permission update entry as a phrase, for Always allow's description:
/// the shapes of Claude Code's "Permission update entries" and Codex's
/// `prefixRule`s, and anything else as its JSON.
fn suggestion(entry: &Value) -> String {
    let text = |key: &str| entry.get(key).and_then(Value::as_str).unwrap_or_default();
    let list = |key: &str| -> Vec<String> {
        entry
            .get(key)
            .and_then(Value::as_array)
            .map(|items| items.iter().map(item).collect())
            .unwrap_or_default()
    };
    let place = match text("destination") {
        "session" => "for this session".to_owned(),
        "localSettings" => "in this project's local settings".to_owned(),
        "projectSettings" => "in this project's settings".to_owned(),
        "userSettings" => "in your user settings".to_owned(),
        other => format!("in {other}"),
    };
    match text("type") {
        "addRules" => format!("{} {} {place}", text("behavior"), list("rules").join(", ")),
        "setMode" => format!("work in {} mode {place}", text("mode")),
        "addDirectories" => format!("also work in {} {place}", list("directories").join(", ")),
        _ => entry.to_string(),
    }
}

/// One rule or directory of a permission update entry.
fn item(value: &Value) -> String {
    let text = |key: &str| value.get(key).and_then(Value::as_str);
    if let Some(directory) = value.as_str() {
        return directory.to_owned();
    }
    if let Some(tool) = text("toolName") {
        return match text("ruleContent") {
            Some(content) => format!("{tool}({content})"),
            None => tool.to_owned(),
        };
    }
    match value.get("command").and_then(Value::as_array) {
        Some(words) => {
            let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
            format!("commands starting with `{}`", words.join(" "))
        }
        None => value.to_string(),
    }
}

/// The first line of `text`, with `…` when there is more.
fn first_line(text: &str) -> String {
    let mut lines = text.trim().lines();
    let first = lines.next().unwrap_or_default().to_owned();
    match lines.next() {
        Some(_) => first + " …",
        None => first,
    }
}

/// `text` as the desk takes it and a person should read it: a tool's
/// input is anything (a file with CRLF line ends, a command with an escape
/// or a right-to-left override in it), and askdesk refuses control
/// characters, so line ends become newlines and every other C0 control
/// character but tab its visible picture (U+2400 and on: `␛`). What has
/// no picture (DEL, C1) and the bidirectional controls are written as
/// their code points (`⟨U+202E⟩`, [`interaction::with_visible_controls`]):
/// the prompt's title, question and preview then read in the order the
/// command runs, on every surface that shows them.
fn printable(text: &str) -> String {
    let pictured: String = text
        .replace("\r\n", "\n")
        .chars()
        .map(|c| match u32::from(c) {
            code @ 0..=0x1f if c != '\t' && c != '\n' => {
                char::from_u32(0x2400 + code).unwrap_or('\u{fffd}')
            }
            _ => c,
        })
        .collect();
    interaction::with_visible_controls(&pictured).into_owned()
}

/// `text` cut to at most `max` characters, ending in `…` when cut; as the
/// desk takes it ([`printable`]).
fn fit(text: &str, max: usize) -> String {
    let text = &printable(text);
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `text` cut at a line's end to at most `max` characters, saying so.
fn fit_lines(text: &str, max: usize) -> String {
    const CUT: &str = "\n… (cut here: the rest does not fit in a preview)";
    let text = &printable(text);
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max - CUT.chars().count()).collect();
    let end = kept.rfind('\n').unwrap_or(kept.len());
    format!("{}{CUT}", &kept[..end])
}

#[cfg(test)]
mod tests;

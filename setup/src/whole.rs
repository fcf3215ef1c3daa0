//! A file askdesk writes whole and owns (`Format::Whole`): a plugin. It
//! is askdesk's when its first line is the template's; anything else at
//! its path is someone else's and is never overwritten or removed.

use crate::{
    found::{self, Found},
    Action, Change, EditError, Plugin, Program, Verb,
};
use jsonc_parser::cst::{CstInputValue, CstRootNode};

/// The plugin's text for `program`.
fn text(plugin: &Plugin, program: &Program) -> String {
    plugin
        .template
        .replacen(Plugin::PROGRAM, &json_string(program.as_str()), 1)
}

/// `text` with askdesk's plugin written or removed; an empty `text` is
/// no file (or an empty one, which holds nothing to keep).
pub(crate) fn edit(
    plugin: &Plugin,
    text: &str,
    program: &Program,
    action: Action,
) -> Result<(Option<String>, Vec<Change>), EditError> {
    let wanted = self::text(plugin, program);
    if text.is_empty() {
        return Ok(match action {
            Action::Add => (Some(wanted), vec![Change::Plugin(Verb::Added)]),
            Action::Remove => (None, Vec::new()),
        });
    }
    is_ours(plugin, text)?;
    Ok(match action {
        Action::Add if text == wanted => (Some(wanted), Vec::new()),
        Action::Add => (Some(wanted), vec![Change::Plugin(Verb::Updated)]),
        Action::Remove => (None, vec![Change::Plugin(Verb::Removed)]),
    })
}

/// The plugin in `text` and the program it runs, when the file is there
/// (`text` not empty).
pub(crate) fn found(plugin: &Plugin, text: &str) -> Result<Vec<Found>, EditError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    is_ours(plugin, text)?;
    let (line, program) = program_in(plugin, text).unzip();
    Ok(vec![found::plugin(program, line)])
}

/// Nothing when `text` is askdesk's plugin (its first line is the
/// template's); else the error that says it is someone else's file.
fn is_ours(plugin: &Plugin, text: &str) -> Result<(), EditError> {
    let first = |t: &str| t.lines().next().unwrap_or_default().to_owned();
    if first(text) == first(plugin.template) {
        Ok(())
    } else {
        Err(EditError::NotOurs)
    }
}

/// The line the program is on (from 1), and the program, read back from
/// the line where the template puts it.
fn program_in(plugin: &Plugin, text: &str) -> Option<(usize, String)> {
    let (at, line) = plugin
        .template
        .lines()
        .enumerate()
        .find(|(_, line)| line.contains(Plugin::PROGRAM))?;
    let (before, after) = line.split_once(Plugin::PROGRAM)?;
    let literal = text
        .lines()
        .nth(at)?
        .strip_prefix(before)?
        .strip_suffix(after)?;
    match jsonc_parser::parse_to_value(literal, &Default::default()).ok()?? {
        jsonc_parser::JsonValue::String(program) => Some((at + 1, program.into())),
        _ => None,
    }
}

/// `text` as a JSON string literal, escaped as the JSON settings files'
/// strings are (JavaScript reads it as the same string).
fn json_string(text: &str) -> String {
    let root = CstRootNode::parse("", &Default::default()).unwrap_or_else(|_| unreachable!());
    root.set_value(CstInputValue::String(text.to_owned()));
    root.to_string().trim_end().to_owned()
}

//! A file askdesk writes whole and owns ([`Format::Whole`]): a plugin. It
//! is askdesk's when its first line is the template's; anything else at
//! its path is someone else's and is never overwritten or removed.

use crate::{
    found::{self, Found},
    Action, Change, EditError, Format, Plugin, Program, SettingsFile, Verb,
};

/// The plugin's text for `program`.
pub(crate) fn text(plugin: &Plugin, program: &Program) -> String {
    plugin
        .template
        .replacen(Plugin::PROGRAM, &json_string(program.as_str()), 1)
}

/// `text` with askdesk's plugin written or removed; an empty `text` is
/// no file (or an empty one, which holds nothing to keep).
pub(crate) fn edit(
    file: &SettingsFile,
    text: &str,
    program: &Program,
    action: Action,
) -> Result<(Option<String>, Vec<Change>), EditError> {
    let plugin = plugin(file);
    let wanted = self::text(&plugin, program);
    if text.is_empty() {
        return Ok(match action {
            Action::Add => (Some(wanted), vec![Change::Plugin(Verb::Added)]),
            Action::Remove => (None, Vec::new()),
        });
    }
    is_ours(&plugin, text)?;
    Ok(match action {
        Action::Add if text == wanted => (Some(wanted), Vec::new()),
        Action::Add => (Some(wanted), vec![Change::Plugin(Verb::Updated)]),
        Action::Remove => (None, vec![Change::Plugin(Verb::Removed)]),
    })
}

/// The plugin in `text` and the program it runs, when the file is there
/// (`text` not empty).
pub(crate) fn found(file: &SettingsFile, text: &str) -> Result<Vec<Found>, EditError> {
    let plugin = plugin(file);
    if text.is_empty() {
        return Ok(Vec::new());
    }
    is_ours(&plugin, text)?;
    let (line, program) = program_in(&plugin, text).unzip();
    Ok(vec![found::plugin(program, line)])
}

/// The file's plugin; every file of [`Format::Whole`] names one.
fn plugin(file: &SettingsFile) -> Plugin {
    debug_assert_eq!(file.format, Format::Whole);
    file.plugin.unwrap_or(Plugin {
        template: "",
        args: &[],
    })
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
/// where the template puts it.
fn program_in(plugin: &Plugin, text: &str) -> Option<(usize, String)> {
    let (at, line) = plugin
        .template
        .lines()
        .enumerate()
        .find(|(_, line)| line.contains(Plugin::PROGRAM))?;
    let (before, after) = line.split_once(Plugin::PROGRAM)?;
    text.lines().enumerate().find_map(|(n, written)| {
        let literal = written.strip_prefix(before)?.strip_suffix(after)?;
        let value = jsonc_parser::parse_to_value(literal, &Default::default()).ok()??;
        match value {
            jsonc_parser::JsonValue::String(program) if n == at => Some((n + 1, program.into())),
            _ => None,
        }
    })
}

/// `text` as a JSON string, which JavaScript reads as the same string.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Below space, and the two line separators JavaScript once
            // took as line ends.
            c if u32::from(c) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

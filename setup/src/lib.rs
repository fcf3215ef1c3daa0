//! askdesk's entries in agents' own settings files, as text in and text
//! out: which files each product reads ([`Product::files`]), askdesk's MCP
//! server and hooks merged into what a file holds or taken out of it
//! ([`edit`]), and the unified diff between the two ([`diff`]).
//!
//! An edit changes only askdesk's entries: other entries, comments and key
//! order stay byte for byte, and an edit that finds everything in place
//! returns the text it was given. No I/O: the caller reads and writes the
//! files.

mod command;
mod found;
mod inspect;
mod json;
mod products;
mod toml;
mod whole;

pub use command::{NotWritten, WrittenHook};
pub use found::{Entry, Found};
pub use inspect::inspect;
pub use products::{
    Field, FieldValue, Format, Hook, McpServer, Options, Plugin, Product, Root, Scope,
    SettingsFile, SERVER_NAME, STOP_SECONDS,
};

use std::{fmt, path::Path};

/// The askdesk binary's absolute path, which the entries run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program(String);

/// A path that cannot be askdesk's [`Program`].
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0:?} is not an absolute path")]
pub struct NotAbsolute(String);

impl Program {
    /// The binary at `path`, which must be absolute: the product runs it
    /// from wherever its own working directory is.
    pub fn new(path: &str) -> Result<Program, NotAbsolute> {
        if Path::new(path).is_absolute() {
            Ok(Program(path.to_owned()))
        } else {
            Err(NotAbsolute(path.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether askdesk's entries go in or come out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Add askdesk's entries, or bring them up to date.
    Add,
    /// Take askdesk's entries out, and whatever held only them.
    Remove,
}

/// What an edit did to one entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Added,
    Updated,
    Removed,
}

/// One change an edit made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// askdesk's MCP server entry.
    Server(Verb),
    /// One of askdesk's hooks.
    Hook(Verb, Hook),
    /// askdesk's plugin, a file of its own.
    Plugin(Verb),
}

impl Change {
    /// The entry it changed.
    pub fn entry(&self) -> Entry {
        match self {
            Change::Server(_) => Entry::Server,
            Change::Hook(_, hook) => Entry::Hook(*hook),
            Change::Plugin(_) => Entry::Plugin,
        }
    }

    /// What it did.
    pub fn verb(&self) -> Verb {
        match self {
            Change::Server(verb) | Change::Hook(verb, _) | Change::Plugin(verb) => *verb,
        }
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = match self.verb() {
            Verb::Added => "added",
            Verb::Updated => "updated",
            Verb::Removed => "removed",
        };
        write!(f, "{verb} {}", self.entry())
    }
}

/// A file's text after an edit, and what changed. No changes means the
/// text is the one the edit was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// The new text; `None` when there should be no file: it was missing
    /// and stays so, or removing askdesk left nothing in it.
    pub text: Option<String>,
    pub changes: Vec<Change>,
}

/// Why a settings file could not be edited. The file should be left as it
/// is; lines and columns count from 1.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EditError {
    /// It is not valid in its format.
    #[error("line {line}, column {column}: {reason}")]
    Syntax {
        line: usize,
        column: usize,
        reason: String,
    },
    /// A key askdesk's entries go under holds a value of another kind.
    #[error("line {line}, column {column}: `{key}` should be {expected}")]
    Shape {
        line: usize,
        column: usize,
        key: String,
        expected: &'static str,
    },
    /// A file askdesk writes whole is there, and askdesk did not write it.
    #[error("askdesk setup did not write it, and would replace all of it: move it away first")]
    NotOurs,
}

/// `current`, the text of `file` (`None` when it does not exist), with
/// askdesk's entries added or removed as `action` says.
pub fn edit(
    file: &SettingsFile,
    current: Option<&str>,
    program: &Program,
    action: Action,
) -> Result<Edit, EditError> {
    if current.is_none() && action == Action::Remove {
        return Ok(Edit {
            text: None,
            changes: Vec::new(),
        });
    }
    let text = current.unwrap_or_default();
    let (after, changes) = match file.format {
        Format::Json | Format::Jsonc => json::edit(file, text, program, action)?,
        Format::Toml => toml::edit(file, text, program, action)?,
        Format::Whole(plugin) => whole::edit(&plugin, text, program, action)?,
    };
    if changes.is_empty() {
        return Ok(Edit {
            text: current.map(str::to_owned),
            changes,
        });
    }
    Ok(Edit {
        text: after,
        changes,
    })
}

/// The unified diff from `before` to `after`, the file at `path`; `None`
/// is a missing file. Empty when they are the same.
pub fn diff(path: &str, before: Option<&str>, after: Option<&str>) -> String {
    if before == after {
        return String::new();
    }
    let label = |text: Option<&str>| match text {
        Some(_) => path.to_owned(),
        None => "/dev/null".to_owned(),
    };
    similar::TextDiff::from_lines(before.unwrap_or_default(), after.unwrap_or_default())
        .unified_diff()
        .header(&label(before), &label(after))
        .to_string()
}

/// The 1-based line and column of byte `offset` in `text`.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .unwrap_or_default()
        .chars()
        .count()
        + 1;
    (line, column)
}

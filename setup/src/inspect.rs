//! What of askdesk a settings file holds, as `askdesk doctor` reads it:
//! its MCP server entry and its hooks, each with the program it runs.

use crate::{command::first_word, json, toml, EditError, Format, Hook, Program, SettingsFile};
use std::fmt;

/// One of askdesk's entries in a settings file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// Its MCP server, `askdesk mcp`.
    Server,
    /// One of its hooks.
    Hook(Hook),
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Server => write!(f, "the MCP server `{}`", crate::SERVER_NAME),
            Entry::Hook(hook) => {
                write!(f, "the {} hook", hook.event)?;
                if let Some(matcher) = hook.matcher {
                    write!(f, " for {matcher}")?;
                }
                write!(f, " (`askdesk {}`)", hook.args.join(" "))
            }
        }
    }
}

/// An entry as the file holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub entry: Entry,
    /// The program it runs: a hook's command line's first word, unquoted
    /// as the shell reads it, or the server's `command`. `None` when the
    /// entry names none.
    pub program: Option<String>,
    /// A hook's whole command line, as the product hands it to a shell;
    /// `None` for the server, which the product runs without one.
    pub command_line: Option<String>,
}

/// askdesk's entries in `text`, the text of `file`: its server entry
/// under any command, and each hook whose command runs a binary named
/// askdesk (or `program`) with the hook's arguments. Fails as
/// [`edit`](crate::edit) does on a file askdesk could not edit.
pub fn inspect(
    file: &SettingsFile,
    text: &str,
    program: &Program,
) -> Result<Vec<Found>, EditError> {
    match file.format {
        Format::Json | Format::Jsonc => json::found(file, text, program),
        Format::Toml => toml::found(file, text),
    }
}

/// A hook's entry as its command line `line` names it.
pub(crate) fn hook(hook: &Hook, line: String) -> Found {
    Found {
        entry: Entry::Hook(*hook),
        program: first_word(line.trim_start()).map(|(word, _)| word),
        command_line: Some(line),
    }
}

/// The server's entry, running `command`.
pub(crate) fn server(command: Option<String>) -> Found {
    Found {
        entry: Entry::Server,
        program: command,
        command_line: None,
    }
}

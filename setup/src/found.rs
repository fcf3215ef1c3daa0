//! One of askdesk's entries as a settings file holds it, and the program
//! it runs: what each file format's reader finds for `inspect`.

use crate::{command::first_word, Hook};
use std::fmt;

/// One of askdesk's entries in a settings file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// Its MCP server, `askdesk mcp`.
    Server,
    /// One of its hooks.
    Hook(Hook),
    /// Its plugin, a file of its own that starts a bridge.
    Plugin,
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
            Entry::Plugin => write!(f, "askdesk's plugin"),
        }
    }
}

/// An entry as the file holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub entry: Entry,
    /// The program it runs: a hook's command line's first word, unquoted
    /// as far as quotes go, or the server's `command`. `None` when the
    /// entry names none. A hook's line with other shell syntax runs
    /// something else: only [`WrittenHook::check`](crate::WrittenHook)
    /// says what a line runs.
    pub program: Option<String>,
    /// A hook's whole command line, as the product hands it to a shell;
    /// `None` for the server, which the product runs without one.
    pub command_line: Option<String>,
    /// The line of the file its command is on, counted from 1, when known.
    pub line: Option<usize>,
}

/// A hook's entry as its command line `command` names it, on line `at`.
pub(crate) fn hook(hook: &Hook, command: String, at: Option<usize>) -> Found {
    Found {
        entry: Entry::Hook(*hook),
        program: first_word(command.trim_start()).map(|(word, _)| word),
        command_line: Some(command),
        line: at,
    }
}

/// The server's entry, running `command`, on line `at`.
pub(crate) fn server(command: Option<String>, at: Option<usize>) -> Found {
    Found {
        entry: Entry::Server,
        program: command,
        command_line: None,
        line: at,
    }
}

/// The plugin's entry, running `program`, on line `at`.
pub(crate) fn plugin(program: Option<String>, at: Option<usize>) -> Found {
    Found {
        entry: Entry::Plugin,
        program,
        command_line: None,
        line: at,
    }
}

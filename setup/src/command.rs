//! A hook's command line: written for a POSIX shell, which is what runs
//! it, and recognised again when askdesk moved or someone wrote it by hand.
//! Only a line that is word for word what setup writes is one askdesk runs
//! itself ([`WrittenHook`]).

use crate::{Hook, Program};
use std::path::Path;

/// The command line that runs `hook`: the program, quoted when the shell
/// would split or expand it, then askdesk's arguments.
pub(crate) fn hook_command(program: &Program, hook: &Hook) -> String {
    let mut line = quote(program.as_str());
    for arg in hook.args {
        line.push(' ');
        line.push_str(arg);
    }
    line
}

/// Whether `command` runs askdesk with `hook`'s arguments: the binary at
/// `program`, or any binary named `askdesk` (a setup from another path, or
/// the README's snippet copied by hand). Such a command is askdesk's to
/// update or remove.
pub(crate) fn is_askdesk_hook(command: &str, program: &Program, hook: &Hook) -> bool {
    let Some((first, rest)) = first_word(command.trim_start()) else {
        return false;
    };
    let args: Vec<&str> = rest.split_whitespace().collect();
    if args != hook.args {
        return false;
    }
    first == program.as_str()
        || Path::new(&first)
            .file_name()
            .is_some_and(|name| name == "askdesk" || name == "askdesk.exe")
}

/// A hook's command line that is, word for word, what `askdesk setup`
/// writes for this binary, with no other shell syntax: the only command
/// line `askdesk doctor` runs, and then as these words, without a shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenHook {
    program: String,
    args: Vec<String>,
}

/// Why a hook's command line is not what `askdesk setup` writes.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NotWritten {
    #[error("it is empty")]
    Empty,
    /// Variables, command substitution, globs, redirections, a second
    /// command or a comment: what a shell would act on rather than pass on.
    #[error("it holds shell syntax askdesk setup never writes")]
    ShellSyntax,
    #[error("it runs {runs}, not this askdesk ({this})")]
    OtherProgram { runs: String, this: String },
    #[error("its arguments are not the ones askdesk setup writes")]
    OtherArguments,
}

impl WrittenHook {
    /// `line` when it is what [`hook_command`] writes for `program` and
    /// `hook`, compared as the words a shell would make of each; quoting
    /// and spacing may differ, nothing else may.
    pub fn check(line: &str, program: &Program, hook: &Hook) -> Result<WrittenHook, NotWritten> {
        let found = words(line).ok_or(NotWritten::ShellSyntax)?;
        // setup's own line always reads back (a test holds it); were it
        // not to, nothing would equal it and nothing would run.
        let wanted = words(&hook_command(program, hook)).unwrap_or_default();
        let Some((first, args)) = found.split_first() else {
            return Err(NotWritten::Empty);
        };
        if found == wanted {
            Ok(WrittenHook {
                program: first.clone(),
                args: args.to_vec(),
            })
        } else if wanted.first() != Some(first) {
            Err(NotWritten::OtherProgram {
                runs: first.clone(),
                this: program.as_str().to_owned(),
            })
        } else {
            Err(NotWritten::OtherArguments)
        }
    }

    /// The program to run: this askdesk's absolute path.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// Its arguments, such as `hook claude-code`.
    pub fn args(&self) -> &[String] {
        &self.args
    }
}

/// Whether a POSIX shell takes `c` as itself outside quotes, in any place
/// in a word.
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || "/._+,:@%=-".contains(c)
}

/// `text` as one shell word.
fn quote(text: &str) -> String {
    if !text.is_empty() && text.chars().all(plain) {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The words a POSIX shell makes of `line`, when the line holds nothing
/// but words of plain characters, quotes and backslashes (all that
/// [`quote`] writes), separated by spaces or tabs; `None` when it holds
/// anything else a shell would act on. Stricter than the shell: what is
/// refused may be harmless, but what is taken means the same to both.
fn words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    // `Some` once a word has started, which `''` does too.
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                let word = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        // Inside double quotes a backslash escapes only
                        // these; before anything else it would stay.
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => word.push(c),
                            _ => return None,
                        },
                        '$' | '`' => return None,
                        c => word.push(c),
                    }
                }
            }
            '\\' => match chars.next()? {
                // A backslash before a newline joins two lines.
                '\n' => return None,
                c => word.get_or_insert_with(String::new).push(c),
            },
            c if plain(c) => word.get_or_insert_with(String::new).push(c),
            _ => return None,
        }
    }
    words.extend(word);
    Some(words)
}

/// The first shell word of `line`, unquoted, and the text after it. Quotes
/// and backslashes are read as a POSIX shell reads them; anything more
/// (variables, globs) makes it a word that is not askdesk's path.
pub(crate) fn first_word(line: &str) -> Option<(String, &str)> {
    let mut word = String::new();
    let mut chars = line.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => return Some((word, &line[at..])),
            '\'' => loop {
                match chars.next()?.1 {
                    '\'' => break,
                    c => word.push(c),
                }
            },
            '"' => loop {
                match chars.next()?.1 {
                    '"' => break,
                    '\\' => word.push(chars.next()?.1),
                    c => word.push(c),
                }
            },
            '\\' => word.push(chars.next()?.1),
            c => word.push(c),
        }
    }
    Some((word, ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOOK: Hook = Hook {
        event: "PreToolUse",
        matcher: Some("AskUserQuestion"),
        args: &["hook", "claude-code"],
        timeout: 1,
    };

    fn program(path: &str) -> Program {
        Program::new(path).expect("an absolute path")
    }

    #[test]
    fn a_plain_path_is_written_as_it_is() {
        let line = hook_command(&program("/usr/local/bin/askdesk"), &HOOK);
        assert_eq!(line, "/usr/local/bin/askdesk hook claude-code");
    }

    #[test]
    fn a_path_with_spaces_and_quotes_is_quoted_and_read_back() {
        let at = program("/Users/Ann O'Neil/bin/askdesk");
        let line = hook_command(&at, &HOOK);
        assert_eq!(line, r"'/Users/Ann O'\''Neil/bin/askdesk' hook claude-code");
        assert!(is_askdesk_hook(&line, &at, &HOOK));
    }

    #[test]
    fn askdesk_elsewhere_is_recognised_and_other_commands_are_not() {
        let here = program("/opt/askdesk/askdesk");
        assert!(is_askdesk_hook(
            "/path/to/askdesk hook claude-code",
            &here,
            &HOOK
        ));
        assert!(is_askdesk_hook(
            r#""/a b/askdesk"  hook  claude-code"#,
            &here,
            &HOOK
        ));
        assert!(!is_askdesk_hook(
            "/path/to/askdesk hook codex",
            &here,
            &HOOK
        ));
        assert!(!is_askdesk_hook(
            "/path/to/other hook claude-code",
            &here,
            &HOOK
        ));
        assert!(!is_askdesk_hook(
            "'/unterminated/askdesk hook claude-code",
            &here,
            &HOOK
        ));
        assert!(!is_askdesk_hook("", &here, &HOOK));
    }

    #[test]
    fn what_setup_writes_is_a_written_hook_of_its_words() {
        for path in ["/usr/local/bin/askdesk", "/Users/Ann O'Neil/bin/askdesk"] {
            let at = program(path);
            let line = hook_command(&at, &HOOK);
            let written = WrittenHook::check(&line, &at, &HOOK).expect("setup's own line");
            assert_eq!(written.program(), path);
            assert_eq!(written.args(), ["hook", "claude-code"]);
        }
    }

    #[test]
    fn other_quoting_and_spacing_of_the_same_words_is_still_written() {
        let at = program("/opt/askdesk/askdesk");
        for line in [
            r#"  "/opt/askdesk/askdesk"   hook	claude-code  "#,
            r"'/opt/askdesk/askdesk' 'hook' claude\-code",
            r#"/opt/'ask'"desk"/askdesk hook claude-code"#,
        ] {
            assert!(WrittenHook::check(line, &at, &HOOK).is_ok(), "{line}");
        }
    }

    #[test]
    fn a_line_with_any_other_shell_syntax_is_refused_before_its_words_are_compared() {
        let at = program("/opt/askdesk/askdesk");
        for line in [
            r#""./d$(id>PWNED)/askdesk" hook claude-code"#,
            "./d$(id>PWNED)/askdesk hook claude-code",
            "/opt/askdesk/askdesk hook claude-code; id",
            "/opt/askdesk/askdesk hook claude-code && id",
            "/opt/askdesk/askdesk hook claude-code | sh",
            "/opt/askdesk/askdesk hook claude-code >PWNED",
            "/opt/askdesk/askdesk hook claude-code\nid",
            "/opt/askdesk/askdesk hook claude-code # a comment",
            "`id`/askdesk hook claude-code",
            r#""`id`/askdesk" hook claude-code"#,
            "$HOME/askdesk hook claude-code",
            "~/askdesk hook claude-code",
            "/opt/askdesk/ask* hook claude-code",
            r#""/opt/askdesk/askdesk\n" hook claude-code"#,
            "/opt/askdesk/askdesk hook claude-code\\\n",
            "'/opt/askdesk/askdesk hook claude-code",
        ] {
            assert_eq!(
                WrittenHook::check(line, &at, &HOOK),
                Err(NotWritten::ShellSyntax),
                "{line}"
            );
        }
    }

    #[test]
    fn another_program_or_other_arguments_are_not_written() {
        let at = program("/opt/askdesk/askdesk");
        assert_eq!(
            WrittenHook::check("/elsewhere/askdesk hook claude-code", &at, &HOOK),
            Err(NotWritten::OtherProgram {
                runs: "/elsewhere/askdesk".to_owned(),
                this: "/opt/askdesk/askdesk".to_owned(),
            })
        );
        for line in [
            "/opt/askdesk/askdesk hook codex",
            "/opt/askdesk/askdesk hook claude-code --more",
            "/opt/askdesk/askdesk 'hook claude-code'",
        ] {
            assert_eq!(
                WrittenHook::check(line, &at, &HOOK),
                Err(NotWritten::OtherArguments),
                "{line}"
            );
        }
        assert_eq!(WrittenHook::check("  ", &at, &HOOK), Err(NotWritten::Empty));
    }

    #[test]
    fn every_quoted_text_reads_back_as_one_word_of_itself() {
        for text in [
            "plain",
            "",
            "a b",
            "it's",
            r#"say "hi""#,
            "$(id)",
            "`id`",
            "back\\slash",
            "new\nline",
            "tab\there",
            "ünïcödé",
            "'",
            "''",
        ] {
            assert_eq!(words(&quote(text)), Some(vec![text.to_owned()]), "{text:?}");
        }
    }
}

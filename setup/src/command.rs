//! A hook's command line: written for a POSIX shell, which is what runs
//! it, and recognised again when askdesk moved or someone wrote it by hand.

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

/// `text` as one shell word.
fn quote(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._+,:@%=-".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
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
}

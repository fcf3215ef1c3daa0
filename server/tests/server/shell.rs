//! `askdesk completions` and `askdesk man`: generated from the one clap
//! definition, and accepted by the shells and `man` themselves.

use std::process::Command;

fn askdesk(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_askdesk"))
        .args(args)
        .output()
        .expect("askdesk runs");
    assert!(
        output.status.success(),
        "askdesk {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// Runs `script` in `shell` with the completions of askdesk in `file`;
/// returns what it printed.
fn in_shell(shell: &str, args: &[&str]) -> String {
    let output = Command::new(shell)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{shell} runs (scripts/dev.sh installs it): {e}"));
    assert!(
        output.status.success(),
        "{shell} {args:?}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

fn written(shell: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join(format!("askdesk.{shell}"));
    std::fs::write(&file, askdesk(&["completions", shell])).expect("write");
    let path = file.display().to_string();
    (dir, path)
}

#[test]
fn bash_loads_the_completions_and_completes_subcommands_and_flags() {
    let (_dir, file) = written("bash");
    let script = format!(
        "source {file}; complete -p askdesk; \
         COMP_WORDS=(askdesk se); COMP_CWORD=1; COMP_LINE='askdesk se'; COMP_POINT=10; \
         _askdesk askdesk se askdesk; printf '%s\\n' \"${{COMPREPLY[@]}}\"; \
         COMP_WORDS=(askdesk backup --data); COMP_CWORD=2; \
         _askdesk askdesk --data backup; printf '%s\\n' \"${{COMPREPLY[@]}}\""
    );
    let said = in_shell("bash", &["-c", &script]);
    assert!(said.contains("-F _askdesk askdesk"), "{said}");
    assert!(said.lines().any(|l| l == "serve"), "{said}");
    assert!(said.lines().any(|l| l == "--database"), "{said}");
}

#[test]
fn zsh_loads_the_completions() {
    let (_dir, file) = written("zsh");
    in_shell("zsh", &["-n", &file]);
    let said = in_shell(
        "zsh",
        &[
            "-c",
            &format!("autoload -U compinit && compinit -u && source {file} && print -r -- ${{+functions[_askdesk]}}"),
        ],
    );
    assert_eq!(said.trim(), "1");
}

#[test]
fn fish_completes_subcommands_and_flags() {
    let (_dir, file) = written("fish");
    in_shell("fish", &["--no-execute", &file]);
    let said = in_shell(
        "fish",
        &[
            "--no-config",
            "-c",
            &format!("source {file}; complete -C'askdesk ba'; complete -C'askdesk serve --tok'"),
        ],
    );
    assert!(said.lines().any(|l| l.starts_with("backup")), "{said}");
    assert!(said.lines().any(|l| l.starts_with("--token")), "{said}");
}

#[test]
fn the_manual_page_is_roff_that_names_every_command() {
    let page = askdesk(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH askdesk"),
        "{}",
        &page[..200.min(page.len())]
    );
    for command in [
        "serve",
        "people",
        "mcp",
        "tui",
        "hook",
        "answer",
        "stop",
        "backup",
        "completions",
    ] {
        assert!(page.contains(command), "the manual names {command}");
    }
}

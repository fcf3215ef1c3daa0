//! What each kind of tool shows, and how permission updates read.

use super::{action, fit, fit_lines, suggestion};
use serde_json::json;

#[test]
fn a_fetch_shows_its_url_and_any_other_tool_its_input_as_json() {
    let fetch = action(
        "WebFetch",
        &json!({"url": "https://example.com/a", "prompt": "Summarise"}),
    );
    assert_eq!(fetch.title, "WebFetch: https://example.com/a");
    assert_eq!(fetch.wants, "fetch https://example.com/a");
    assert_eq!(fetch.detail, "https://example.com/a");
    let other = action("mcp__db__query", &json!({"sql": "DELETE FROM t"}));
    assert_eq!(other.title, "mcp__db__query");
    assert_eq!(other.wants, "use mcp__db__query");
    assert_eq!(other.detail, "{\n  \"sql\": \"DELETE FROM t\"\n}");
    let patch = action("apply_patch", &json!("*** Begin Patch\n*** End Patch"));
    assert_eq!(patch.detail, "*** Begin Patch\n*** End Patch");
}

#[test]
fn a_multi_edit_of_a_file_that_is_not_there_shows_each_replacement() {
    let shown = action(
        "MultiEdit",
        &json!({"file_path": "/nowhere/a.txt", "edits": [
            {"old_string": "one", "new_string": "two"},
            {"old_string": "red", "new_string": "blue", "replace_all": true}
        ]}),
    );
    assert_eq!(shown.wants, "edit /nowhere/a.txt");
    assert_eq!(
        shown.detail,
        "--- /nowhere/a.txt\n+++ /nowhere/a.txt\n@@ -1 +1 @@\n-one\n\\ No newline at end of file\n\
         +two\n\\ No newline at end of file\n--- /nowhere/a.txt\n+++ /nowhere/a.txt\n@@ -1 +1 @@\n\
         -red\n\\ No newline at end of file\n+blue\n\\ No newline at end of file\n"
    );
}

#[test]
fn a_multi_line_command_is_titled_by_its_first_line() {
    let shown = action("Bash", &json!({"command": "cd build\nmake install"}));
    assert_eq!(shown.title, "Bash: cd build …");
    assert_eq!(shown.detail, "cd build\nmake install");
}

#[test]
fn permission_updates_read_as_phrases() {
    let read = |entry| suggestion(&entry);
    assert_eq!(
        read(
            json!({"type": "addRules", "rules": [{"toolName": "WebFetch"}],
            "behavior": "allow", "destination": "session"})
        ),
        "allow WebFetch for this session"
    );
    assert_eq!(
        read(json!({"type": "setMode", "mode": "acceptEdits", "destination": "session"})),
        "work in acceptEdits mode for this session"
    );
    assert_eq!(
        read(
            json!({"type": "addDirectories", "directories": ["/srv/data"],
            "destination": "projectSettings"})
        ),
        "also work in /srv/data in this project's settings"
    );
    assert_eq!(
        read(json!({"type": "somethingNew", "x": 1})),
        r#"{"type":"somethingNew","x":1}"#
    );
}

#[test]
fn a_long_preview_is_cut_at_a_line_and_says_so() {
    let long = "line\n".repeat(40);
    let cut = fit_lines(&long, 80);
    assert!(cut.chars().count() <= 80, "{cut}");
    assert!(cut.starts_with("line\nline\n"), "{cut}");
    assert!(
        cut.ends_with("\n… (cut here: the rest does not fit in a preview)"),
        "{cut}"
    );
}

/// A tool's input may hold anything; the ask holds only what the desk
/// takes: CRLF as newlines, other C0 control characters as their
/// pictures, DEL and C1 as their code points.
#[test]
fn control_characters_in_a_tools_input_are_shown_not_sent() {
    assert_eq!(fit_lines("a\r\nb\r\n", 100), "a\nb\n");
    assert_eq!(
        fit("printf '\u{1b}[1m\tbold'\0", 100),
        "printf '\u{241b}[1m\tbold'\u{2400}"
    );
    assert_eq!(
        fit("printf '\u{9b}31m\u{7f}'", 100),
        "printf '⟨U+009B⟩31m⟨U+007F⟩'"
    );
}

/// An override makes a command read otherwise than it runs (here
/// `rm -rf` would read `fr- mr`): the prompt's title and preview show each
/// bidirectional control as its code point, so they read as it runs.
#[test]
fn bidi_controls_in_a_command_are_shown_in_the_title_and_the_preview() {
    let shown = action(
        "Bash",
        &json!({"command": "echo safe \u{202e}fr- mr\u{202c}"}),
    );
    assert_eq!(
        fit(&shown.title, 200),
        "Bash: echo safe ⟨U+202E⟩fr- mr⟨U+202C⟩"
    );
    assert_eq!(
        fit_lines(&shown.detail, 1_000),
        "echo safe ⟨U+202E⟩fr- mr⟨U+202C⟩"
    );
}

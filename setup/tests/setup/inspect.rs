//! What `askdesk doctor` reads back: askdesk's entries, each with the
//! program it runs, wherever that program now is.

use super::{add, file, program, PROGRAM};
use setup::{inspect, EditError, Entry, Found, Options, Product, Scope};

fn programs(found: &[Found]) -> Vec<(String, Option<&str>)> {
    found
        .iter()
        .map(|f| (f.entry.to_string(), f.program.as_deref()))
        .collect()
}

#[test]
fn setups_entries_are_read_back_with_the_program_they_run() {
    let settings = Product::ClaudeCode
        .files_with(Scope::User, Options { ask_on_stop: true })
        .remove(1);
    let text = add(&settings, None).text.expect("a file");
    let found = inspect(&settings, &text, &program()).expect("read");
    let events: Vec<_> = found
        .iter()
        .map(|f| match f.entry {
            Entry::Hook(hook) => hook.event,
            Entry::Server => "server",
            Entry::Plugin => "plugin",
        })
        .collect();
    assert_eq!(
        events,
        ["PreToolUse", "PermissionRequest", "Elicitation", "Stop"]
    );
    assert!(found.iter().all(|f| f.program.as_deref() == Some(PROGRAM)));
    // The command line is the shell's, quoting and all.
    assert_eq!(
        found[0].command_line.as_deref(),
        Some("'/opt/ask desk/askdesk' hook claude-code")
    );
}

#[test]
fn a_moved_askdesk_is_found_and_other_commands_are_not() {
    let settings = file(Product::ClaudeCode, Scope::User, 1);
    // Another tool's hook stays out of it.
    let text = r#"{
      "hooks": {
        "PreToolUse": [
          {"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/bin/lint"}]},
          {"matcher": "AskUserQuestion", "hooks": [{"type": "command", "command": "/old/bin/askdesk hook claude-code"}]}
        ]
      }
    }"#;
    let found = inspect(&settings, text, &program()).expect("read");
    assert_eq!(
        programs(&found),
        [(
            "the PreToolUse hook for AskUserQuestion (`askdesk hook claude-code`)".to_owned(),
            Some("/old/bin/askdesk")
        )]
    );
    // The line its command is on, for a report to point at.
    assert_eq!(found[0].line, Some(5));
}

#[test]
fn the_server_entry_is_read_in_json_and_toml() {
    let global = file(Product::ClaudeCode, Scope::User, 0);
    let text = r#"{"mcpServers": {"askdesk": {"type": "stdio", "command": "/gone/askdesk", "args": ["mcp"]}}}"#;
    let found = inspect(&global, text, &program()).expect("read");
    assert_eq!(
        programs(&found),
        [("the MCP server `askdesk`".to_owned(), Some("/gone/askdesk"))]
    );
    assert_eq!(found[0].command_line, None);
    assert_eq!(found[0].line, Some(1));
    let config = file(Product::Codex, Scope::User, 0);
    let text = "[mcp_servers.askdesk]\ncommand = \"/gone/askdesk\"\nargs = [\"mcp\"]\n";
    let found = inspect(&config, text, &program()).expect("read");
    assert_eq!(
        programs(&found),
        [("the MCP server `askdesk`".to_owned(), Some("/gone/askdesk"))]
    );
    assert_eq!(found[0].line, Some(2));
    // An entry without a command names no program.
    let found = inspect(&config, "[mcp_servers.askdesk]\nargs = []\n", &program()).expect("read");
    assert_eq!(found[0].program, None);
}

#[test]
fn a_file_askdesk_could_not_edit_is_the_same_error() {
    let settings = file(Product::ClaudeCode, Scope::User, 1);
    assert!(matches!(
        inspect(&settings, "{\"hooks\": ", &program()),
        Err(EditError::Syntax { line: 1, .. })
    ));
    assert!(matches!(
        inspect(&settings, "{\"hooks\": []}", &program()),
        Err(EditError::Shape { .. })
    ));
    let config = file(Product::Codex, Scope::User, 0);
    assert!(matches!(
        inspect(&config, "mcp_servers = 1\n", &program()),
        Err(EditError::Shape { .. })
    ));
    assert_eq!(inspect(&settings, "", &program()), Ok(Vec::new()));
}

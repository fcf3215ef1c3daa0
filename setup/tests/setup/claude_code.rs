//! Claude Code: the MCP server in ~/.claude.json or .mcp.json, the
//! `AskUserQuestion`, `PermissionRequest` and `Elicitation` hooks in a
//! settings file.

use crate::{add, file, remove, round_trip, PROGRAM};
use setup::{Change, Hook, Product, Scope, Verb};

fn server_file(scope: Scope) -> setup::SettingsFile {
    file(Product::ClaudeCode, scope, 0)
}

fn hooks_file(scope: Scope) -> setup::SettingsFile {
    file(Product::ClaudeCode, scope, 1)
}

fn hook() -> Hook {
    hooks_file(Scope::User).hooks[0]
}

fn permission_hook() -> Hook {
    hooks_file(Scope::User).hooks[1]
}

fn elicitation_hook() -> Hook {
    hooks_file(Scope::User).hooks[2]
}

/// The permission and elicitation hooks' groups, as askdesk writes them
/// after the others.
fn permission_group() -> String {
    format!(
        r#"    "PermissionRequest": [
      {{
        "matcher": "*",
        "hooks": [
          {{
            "type": "command",
            "command": "'{PROGRAM}' hook claude-code",
            "timeout": 86400
          }}
        ]
      }}
    ],
    "Elicitation": [
      {{
        "hooks": [
          {{
            "type": "command",
            "command": "'{PROGRAM}' hook claude-code",
            "timeout": 86400
          }}
        ]
      }}
    ]"#
    )
}

/// ~/.claude.json as Claude Code keeps it: its own keys in its own order,
/// other servers, and projects with servers of their own.
const CLAUDE_JSON: &str = r#"{
    "numStartups": 12,
    "theme": "dark",
    "mcpServers": {
        "github": {"type": "http", "url": "https://api.example.com/mcp"},
        "files": {
            "command": "npx",
            "args": ["-y", "files"]
        }
    },
    "projects": {
        "/home/me/app": {"mcpServers": {"db": {"command": "db-mcp"}}}
    },
    "autoUpdates": false
}
"#;

#[test]
fn the_server_joins_the_users_servers_and_nothing_else_moves() {
    let text = round_trip(&server_file(Scope::User), Some(CLAUDE_JSON));
    assert_eq!(
        text,
        format!(
            r#"{{
    "numStartups": 12,
    "theme": "dark",
    "mcpServers": {{
        "github": {{"type": "http", "url": "https://api.example.com/mcp"}},
        "files": {{
            "command": "npx",
            "args": ["-y", "files"]
        }},
        "askdesk": {{
            "type": "stdio",
            "command": "{PROGRAM}",
            "args": ["mcp"]
        }}
    }},
    "projects": {{
        "/home/me/app": {{"mcpServers": {{"db": {{"command": "db-mcp"}}}}}}
    }},
    "autoUpdates": false
}}
"#
        )
    );
}

#[test]
fn a_file_without_servers_gets_the_key_at_its_end() {
    let text = round_trip(&server_file(Scope::Project), Some("{\n  \"a\": 1\n}\n"));
    assert!(
        text.starts_with("{\n  \"a\": 1,\n  \"mcpServers\": {\n"),
        "{text}"
    );
    // A file left holding nothing is removed, as if askdesk had made it.
    let file = server_file(Scope::Project);
    let text = add(&file, Some("{}\n")).text;
    assert_eq!(remove(&file, text.as_deref()).text, None);
}

#[test]
fn an_object_on_one_line_askdesk_writes_into_becomes_several() {
    let file = server_file(Scope::Project);
    let text = add(&file, Some("{\"a\": 1}\n")).text.expect("a file");
    assert!(
        text.starts_with("{\n  \"a\": 1,\n  \"mcpServers\": {\n"),
        "{text}"
    );
    let removed = remove(&file, Some(&text)).text;
    assert_eq!(removed.as_deref(), Some("{\n  \"a\": 1\n}\n"));
}

#[test]
fn missing_files_are_created_and_removal_deletes_what_held_only_askdesk() {
    let text = round_trip(&hooks_file(Scope::Project), None);
    assert_eq!(
        text,
        format!(
            r#"{{
  "hooks": {{
    "PreToolUse": [
      {{
        "matcher": "AskUserQuestion",
        "hooks": [
          {{
            "type": "command",
            "command": "'{PROGRAM}' hook claude-code",
            "timeout": 86400
          }}
        ]
      }}
    ],
{}
  }}
}}
"#,
            permission_group()
        )
    );
    round_trip(&server_file(Scope::User), None);
}

/// Settings with hooks of their own, one for the same tool.
const SETTINGS: &str = r#"{
  "model": "opus",
  "permissions": {"allow": ["Bash(git *)"]},
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "lint-shell"}]
      },
      {
        "matcher": "AskUserQuestion",
        "hooks": [{"type": "command", "command": "log-question"}]
      }
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  }
}
"#;

#[test]
fn the_hook_gets_a_group_of_its_own_beside_the_persons() {
    let text = round_trip(&hooks_file(Scope::User), Some(SETTINGS));
    let (before, after) = SETTINGS.split_at(
        SETTINGS
            .find("\n    ],\n    \"Stop\"")
            .expect("the end of PreToolUse"),
    );
    // The permission hook's event is new here: it comes after the others.
    let after = after.replace(
        "done\"}]}]\n",
        &format!("done\"}}]}}],\n{}\n", permission_group()),
    );
    assert!(text.starts_with(before), "{text}");
    assert!(text.ends_with(&after), "{text}");
    let ours = &text[before.len()..text.len() - after.len()];
    assert_eq!(
        ours,
        format!(
            r#",
      {{
        "matcher": "AskUserQuestion",
        "hooks": [
          {{
            "type": "command",
            "command": "'{PROGRAM}' hook claude-code",
            "timeout": 86400
          }}
        ]
      }}"#
        )
    );
}

#[test]
fn hooks_under_other_events_only_are_joined_by_pre_tool_use() {
    let settings = "{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n";
    let text = round_trip(&hooks_file(Scope::User), Some(settings));
    assert!(
        text.starts_with("{\n  \"hooks\": {\n    \"Stop\": [],\n    \"PreToolUse\": ["),
        "{text}"
    );
}

#[test]
fn a_hook_copied_by_hand_is_brought_up_to_date_where_it_is() {
    let settings = r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "AskUserQuestion",
        "hooks": [
          {"type": "command", "command": "log-question"},
          {"type": "command", "command": "/path/to/askdesk hook claude-code", "timeout": 600}
        ]
      }
    ]
  }
}
"#;
    let file = hooks_file(Scope::User);
    let updated = add(&file, Some(settings));
    assert_eq!(
        updated.changes,
        [
            Change::Hook(Verb::Updated, hook()),
            Change::Hook(Verb::Added, permission_hook()),
            Change::Hook(Verb::Added, elicitation_hook())
        ]
    );
    let text = updated.text.expect("a file");
    assert_eq!(
        text,
        settings
            .replace("/path/to/askdesk", &format!("'{PROGRAM}'"))
            .replace("600", "86400")
            .replace(
                "    ]\n  }\n}",
                &format!("    ],\n{}\n  }}\n}}", permission_group())
            )
    );
    assert_eq!(add(&file, Some(&text)).changes, []);
    // Removal takes askdesk's command; the person's stays in its group.
    let removed = remove(&file, Some(&text)).text.expect("a file");
    assert!(removed.contains("log-question"), "{removed}");
    assert!(!removed.contains("askdesk"), "{removed}");
    assert!(
        removed.contains("\"matcher\": \"AskUserQuestion\""),
        "{removed}"
    );
}

#[test]
fn a_second_copy_of_the_hook_is_dropped() {
    let command = format!("'{PROGRAM}' hook claude-code");
    let group = format!(
        r#"{{"matcher": "AskUserQuestion", "hooks": [{{"type": "command", "command": "{command}", "timeout": 86400}}]}}"#
    );
    let settings = format!("{{\"hooks\": {{\"PreToolUse\": [{group}, {group}]}}}}\n");
    let updated = add(&hooks_file(Scope::User), Some(&settings));
    assert_eq!(
        updated.changes,
        [
            Change::Hook(Verb::Updated, hook()),
            Change::Hook(Verb::Added, permission_hook()),
            Change::Hook(Verb::Added, elicitation_hook())
        ]
    );
    let text = updated.text.expect("a file");
    // One for AskUserQuestion, one for permission prompts, one for forms.
    assert_eq!(text.matches("hook claude-code").count(), 3, "{text}");
    assert_eq!(remove(&hooks_file(Scope::User), Some(&text)).text, None);
}

#[test]
fn a_moved_binary_updates_the_command_and_keeps_the_persons_fields() {
    let before = r#"{
  "mcpServers": {
    "askdesk": {
      "type": "stdio",
      "command": "/old/askdesk",
      "args": ["mcp"],
      "env": {"ASKDESK_URL": "http://127.0.0.1:4000"}
    }
  }
}
"#;
    let updated = add(&server_file(Scope::Project), Some(before));
    assert_eq!(updated.changes, [Change::Server(Verb::Updated)]);
    assert_eq!(updated.text, Some(before.replace("/old/askdesk", PROGRAM)));
}

#[test]
fn removing_from_a_file_without_askdesk_changes_nothing() {
    for file in [server_file(Scope::User), hooks_file(Scope::User)] {
        let removed = remove(&file, Some(SETTINGS));
        assert_eq!(removed.changes, []);
        assert_eq!(removed.text.as_deref(), Some(SETTINGS));
    }
    assert_eq!(remove(&server_file(Scope::User), None).text, None);
}

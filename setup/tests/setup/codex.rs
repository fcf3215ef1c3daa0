//! Codex: `[mcp_servers.askdesk]` in config.toml, comments kept; the
//! permission hook in hooks.json.

use crate::{add, file, remove, round_trip, PROGRAM};
use setup::{Change, Product, Scope, Verb};

fn config(scope: Scope) -> setup::SettingsFile {
    file(Product::Codex, scope, 0)
}

const CONFIG: &str = r#"# Codex, the way I like it.
model = "o3" # the big one
approval_policy = "on-request"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]

# Profiles come last.
[profiles.fast]
model = "o4-mini"
"#;

#[test]
fn the_server_is_a_table_of_its_own_and_comments_stay() {
    let text = round_trip(&config(Scope::User), Some(CONFIG));
    let askdesk = format!(
        "[mcp_servers.askdesk]\ncommand = \"{PROGRAM}\"\nargs = [\"mcp\"]\ntool_timeout_sec = 86400\n"
    );
    let (before, after) = CONFIG.split_at(CONFIG.find("# Profiles").expect("profiles"));
    assert_eq!(text, format!("{before}{askdesk}\n{after}"));
}

#[test]
fn a_missing_config_is_created_and_removed_again() {
    let text = round_trip(&config(Scope::Project), None);
    assert_eq!(
        text,
        format!("[mcp_servers.askdesk]\ncommand = \"{PROGRAM}\"\nargs = [\"mcp\"]\ntool_timeout_sec = 86400\n")
    );
    round_trip(&config(Scope::Project), Some("model = \"o3\"\n"));
    round_trip(&config(Scope::Project), Some("# only a comment\n"));
}

#[test]
fn servers_written_inline_get_askdesk_inline() {
    let inline = "mcp_servers = { docs = { command = \"docs-mcp\" } }\n";
    let text = round_trip(&config(Scope::User), Some(inline));
    assert_eq!(
        text,
        // toml_edit leaves the space that stood before the brace where
        // it was, before the comma: valid, and removal gives it back.
        format!("mcp_servers = {{ docs = {{ command = \"docs-mcp\" }} , askdesk = {{ command = \"{PROGRAM}\", args = [\"mcp\"], tool_timeout_sec = 86400 }} }}\n")
    );
}

#[test]
fn an_outdated_entry_is_updated_field_by_field_keeping_comments_and_env() {
    let before = r#"[mcp_servers.askdesk]
command = "/old/askdesk" # moved since
args = ["mcp"]
env = { ASKDESK_URL = "http://127.0.0.1:3000" }
"#;
    let updated = add(&config(Scope::User), Some(before));
    assert_eq!(updated.changes, [Change::Server(Verb::Updated)]);
    assert_eq!(
        updated.text,
        Some(format!(
            r#"[mcp_servers.askdesk]
command = "{PROGRAM}" # moved since
args = ["mcp"]
env = {{ ASKDESK_URL = "http://127.0.0.1:3000" }}
tool_timeout_sec = 86400
"#
        ))
    );
    let removed = remove(&config(Scope::User), updated.text.as_deref());
    assert_eq!(removed.changes, [Change::Server(Verb::Removed)]);
    assert_eq!(removed.text, None, "nothing but askdesk was in it");
}

#[test]
fn an_explicit_servers_header_stays_when_askdesk_leaves() {
    let config_text = "# mine\n[mcp_servers]\n";
    let text = round_trip(&config(Scope::User), Some(config_text));
    assert!(text.starts_with(config_text), "{text}");
}

#[test]
fn the_permission_and_question_hooks_go_in_hooks_json_beside_the_persons() {
    let hooks = file(Product::Codex, Scope::User, 1);
    assert_eq!(hooks.path, "hooks.json");
    let text = round_trip(&hooks, None);
    assert_eq!(
        text,
        format!(
            r#"{{
  "hooks": {{
    "PermissionRequest": [
      {{
        "matcher": "*",
        "hooks": [
          {{
            "type": "command",
            "command": "'{PROGRAM}' hook codex",
            "timeout": 86400
          }}
        ]
      }}
    ],
    "PreToolUse": [
      {{
        "matcher": "^request_user_input$",
        "hooks": [
          {{
            "type": "command",
            "command": "'{PROGRAM}' hook codex",
            "timeout": 86400
          }}
        ]
      }}
    ]
  }}
}}
"#
        )
    );
    let theirs = r#"{
  "hooks": {
    "PermissionRequest": [
      {
        "matcher": "^Bash$",
        "hooks": [{"type": "command", "command": "say approve"}]
      }
    ]
  }
}
"#;
    let text = round_trip(&file(Product::Codex, Scope::Project, 1), Some(theirs));
    assert!(
        text.contains("say approve") && text.contains("hook codex"),
        "{text}"
    );
}

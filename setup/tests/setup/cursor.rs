//! Cursor: `mcpServers.askdesk` in mcp.json, which may hold comments.

use crate::{file, round_trip, PROGRAM};
use setup::{Product, Scope};

const MCP_JSON: &str = r#"{
  // Servers for every workspace.
  "mcpServers": {
    "playwright": {"command": "npx", "args": ["@playwright/mcp"]}, // browser
    /* notes */
    "context7": {
      "url": "https://mcp.example.com/mcp"
    }
  }
}
"#;

#[test]
fn comments_and_other_servers_stay_byte_for_byte() {
    for scope in [Scope::User, Scope::Project] {
        let text = round_trip(&file(Product::Cursor, scope, 0), Some(MCP_JSON));
        let end = MCP_JSON.find("\n  }\n}").expect("the servers' end");
        assert!(text.starts_with(&MCP_JSON[..end]), "{text}");
        assert!(text.ends_with(&MCP_JSON[end..]), "{text}");
        assert_eq!(
            &text[end..text.len() - (MCP_JSON.len() - end)],
            format!(",\n    \"askdesk\": {{\n      \"command\": \"{PROGRAM}\",\n      \"args\": [\"mcp\"]\n    }}")
        );
    }
}

#[test]
fn a_missing_file_is_created() {
    let text = round_trip(&file(Product::Cursor, Scope::Project, 0), None);
    assert_eq!(
        text,
        format!("{{\n  \"mcpServers\": {{\n    \"askdesk\": {{\n      \"command\": \"{PROGRAM}\",\n      \"args\": [\"mcp\"]\n    }}\n  }}\n}}\n")
    );
}

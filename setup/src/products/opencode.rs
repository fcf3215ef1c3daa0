//! OpenCode: askdesk's MCP server in `opencode.json`, and a plugin that
//! starts `askdesk opencode`, the bridge that asks OpenCode's own
//! questions and permission requests at the desk.

use super::{Field, FieldValue, Format, McpServer, Plugin, Root, Scope, SettingsFile};

/// A local server, as OpenCode's `mcp` table holds one: the command and
/// its arguments in one list.
const SERVER: McpServer = McpServer {
    table: "mcp",
    fields: &[
        Field {
            key: "type",
            value: FieldValue::Text("local"),
        },
        Field {
            key: "command",
            value: FieldValue::ProgramWith(&["mcp"]),
        },
    ],
};

/// The plugin: OpenCode loads every script in its `plugins` folders.
const PLUGIN: Plugin = Plugin {
    template: include_str!("opencode.js"),
};

const RESTART: &str = "restart OpenCode to load them; the plugin's bridge follows OpenCode's server, so run `opencode serve` or start the terminal with `opencode --port 0`";

/// OpenCode's files in `scope`: its config and the plugin beside it.
pub(super) fn files(scope: Scope) -> Vec<SettingsFile> {
    let (root, config, plugin) = match scope {
        Scope::User => (Root::OpenCodeConfig, "opencode.json", "plugins/askdesk.js"),
        Scope::Project => (
            Root::Project,
            "opencode.json",
            ".opencode/plugins/askdesk.js",
        ),
    };
    vec![
        SettingsFile {
            root,
            path: config,
            // OpenCode reads its config with comments.
            format: Format::Jsonc,
            server: Some(SERVER),
            hooks: &[],
            note: None,
        },
        SettingsFile {
            root,
            path: plugin,
            format: Format::Whole(PLUGIN),
            server: None,
            hooks: &[],
            note: Some(RESTART),
        },
    ]
}

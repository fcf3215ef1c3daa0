//! The two kinds of file askdesk writes for a product: one that holds its
//! MCP server, one that holds its hooks.

use super::{Format, Hook, McpServer, Root, SettingsFile};

/// A file that holds askdesk's MCP server.
pub(super) fn server_file(
    root: Root,
    path: &'static str,
    format: Format,
    server: McpServer,
    note: Option<&'static str>,
) -> SettingsFile {
    SettingsFile {
        root,
        path,
        format,
        server: Some(server),
        hooks: &[],
        note,
    }
}

/// A JSON file that holds askdesk's hooks.
pub(super) fn hooks_file(
    root: Root,
    path: &'static str,
    hooks: &'static [Hook],
    note: Option<&'static str>,
) -> SettingsFile {
    SettingsFile {
        root,
        path,
        format: Format::Json,
        server: None,
        hooks,
        note,
    }
}

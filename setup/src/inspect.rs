//! What of askdesk a settings file holds, as `askdesk doctor` reads it:
//! its MCP server entry and its hooks, each with the program it runs
//! (`found`), read by each file format's own reader.

use crate::{found::Found, json, toml, whole, EditError, Format, Program, SettingsFile};

/// askdesk's entries in `text`, the text of `file`: its server entry
/// under any command, and each hook whose command runs a binary named
/// askdesk (or `program`) with the hook's arguments. Fails as
/// [`edit`](crate::edit) does on a file askdesk could not edit.
pub fn inspect(
    file: &SettingsFile,
    text: &str,
    program: &Program,
) -> Result<Vec<Found>, EditError> {
    match file.format {
        Format::Json | Format::Jsonc => json::found(file, text, program),
        Format::Toml => toml::found(file, text),
        Format::Whole(plugin) => whole::found(&plugin, text),
    }
}

//! askdesk's MCP server in a TOML settings file (Codex's), edited with
//! `toml_edit`, which keeps comments, layout and order.
//!
//! A TOML file holds only the server: Codex reads its hooks from a JSON
//! file of Claude Code's shape, which `json.rs` writes.

use crate::{
    found::{self, Found},
    line_and_column, Action, Change, EditError, Field, FieldValue, McpServer, Program,
    SettingsFile, Verb, SERVER_NAME,
};
use std::ops::Range;
use toml_edit::{Array, Document, DocumentMut, Item, Table, TableLike, Value};

/// `text` with askdesk's server added or removed; `None` when nothing is
/// left in it.
pub(crate) fn edit(
    file: &SettingsFile,
    text: &str,
    program: &Program,
    action: Action,
) -> Result<(Option<String>, Vec<Change>), EditError> {
    let parsed = parse(text)?;
    let Some(server) = &file.server else {
        return Ok((Some(text.to_owned()), Vec::new()));
    };
    check(&parsed, server, text)?;
    let mut doc = parsed.into_mut();
    let change = match action {
        Action::Add => add(&mut doc, server, program),
        Action::Remove => remove(&mut doc, server),
    };
    let after = doc.to_string();
    let changes: Vec<Change> = change.into_iter().collect();
    if action == Action::Remove && !changes.is_empty() && after.trim().is_empty() {
        return Ok((None, changes));
    }
    Ok((Some(after), changes))
}

/// askdesk's server entry in `text`, checked as [`edit`] checks it.
pub(crate) fn found(file: &SettingsFile, text: &str) -> Result<Vec<Found>, EditError> {
    let doc = parse(text)?;
    let Some(server) = &file.server else {
        return Ok(Vec::new());
    };
    check(&doc, server, text)?;
    let ours = doc
        .get(server.table)
        .and_then(Item::as_table_like)
        .and_then(|servers| servers.get(SERVER_NAME));
    Ok(ours
        .map(|ours| {
            let command = ours.get("command");
            let at = command
                .and_then(Item::span)
                .map(|span| line_and_column(text, span.start).0);
            found::server(command.and_then(Item::as_str).map(str::to_owned), at)
        })
        .into_iter()
        .collect())
}

/// `text` parsed, or where it is not TOML.
fn parse(text: &str) -> Result<Document<&str>, EditError> {
    Document::parse(text).map_err(|e| {
        let (line, column) = line_and_column(text, start(e.span()));
        EditError::Syntax {
            line,
            column,
            reason: e.message().to_owned(),
        }
    })
}

/// Fails when the servers' table, or askdesk's entry in it, is not a table.
fn check(doc: &Document<&str>, server: &McpServer, text: &str) -> Result<(), EditError> {
    let Some(servers) = doc.get(server.table) else {
        return Ok(());
    };
    let Some(servers_table) = servers.as_table_like() else {
        return Err(shape(servers, text, server.table.to_owned()));
    };
    match servers_table.get(SERVER_NAME) {
        Some(ours) if ours.as_table_like().is_none() => {
            Err(shape(ours, text, format!("{}.{SERVER_NAME}", server.table)))
        }
        _ => Ok(()),
    }
}

fn shape(item: &Item, text: &str, key: String) -> EditError {
    let (line, column) = line_and_column(text, start(item.span()));
    EditError::Shape {
        line,
        column,
        key,
        expected: "a table",
    }
}

fn start(span: Option<Range<usize>>) -> usize {
    span.map_or(0, |span| span.start)
}

fn add(doc: &mut DocumentMut, server: &McpServer, program: &Program) -> Option<Change> {
    let top = doc.as_table_mut();
    if !top.contains_key(server.table) {
        // Implicit: no `[mcp_servers]` header of its own, only askdesk's.
        let mut servers = Table::new();
        servers.set_implicit(true);
        top.insert(server.table, Item::Table(servers));
    }
    match top.get_mut(server.table)? {
        Item::Table(servers) => match servers.get_mut(SERVER_NAME) {
            None => {
                let mut ours = Table::new();
                for field in server.fields {
                    ours.insert(field.key, Item::Value(value(field.value, program)));
                }
                servers.insert(SERVER_NAME, Item::Table(ours));
                Some(Change::Server(Verb::Added))
            }
            Some(ours) => update(ours.as_table_like_mut()?, server.fields, program),
        },
        Item::Value(Value::InlineTable(servers)) => match servers.get_mut(SERVER_NAME) {
            None => {
                let ours = server
                    .fields
                    .iter()
                    .map(|field| (field.key, value(field.value, program)))
                    .collect();
                servers.insert(SERVER_NAME, Value::InlineTable(ours));
                Some(Change::Server(Verb::Added))
            }
            Some(ours) => update(ours.as_inline_table_mut()?, server.fields, program),
        },
        _ => None,
    }
}

/// Sets askdesk's fields in its entry; a comment beside a value stays.
fn update(ours: &mut dyn TableLike, fields: &[Field], program: &Program) -> Option<Change> {
    let mut updated = false;
    for field in fields {
        let wanted = value(field.value, program);
        match ours.get_mut(field.key) {
            Some(Item::Value(old)) if same(old, &wanted) => {}
            Some(Item::Value(old)) => {
                let decor = old.decor().clone();
                *old = wanted;
                *old.decor_mut() = decor;
                updated = true;
            }
            Some(other) => {
                *other = Item::Value(wanted);
                updated = true;
            }
            None => {
                ours.insert(field.key, Item::Value(wanted));
                updated = true;
            }
        }
    }
    updated.then_some(Change::Server(Verb::Updated))
}

/// Takes askdesk's entry out. The servers' table stays: one askdesk
/// created is implicit and so writes nothing once empty, and one with a
/// header of its own was someone else's.
fn remove(doc: &mut DocumentMut, server: &McpServer) -> Option<Change> {
    let servers = doc.get_mut(server.table)?.as_table_like_mut()?;
    servers.remove(SERVER_NAME)?;
    Some(Change::Server(Verb::Removed))
}

fn value(value: FieldValue, program: &Program) -> Value {
    match value {
        FieldValue::Program => Value::from(program.as_str()),
        FieldValue::ProgramWith(args) => Value::Array(
            std::iter::once(program.as_str())
                .chain(args.iter().copied())
                .collect::<Array>(),
        ),
        FieldValue::Text(text) => Value::from(text),
        FieldValue::Texts(texts) => Value::Array(texts.iter().copied().collect::<Array>()),
        FieldValue::Integer(n) => Value::from(n),
    }
}

/// Whether `old` holds `wanted`, whatever its formatting.
fn same(old: &Value, wanted: &Value) -> bool {
    match (old, wanted) {
        (Value::String(a), Value::String(b)) => a.value() == b.value(),
        (Value::Integer(a), Value::Integer(b)) => a.value() == b.value(),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b.iter()).all(|(a, b)| same(a, b))
        }
        _ => false,
    }
}

//! askdesk's entries in a JSON settings file, edited in its concrete
//! syntax tree: what is not askdesk's keeps its bytes, comments included.
//!
//! Every key on askdesk's way is checked before anything changes, so an
//! error's line and column are those of the file as it was read.

mod hooks;

use crate::{
    found::{self, Found},
    line_and_column, Action, Change, EditError, Field, FieldValue, Format, McpServer, Program,
    SettingsFile, Verb, SERVER_NAME,
};
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstRootNode};
use jsonc_parser::errors::ParseError;
use jsonc_parser::{parse_to_ast, CollectOptions, ParseOptions};

/// `text` with askdesk's entries added or removed; `None` when nothing
/// is left in it.
pub(crate) fn edit(
    file: &SettingsFile,
    text: &str,
    program: &Program,
    action: Action,
) -> Result<(Option<String>, Vec<Change>), EditError> {
    let (root, top) = parse(file, text)?;
    let mut changes = Vec::new();
    match action {
        Action::Add => {
            let top = top.unwrap_or_else(|| root.object_value_or_set());
            if let Some(server) = &file.server {
                changes.extend(add_server(&top, server, program, text)?);
            }
            for hook in file.hooks {
                changes.extend(hooks::add(&top, hook, program, text)?);
            }
        }
        Action::Remove => {
            let Some(top) = top else {
                return Ok((Some(text.to_owned()), changes));
            };
            if let Some(server) = &file.server {
                changes.extend(remove_server(&top, server, text)?);
            }
            for hook in file.hooks {
                changes.extend(hooks::remove(&top, hook, program, text)?);
            }
            if !changes.is_empty() && is_empty(&root) {
                return Ok((None, changes));
            }
        }
    }
    let mut after = root.to_string();
    if !after.ends_with('\n') {
        after.push('\n');
    }
    Ok((Some(after), changes))
}

/// `text` as a tree, and its top-level object when it has one, with
/// every key on askdesk's way checked.
fn parse(file: &SettingsFile, text: &str) -> Result<(CstRootNode, Option<CstObject>), EditError> {
    let syntax = |e: ParseError| EditError::Syntax {
        line: e.line_display(),
        column: e.column_display(),
        reason: e.kind().to_string(),
    };
    // The concrete tree's parser keeps comments without asking whether
    // they are allowed; the plain parser asks.
    parse_to_ast(text, &CollectOptions::default(), &options(file.format)).map_err(syntax)?;
    let root = CstRootNode::parse(text, &options(file.format)).map_err(syntax)?;
    let top = match root.value() {
        None => None,
        Some(value) => Some(object(value, text, "the top level")?),
    };
    if let Some(top) = &top {
        check(top, file, text)?;
    }
    Ok((root, top))
}

/// askdesk's entries in `text`, checked as [`edit`] checks it.
pub(crate) fn found(
    file: &SettingsFile,
    text: &str,
    program: &Program,
) -> Result<Vec<Found>, EditError> {
    // The root is kept while the tree is walked: a node's way up to it
    // (for its line) ends in the root.
    let (_root, top) = parse(file, text)?;
    let Some(top) = top else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    if let Some(server) = &file.server {
        let ours = member_object(&top, server.table, text, server.table)?
            .map(|servers| member_object(&servers, SERVER_NAME, text, &server_key(server)))
            .transpose()?
            .flatten();
        if let Some(ours) = ours {
            found.push(found::server(
                program_of(&ours),
                command_line_no(&ours, text),
            ));
        }
    }
    for hook in file.hooks {
        for (command, at) in hooks::lines(&top, hook, program, text)? {
            found.push(found::hook(hook, command, at));
        }
    }
    Ok(found)
}

/// What a file of `format` may hold: strict JSON, or JSON with comments.
fn options(format: Format) -> ParseOptions {
    ParseOptions {
        allow_comments: format == Format::Jsonc,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Fails when a key on askdesk's way holds something other than the
/// object or list askdesk's entries go into.
fn check(top: &CstObject, file: &SettingsFile, text: &str) -> Result<(), EditError> {
    if let Some(server) = &file.server {
        if let Some(servers) = member_object(top, server.table, text, server.table)? {
            member_object(&servers, SERVER_NAME, text, &server_key(server))?;
        }
    }
    for hook in file.hooks {
        hooks::check(top, hook, text)?;
    }
    Ok(())
}

fn server_key(server: &McpServer) -> String {
    format!("{}.{SERVER_NAME}", server.table)
}

fn add_server(
    top: &CstObject,
    server: &McpServer,
    program: &Program,
    text: &str,
) -> Result<Option<Change>, EditError> {
    let entry = || CstInputValue::Object(fields(server.fields, program));
    let Some(servers) = member_object(top, server.table, text, server.table)? else {
        top.append(
            server.table,
            CstInputValue::Object(vec![(SERVER_NAME.to_owned(), entry())]),
        );
        return Ok(Some(Change::Server(Verb::Added)));
    };
    let Some(ours) = member_object(&servers, SERVER_NAME, text, &server_key(server))? else {
        servers.append(SERVER_NAME, entry());
        return Ok(Some(Change::Server(Verb::Added)));
    };
    let mut updated = false;
    for field in server.fields {
        match ours.get(field.key) {
            Some(prop)
                if prop
                    .value()
                    .is_some_and(|v| holds(&v, field.value, program)) => {}
            Some(prop) => {
                prop.set_value(input(field.value, program));
                updated = true;
            }
            None => {
                ours.append(field.key, input(field.value, program));
                updated = true;
            }
        }
    }
    Ok(updated.then_some(Change::Server(Verb::Updated)))
}

fn remove_server(
    top: &CstObject,
    server: &McpServer,
    text: &str,
) -> Result<Option<Change>, EditError> {
    let Some(servers) = member_object(top, server.table, text, server.table)? else {
        return Ok(None);
    };
    let Some(ours) = servers.get(SERVER_NAME) else {
        return Ok(None);
    };
    ours.remove();
    if servers.properties().is_empty() {
        if let Some(table) = top.get(server.table) {
            table.remove();
        }
    }
    Ok(Some(Change::Server(Verb::Removed)))
}

fn fields(fields: &[Field], program: &Program) -> Vec<(String, CstInputValue)> {
    fields
        .iter()
        .map(|field| (field.key.to_owned(), input(field.value, program)))
        .collect()
}

fn input(value: FieldValue, program: &Program) -> CstInputValue {
    match value {
        FieldValue::Program => CstInputValue::from(program.as_str()),
        FieldValue::ProgramWith(args) => CstInputValue::Array(
            std::iter::once(program.as_str())
                .chain(args.iter().copied())
                .map(CstInputValue::from)
                .collect(),
        ),
        FieldValue::Text(text) => CstInputValue::from(text),
        FieldValue::Texts(texts) => {
            CstInputValue::Array(texts.iter().map(|t| CstInputValue::from(*t)).collect())
        }
        FieldValue::Integer(n) => CstInputValue::from(n),
    }
}

/// Whether `node` already holds `value`.
fn holds(node: &CstNode, value: FieldValue, program: &Program) -> bool {
    same(node, &input(value, program))
}

/// Whether `node` is `value`, for the strings, numbers and lists of
/// strings askdesk writes.
pub(super) fn same(node: &CstNode, value: &CstInputValue) -> bool {
    match value {
        CstInputValue::String(text) => node
            .as_string_lit()
            .and_then(|s| s.decoded_value().ok())
            .is_some_and(|s| &s == text),
        CstInputValue::Number(number) => node
            .as_number_lit()
            .is_some_and(|n| n.to_string() == *number),
        CstInputValue::Array(values) => node.as_array().is_some_and(|array| {
            let elements = array.elements();
            elements.len() == values.len() && elements.iter().zip(values).all(|(n, v)| same(n, v))
        }),
        _ => false,
    }
}

/// `node` as an object, or the error naming `key`.
fn object(node: CstNode, text: &str, key: &str) -> Result<CstObject, EditError> {
    node.as_object()
        .ok_or_else(|| shape(&node, text, key, "an object"))
}

/// The text of an entry's `command` (a server's program, a hook's
/// command line), when it is text.
pub(super) fn command_of(entry: &CstObject) -> Option<String> {
    entry
        .get("command")
        .and_then(|p| p.value()?.as_string_lit()?.decoded_value().ok())
}

/// The program a server's `command` names: the string, or a list's first
/// (OpenCode's shape).
fn program_of(server: &CstObject) -> Option<String> {
    let command = server.get("command")?.value()?;
    let first = match command.as_array() {
        Some(list) => list.elements().into_iter().next()?,
        None => command,
    };
    first.as_string_lit()?.decoded_value().ok()
}

/// The line of `text` an entry's `command` is on, when it has one.
pub(super) fn command_line_no(entry: &CstObject, text: &str) -> Option<usize> {
    let command = entry.get("command")?;
    Some(line_and_column(text, offset(&command.into())).0)
}

/// The object under `name` in `parent`, if there is one.
pub(super) fn member_object(
    parent: &CstObject,
    name: &str,
    text: &str,
    key: &str,
) -> Result<Option<CstObject>, EditError> {
    match parent.get(name).and_then(|p| p.value()) {
        None => Ok(None),
        Some(node) => object(node, text, key).map(Some),
    }
}

/// The list under `name` in `parent`, if there is one.
pub(super) fn member_array(
    parent: &CstObject,
    name: &str,
    text: &str,
    key: &str,
) -> Result<Option<CstArray>, EditError> {
    match parent.get(name).and_then(|p| p.value()) {
        None => Ok(None),
        Some(node) => node
            .as_array()
            .map(Some)
            .ok_or_else(|| shape(&node, text, key, "a list")),
    }
}

fn shape(node: &CstNode, text: &str, key: &str, expected: &'static str) -> EditError {
    let (line, column) = line_and_column(text, offset(node));
    EditError::Shape {
        line,
        column,
        key: key.to_owned(),
        expected,
    }
}

/// Where `node` starts in the text it was parsed from: the length of
/// everything before it. The tree is lossless, so that is its own text.
fn offset(node: &CstNode) -> usize {
    let mut offset = 0;
    let mut current = node.clone();
    loop {
        offset += current
            .previous_siblings()
            .map(|sibling| sibling.to_string().len())
            .sum::<usize>();
        match current.parent() {
            Some(parent) => current = parent.into(),
            None => return offset,
        }
    }
}

/// Whether the file holds nothing any more: an empty object, no comment.
fn is_empty(root: &CstRootNode) -> bool {
    let Some(top) = root.object_value() else {
        return false;
    };
    top.properties().is_empty()
        && !root
            .to_string()
            .chars()
            .any(|c| !c.is_whitespace() && c != '{' && c != '}')
}

//! Files askdesk cannot read: an error with the line and column, and no
//! text to write.

use crate::program;
use setup::{edit, Action, EditError, Product, Scope};

fn error(product: Product, index: usize, text: &str) -> EditError {
    let file = &product.files(Scope::User)[index];
    for action in [Action::Add, Action::Remove] {
        let result = edit(file, Some(text), &program(), action);
        if action == Action::Remove {
            return result.expect_err("a malformed file");
        }
        assert!(result.is_err(), "{}: {text}", file.path);
    }
    unreachable!("the loop returns")
}

fn at(error: &EditError) -> (usize, usize) {
    match error {
        EditError::Syntax { line, column, .. } | EditError::Shape { line, column, .. } => {
            (*line, *column)
        }
        EditError::NotOurs => panic!("a settings file askdesk merges into is never whole"),
    }
}

#[test]
fn broken_json_is_named_by_line_and_column() {
    let text = "{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n    \"b\": {}\n  }\n}\n";
    let e = error(Product::ClaudeCode, 0, text);
    assert!(matches!(e, EditError::Syntax { .. }), "{e}");
    // Where the comma should have been.
    assert_eq!(at(&e), (4, 26), "{e}");
    assert_eq!(e.to_string(), "line 4, column 26: Expected comma");
}

#[test]
fn claude_codes_strict_json_refuses_comments_that_cursor_accepts() {
    let text = "{\n  // a comment\n  \"model\": \"opus\"\n}\n";
    assert_eq!(at(&error(Product::ClaudeCode, 1, text)), (2, 3));
    let cursor = &Product::Cursor.files(Scope::User)[0];
    assert!(edit(cursor, Some(text), &program(), Action::Add).is_ok());
    assert_eq!(
        at(&error(Product::Cursor, 0, "{\"mcpServers\": {},}\n")),
        (1, 18)
    );
}

#[test]
fn a_key_of_the_wrong_kind_is_named_with_its_line() {
    let e = error(
        Product::ClaudeCode,
        0,
        "{\n  \"a\": 1,\n  \"mcpServers\": [\"askdesk\"]\n}\n",
    );
    assert_eq!(
        e,
        EditError::Shape {
            line: 3,
            column: 17,
            key: "mcpServers".to_owned(),
            expected: "an object"
        }
    );
    let e = error(
        Product::ClaudeCode,
        1,
        "{\"hooks\": {\n  \"PreToolUse\": {}\n}}\n",
    );
    assert_eq!(
        e.to_string(),
        "line 2, column 17: `hooks.PreToolUse` should be a list"
    );
    let e = error(
        Product::Cursor,
        0,
        "{\"mcpServers\": {\"askdesk\": \"on\"}}",
    );
    assert_eq!(at(&e), (1, 28));
    assert_eq!(at(&error(Product::Cursor, 0, "[]")), (1, 1));
}

#[test]
fn broken_toml_is_named_by_line_and_column() {
    let e = error(
        Product::Codex,
        0,
        "model = \"o3\"\n[mcp_servers.docs\ncommand = \"x\"\n",
    );
    assert!(matches!(e, EditError::Syntax { line: 2, .. }), "{e}");
    let e = error(Product::Codex, 0, "model = \"o3\"\nmcp_servers = 3\n");
    assert_eq!(
        e.to_string(),
        "line 2, column 15: `mcp_servers` should be a table"
    );
    let e = error(Product::Codex, 0, "[mcp_servers]\naskdesk = \"yes\"\n");
    assert_eq!(at(&e), (2, 11));
}

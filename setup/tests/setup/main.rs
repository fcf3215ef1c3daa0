//! The `setup` crate's tests, one binary: each product's files edited as
//! text, round trips (add, add again, remove), and the errors that leave a
//! file alone.

// The 100-line rule is `src/`'s: a scenario reads best as one story.
#![allow(clippy::too_many_lines)]

mod claude_code;
mod codex;
mod cursor;
mod errors;
mod inspect;
mod opencode;

use setup::{diff, edit, Action, Change, Edit, Product, Program, Root, Scope, SettingsFile};

/// Where the tests' askdesk is: a space in it makes the hook quote it.
pub const PROGRAM: &str = "/opt/ask desk/askdesk";

pub fn program() -> Program {
    Program::new(PROGRAM).expect("an absolute path")
}

/// The `index`th file `product` writes in `scope`.
pub fn file(product: Product, scope: Scope, index: usize) -> SettingsFile {
    product.files(scope).remove(index)
}

pub fn add(file: &SettingsFile, text: Option<&str>) -> Edit {
    edit(file, text, &program(), Action::Add).expect("added")
}

pub fn remove(file: &SettingsFile, text: Option<&str>) -> Edit {
    edit(file, text, &program(), Action::Remove).expect("removed")
}

/// Adds askdesk to `original`, checks that a second run changes nothing
/// and that removing askdesk gives `original` back byte for byte; returns
/// the text with askdesk.
pub fn round_trip(file: &SettingsFile, original: Option<&str>) -> String {
    let added = add(file, original);
    assert!(
        !added.changes.is_empty(),
        "{}: nothing was added",
        file.path
    );
    let text = added.text.expect("a file");
    let again = add(file, Some(&text));
    assert_eq!(
        again.changes,
        Vec::<Change>::new(),
        "{}: a second run",
        file.path
    );
    assert_eq!(again.text.as_deref(), Some(text.as_str()));
    let removed = remove(file, Some(&text));
    assert!(
        !removed.changes.is_empty(),
        "{}: nothing was removed",
        file.path
    );
    assert_eq!(removed.text.as_deref(), original, "{}: removed", file.path);
    let none = remove(file, original);
    assert_eq!(
        none.changes,
        Vec::<Change>::new(),
        "{}: removing twice",
        file.path
    );
    text
}

#[test]
fn products_are_named_as_on_the_command_line() {
    for product in Product::ALL {
        assert_eq!(Product::from_name(product.name()), Some(product));
    }
    assert_eq!(Product::from_name("claude"), None);
}

#[test]
fn each_product_writes_its_own_files() {
    let paths = |product: Product, scope| -> Vec<&str> {
        product.files(scope).iter().map(|f| f.path).collect()
    };
    let roots = |product: Product, scope| -> Vec<Root> {
        product.files(scope).iter().map(|f| f.root).collect()
    };
    // `$CLAUDE_CONFIG_DIR` moves both, so each starts from a root of its own.
    assert_eq!(
        paths(Product::ClaudeCode, Scope::User),
        [".claude.json", "settings.json"]
    );
    assert_eq!(
        roots(Product::ClaudeCode, Scope::User),
        [Root::ClaudeGlobal, Root::ClaudeConfig]
    );
    assert_eq!(
        roots(Product::Codex, Scope::User),
        [Root::CodexHome, Root::CodexHome]
    );
    assert_eq!(
        paths(Product::ClaudeCode, Scope::Project),
        [".mcp.json", ".claude/settings.json"]
    );
    assert_eq!(
        paths(Product::Codex, Scope::User),
        ["config.toml", "hooks.json"]
    );
    assert_eq!(
        paths(Product::Codex, Scope::Project),
        [".codex/config.toml", ".codex/hooks.json"]
    );
    assert_eq!(paths(Product::Cursor, Scope::User), [".cursor/mcp.json"]);
    assert_eq!(paths(Product::Cursor, Scope::Project), [".cursor/mcp.json"]);
    for scope in [Scope::User, Scope::Project] {
        for product in Product::ALL {
            for file in product.files(scope) {
                // toml.rs writes servers only; a hook there would be lost.
                if file.format == setup::Format::Toml {
                    assert!(file.hooks.is_empty(), "{}", file.path);
                }
            }
        }
    }
}

#[test]
fn a_relative_program_is_refused() {
    assert!(Program::new("target/release/askdesk").is_err());
    assert!(Program::new("askdesk").is_err());
}

#[test]
fn the_diff_is_unified_with_the_files_path() {
    let file = file(Product::Cursor, Scope::User, 0);
    let added = add(&file, Some("{\n  \"mcpServers\": {}\n}\n"));
    let shown = diff(
        "/home/me/.cursor/mcp.json",
        Some("{\n  \"mcpServers\": {}\n}\n"),
        added.text.as_deref(),
    );
    assert!(
        shown.starts_with("--- /home/me/.cursor/mcp.json\n+++ /home/me/.cursor/mcp.json\n@@ "),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("+      \"command\": \"{PROGRAM}\",\n")),
        "{shown}"
    );
    let created = diff("/p/.mcp.json", None, Some("{}\n"));
    assert!(
        created.starts_with("--- /dev/null\n+++ /p/.mcp.json\n"),
        "{created}"
    );
    assert_eq!(diff("/p/x", Some("same\n"), Some("same\n")), "");
}

//! No text a person reads holds a run of spaces in mid-line: the mark of a
//! string literal continued on the next line without its `\`, which keeps
//! that line's indentation ("set --token,                  or add people
//! first"). Every string literal of every workspace crate's `src/` is read,
//! tests aside: messages, `format!` strings, `#[error]` attributes.

use quote::ToTokens;
use std::path::{Path, PathBuf};

/// Where a literal holds a run of three or more spaces between two other
/// characters of one line.
fn run_of_spaces(text: &str) -> Option<&str> {
    text.lines().find(|line| {
        line.trim()
            .split(|c: char| c != ' ')
            .any(|spaces| spaces.len() >= 3)
    })
}

/// Whether `attrs` mark an item as test code.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("test")
            || (attr.path().is_ident("cfg") && attr.to_token_stream().to_string().contains("test"))
    })
}

/// Whether `group` is the inside of a doc comment's attribute (`#[doc =
/// …]`): prose, written as it reads.
fn is_doc(group: &proc_macro2::Group) -> bool {
    group.delimiter() == proc_macro2::Delimiter::Bracket
        && matches!(group.stream().into_iter().next(),
            Some(proc_macro2::TokenTree::Ident(ident)) if ident == "doc")
}

fn literals(tokens: proc_macro2::TokenStream, found: &mut Vec<String>) {
    for token in tokens {
        match token {
            proc_macro2::TokenTree::Group(group) if is_doc(&group) => {}
            proc_macro2::TokenTree::Group(group) => literals(group.stream(), found),
            proc_macro2::TokenTree::Literal(literal) => {
                // Raw strings (doc comments among them) are written as
                // they read; only an ordinary literal continues with `\`.
                if let syn::Lit::Str(text) = syn::Lit::new(literal) {
                    if !text.token().to_string().starts_with('r') {
                        if let Some(line) = run_of_spaces(&text.value()) {
                            found.push(line.to_owned());
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

fn items(items: &[syn::Item], found: &mut Vec<String>) {
    for item in items {
        match item {
            syn::Item::Mod(module) if is_test(&module.attrs) => {}
            syn::Item::Mod(module) => {
                if let Some((_, inner)) = &module.content {
                    self::items(inner, found);
                }
            }
            syn::Item::Fn(function) if is_test(&function.attrs) => {}
            syn::Item::Impl(block) => {
                for inner in &block.items {
                    let test = matches!(inner, syn::ImplItem::Fn(f) if is_test(&f.attrs));
                    if !test {
                        literals(inner.to_token_stream(), found);
                    }
                }
            }
            other => literals(other.to_token_stream(), found),
        }
    }
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn no_literal_in_the_sources_holds_a_run_of_spaces() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .expect("the workspace's Cargo.toml")
        .parse()
        .expect("TOML");
    let members = manifest["workspace"]["members"]
        .as_array()
        .expect("members");
    let mut files = Vec::new();
    for member in members {
        rust_files(
            &root.join(member.as_str().expect("a path")).join("src"),
            &mut files,
        );
    }
    assert!(files.len() > 100, "read {} files", files.len());
    let mut found = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).expect("a source file");
        let parsed = syn::parse_file(&source).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let before = found.len();
        items(&parsed.items, &mut found);
        for line in &mut found[before..] {
            *line = format!(
                "{}: {line:?}",
                file.strip_prefix(&root).unwrap_or(file).display()
            );
        }
    }
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn a_literal_continued_without_its_backslash_is_found() {
    let source = "fn f() -> &'static str { \"set --token,                or add people first\" }";
    let mut found = Vec::new();
    items(&syn::parse_file(source).expect("Rust").items, &mut found);
    assert_eq!(found, ["set --token,                or add people first"]);
    // Aligned columns of two spaces, indentation and doc comments are not.
    let source = "/// A   doc.\nfn f() -> &'static str { \"  • a  b\\n      c\" }";
    let mut found = Vec::new();
    items(&syn::parse_file(source).expect("Rust").items, &mut found);
    assert_eq!(found, Vec::<String>::new());
}

//! The documents hold true: the configuration tables of
//! `docs/operating.md` are `askdesk --help` (every option of the server,
//! with its environment variable and default, and nothing that does not
//! exist), and every relative link of the README and `docs/` leads to a
//! file that is there.

use clap::CommandFactory;
use server::cli::config::Cli;
use std::collections::BTreeMap;

/// The rows of the configuration tables: flag → (env, default).
fn readme_table() -> BTreeMap<String, (String, String)> {
    let operating = include_str!("../../../docs/operating.md");
    let section = operating
        .split("\n## Configuration\n")
        .nth(1)
        .expect("docs/operating.md has a Configuration section");
    let section = section.split("\n## ").next().unwrap_or_default();
    section
        .lines()
        .filter(|line| line.starts_with("| `--"))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let unquote = |cell: &str| cell.trim_matches('`').to_owned();
            (unquote(cells[1]), (unquote(cells[2]), cells[3].to_owned()))
        })
        .collect()
}

#[test]
fn the_readme_configuration_table_is_askdesk_help() {
    let command = Cli::command();
    let documented = readme_table();
    let mut actual = BTreeMap::new();
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if matches!(long, "help" | "version") {
            continue;
        }
        let env = arg
            .get_env()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default();
        let default: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect();
        actual.insert(format!("--{long}"), (env, default.join(",")));
    }
    let flags = |m: &BTreeMap<String, (String, String)>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        flags(&documented),
        flags(&actual),
        "docs/operating.md's tables list exactly the flags of `askdesk --help`"
    );
    for (flag, (env, default)) in &actual {
        let (doc_env, doc_default) = &documented[flag];
        assert_eq!(doc_env, env, "{flag}: environment variable");
        if !default.is_empty() {
            assert_eq!(
                doc_default.trim_matches('`'),
                default,
                "{flag}: default value"
            );
        }
    }
}

/// The workspace's folder.
fn workspace() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// Every relative link of the README and `docs/`, `[text](target)`, leads
/// to a file or folder that exists (web links are the web's).
#[test]
fn every_relative_link_of_the_documents_leads_somewhere() {
    let root = workspace();
    let mut documents = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            documents.push(path);
        }
    }
    let mut broken = Vec::new();
    let mut seen = 0;
    for document in &documents {
        let text = std::fs::read_to_string(document).expect("readable");
        for target in text
            .split("](")
            .skip(1)
            .filter_map(|rest| rest.split(')').next())
        {
            if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
                continue;
            }
            seen += 1;
            let file = target.split('#').next().unwrap_or_default();
            let resolved = document.parent().expect("a folder").join(file);
            if !resolved.exists() {
                broken.push(format!("{}: {target}", document.display()));
            }
        }
    }
    assert!(seen >= 10, "the README links its documents ({seen} links)");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The README is a first page: short, with setting an agent up and its
/// check within its first screen.
#[test]
fn the_readme_is_a_first_page() {
    let readme = include_str!("../../../README.md");
    assert!(
        readme.lines().count() <= 250,
        "the README is over 250 lines"
    );
    let first: String = readme.lines().take(100).collect::<Vec<_>>().join("\n");
    for command in [
        "askdesk setup claude-code",
        "askdesk setup codex",
        "askdesk setup cursor",
        "askdesk doctor",
        "scripts/dev.sh run",
        "scripts/dev.sh test",
    ] {
        assert!(
            first.contains(command),
            "{command} in the README's first 100 lines"
        );
    }
}

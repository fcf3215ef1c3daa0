//! The README's configuration table is held to `askdesk --help`: every
//! option of the server, with its environment variable and default, and
//! nothing that does not exist.

use clap::CommandFactory;
use server::cli::config::Cli;
use std::collections::BTreeMap;

/// The rows of the README's configuration table: flag → (env, default).
fn readme_table() -> BTreeMap<String, (String, String)> {
    let readme = include_str!("../../../README.md");
    let section = readme
        .split("\n## Configuration\n")
        .nth(1)
        .expect("the README has a Configuration section");
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
        "the README's table lists exactly the flags of `askdesk --help`"
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

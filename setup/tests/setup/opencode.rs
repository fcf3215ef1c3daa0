//! OpenCode: `mcp.askdesk` in opencode.json (a command list), and a plugin
//! file askdesk writes whole, owns, and never takes from someone else.

use crate::{add, file, program, remove, round_trip, PROGRAM};
use setup::{edit, inspect, Action, Change, EditError, Entry, Product, Root, Scope, Verb};

const CONFIG: &str = r#"{
  "$schema": "https://opencode.ai/config.json",
  // Tools for this machine.
  "mcp": {
    "files": {"type": "local", "command": ["npx", "-y", "files"]}
  },
  "plugin": ["opencode-acme-plugin"]
}
"#;

#[test]
fn the_config_gets_a_local_server_whose_command_is_a_list() {
    for scope in [Scope::User, Scope::Project] {
        let text = round_trip(&file(Product::OpenCode, scope, 0), Some(CONFIG));
        assert!(
            text.contains(&format!(
                "\"askdesk\": {{\n      \"type\": \"local\",\n      \"command\": [\"{PROGRAM}\", \"mcp\"]\n    }}"
            )),
            "{text}"
        );
        assert!(text.contains("// Tools for this machine."), "{text}");
    }
}

#[test]
fn the_plugin_is_in_opencodes_plugin_folders() {
    let files = Product::OpenCode.files(Scope::User);
    assert_eq!(files[1].root, Root::OpenCodeConfig);
    assert_eq!(files[1].path, "plugins/askdesk.js");
    assert_eq!(
        Product::OpenCode.files(Scope::Project)[1].path,
        ".opencode/plugins/askdesk.js"
    );
}

#[test]
fn the_plugin_is_written_whole_with_the_program_as_a_string_and_removed_whole() {
    let plugin = file(Product::OpenCode, Scope::User, 1);
    let text = round_trip(&plugin, None);
    assert!(
        text.starts_with("// askdesk's OpenCode plugin, written by `askdesk setup opencode`"),
        "{text}"
    );
    assert!(
        text.contains(&format!("const ASKDESK = \"{PROGRAM}\";\n")),
        "{text}"
    );
    assert!(text.contains("\"--until-stdin-closes\""), "{text}");
    // An older askdesk's plugin is askdesk's to bring up to date.
    let older = text.replace("--until-stdin-closes", "--older");
    let updated = add(&plugin, Some(&older));
    assert_eq!(updated.changes, [Change::Plugin(Verb::Updated)]);
    assert_eq!(updated.text.as_deref(), Some(text.as_str()));
    // doctor reads back the program it runs, and the line it is on.
    let found = inspect(&plugin, &text, &program()).expect("read");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].entry, Entry::Plugin);
    assert_eq!(found[0].program.as_deref(), Some(PROGRAM));
    let line = text
        .lines()
        .position(|l| l.starts_with("const ASKDESK"))
        .expect("line")
        + 1;
    assert_eq!(found[0].line, Some(line));
}

#[test]
fn a_path_with_quotes_and_backslashes_is_a_string_that_reads_back() {
    let odd = setup::Program::new("/opt/\"ask\"\\desk/askdesk").expect("absolute");
    let plugin = file(Product::OpenCode, Scope::User, 1);
    let text = edit(&plugin, None, &odd, Action::Add)
        .expect("added")
        .text
        .expect("a file");
    assert!(
        text.contains(r#"const ASKDESK = "/opt/\"ask\"\\desk/askdesk";"#),
        "{text}"
    );
    let found = inspect(&plugin, &text, &odd).expect("read");
    assert_eq!(found[0].program.as_deref(), Some(odd.as_str()));
}

#[test]
fn someone_elses_file_at_the_plugins_path_is_neither_replaced_nor_removed() {
    let plugin = file(Product::OpenCode, Scope::Project, 1);
    let theirs = "export const Mine = async () => ({});\n";
    for action in [Action::Add, Action::Remove] {
        assert_eq!(
            edit(&plugin, Some(theirs), &program(), action),
            Err(EditError::NotOurs)
        );
    }
    assert_eq!(
        inspect(&plugin, theirs, &program()),
        Err(EditError::NotOurs)
    );
    // An empty file holds nothing to keep.
    let added = add(&plugin, Some(""));
    assert_eq!(added.changes, [Change::Plugin(Verb::Added)]);
    assert!(remove(&plugin, None).changes.is_empty());
}

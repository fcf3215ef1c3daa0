//! `askdesk setup` as a person runs it: the binary, a temporary HOME (and
//! a temporary project for `--project`) holding settings files with other
//! servers, other hooks, comments and an order of their own.

use std::{
    fs,
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    process::Command,
};

/// What one run printed, and how it ended.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `askdesk setup ARGS` with HOME at `home`, in `cwd`.
fn setup(home: &Path, cwd: &Path, args: &[&str]) -> Run {
    setup_with(&[("HOME", home)], cwd, args)
}

/// Runs `askdesk setup ARGS` in `cwd` with only the folders `env` names:
/// HOME, and an agent's folder moved by its variable.
fn setup_with(env: &[(&str, &Path)], cwd: &Path, args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_askdesk"));
    for var in ["HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME"] {
        command.env_remove(var);
    }
    let output = command
        .envs(env.iter().copied())
        .arg("setup")
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("askdesk runs");
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn ok(home: &Path, cwd: &Path, args: &[&str]) -> String {
    let run = setup(home, cwd, args);
    assert_eq!(run.code, Some(0), "{args:?}: {}{}", run.stdout, run.stderr);
    run.stdout
}

/// The path the entries run: the binary, absolute and canonical.
pub(crate) fn program() -> String {
    fs::canonicalize(env!("CARGO_BIN_EXE_askdesk"))
        .expect("the binary")
        .to_str()
        .expect("UTF-8")
        .to_owned()
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
    fs::write(path, text).expect("written");
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every file under `dir`, for checking that nothing else was written.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).expect("a folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files(&path));
        } else {
            found.push(path);
        }
    }
    found.sort();
    found
}

const CLAUDE_JSON: &str = r#"{
    "numStartups": 12,
    "theme": "dark",
    "mcpServers": {
        "github": {"type": "http", "url": "https://api.example.com/mcp"},
        "files": {
            "command": "npx",
            "args": ["-y", "files"]
        }
    },
    "projects": {
        "/home/me/app": {"mcpServers": {"db": {"command": "db-mcp"}}}
    },
    "autoUpdates": false
}
"#;

const CLAUDE_SETTINGS: &str = r#"{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "lint-shell"}]
      }
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  },
  "permissions": {"allow": ["Bash(git *)"]}
}
"#;

const CODEX_HOOKS: &str = r#"{
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  }
}
"#;

const CODEX_CONFIG: &str = r#"# Codex, the way I like it.
model = "o3" # the big one

[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]

# Profiles come last.
[profiles.fast]
model = "o4-mini"
"#;

const CURSOR_MCP: &str = r#"{
  // Servers for every workspace.
  "mcpServers": {
    "playwright": {"command": "npx", "args": ["@playwright/mcp"]} // browser
  }
}
"#;

/// Each product's files in a HOME, as they were, and as they should be
/// with askdesk (`{askdesk}` stands for the binary's path).
fn user_files() -> Vec<(&'static str, &'static str, String)> {
    vec![
        (
            ".claude.json",
            CLAUDE_JSON,
            CLAUDE_JSON.replace(
                "        }\n    },\n    \"projects\"",
                "        },\n        \"askdesk\": {\n            \"type\": \"stdio\",\n            \"command\": \"{askdesk}\",\n            \"args\": [\"mcp\"]\n        }\n    },\n    \"projects\"",
            ),
        ),
        (
            ".claude/settings.json",
            CLAUDE_SETTINGS,
            CLAUDE_SETTINGS.replace(
                "      }\n    ],\n    \"Stop\"",
                "      },\n      {\n        \"matcher\": \"AskUserQuestion\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"{askdesk} hook claude-code\",\n            \"timeout\": 86400\n          }\n        ]\n      }\n    ],\n    \"Stop\"",
            )
            .replace(
                "done\"}]}]\n",
                "done\"}]}],\n    \"PermissionRequest\": [\n      {\n        \"matcher\": \"*\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"{askdesk} hook claude-code\",\n            \"timeout\": 86400\n          }\n        ]\n      }\n    ],\n    \"Elicitation\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"{askdesk} hook claude-code\",\n            \"timeout\": 86400\n          }\n        ]\n      }\n    ]\n",
            ),
        ),
        (
            ".codex/hooks.json",
            CODEX_HOOKS,
            CODEX_HOOKS.replace(
                "done\"}]}]\n",
                "done\"}]}],\n    \"PermissionRequest\": [\n      {\n        \"matcher\": \"*\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"{askdesk} hook codex\",\n            \"timeout\": 86400\n          }\n        ]\n      }\n    ],\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"^request_user_input$\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"{askdesk} hook codex\",\n            \"timeout\": 86400\n          }\n        ]\n      }\n    ]\n",
            ),
        ),
        (
            ".codex/config.toml",
            CODEX_CONFIG,
            CODEX_CONFIG.replace(
                "# Profiles",
                "[mcp_servers.askdesk]\ncommand = \"{askdesk}\"\nargs = [\"mcp\"]\ntool_timeout_sec = 86400\n\n# Profiles",
            ),
        ),
        (
            ".cursor/mcp.json",
            CURSOR_MCP,
            CURSOR_MCP.replace(
                "} // browser\n",
                "}, // browser\n    \"askdesk\": {\n      \"command\": \"{askdesk}\",\n      \"args\": [\"mcp\"]\n    }\n",
            ),
        ),
    ]
}

/// The user files `product` writes.
fn of(product: &str) -> &'static [&'static str] {
    match product {
        "claude-code" => &[".claude.json", ".claude/settings.json"],
        "codex" => &[".codex/config.toml", ".codex/hooks.json"],
        _ => &[".cursor/mcp.json"],
    }
}

#[test]
fn each_agent_is_set_up_in_the_users_own_files_once_and_removed_again() {
    let askdesk = program();
    assert!(
        askdesk
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c)),
        "the expected texts below write the path unquoted: {askdesk}"
    );
    let home = tempfile::tempdir().expect("home");
    let home = home.path();
    for (path, original, _) in user_files() {
        write(&home.join(path), original);
        fs::set_permissions(home.join(path), fs::Permissions::from_mode(0o600)).expect("mode");
    }
    let everything = files(home);
    for product in ["claude-code", "codex", "cursor"] {
        let mine = of(product);
        let expected = |path: &str| {
            let (_, _, with) = user_files()
                .into_iter()
                .find(|(p, ..)| *p == path)
                .expect("a file");
            with.replace("{askdesk}", &askdesk)
        };
        let original = |path: &str| {
            user_files()
                .into_iter()
                .find(|(p, ..)| *p == path)
                .expect("a file")
                .1
        };

        // A dry run shows the diff and writes nothing.
        let shown = ok(home, home, &[product, "--dry-run"]);
        for path in mine {
            let full = home.join(path).display().to_string();
            assert!(
                shown.contains(&format!("--- {full}\n+++ {full}\n@@ ")),
                "{shown}"
            );
            assert_eq!(
                read(&home.join(path)),
                original(path),
                "{product}: a dry run wrote"
            );
        }
        assert!(shown.contains(&askdesk), "{shown}");
        assert!(
            shown.ends_with("Dry run: nothing was written.\n"),
            "{shown}"
        );

        // The real run adds askdesk, and nothing else moves.
        let said = ok(home, home, &[product]);
        for path in mine {
            assert_eq!(read(&home.join(path)), expected(path), "{product}: {path}");
            let mode = fs::metadata(home.join(path))
                .expect("file")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{path}: its permissions");
            assert!(
                said.contains(&format!("{}: added the ", home.join(path).display())),
                "{said}"
            );
        }
        assert_eq!(
            files(home),
            everything,
            "no file beside them, no temporary left"
        );

        // Again: nothing changes, and it says so.
        let again = ok(home, home, &[product]);
        assert!(
            again.contains("Nothing changed: askdesk is set up for"),
            "{again}"
        );
        let dry = ok(home, home, &[product, "--dry-run"]);
        assert!(dry.starts_with("Nothing would change"), "{dry}");
        for path in mine {
            assert_eq!(
                read(&home.join(path)),
                expected(path),
                "{product}: {path}, again"
            );
        }

        // Removing gives back exactly what was there.
        let removed = ok(home, home, &[product, "--remove"]);
        for path in mine {
            assert_eq!(
                read(&home.join(path)),
                original(path),
                "{product}: {path} after --remove"
            );
            assert!(
                removed.contains(&format!("{}: removed the ", home.join(path).display())),
                "{removed}"
            );
        }
        let none = ok(home, home, &[product, "--remove"]);
        assert!(
            none.contains("Nothing changed: askdesk is not set up for"),
            "{none}"
        );
    }
    assert_eq!(files(home), everything);
}

#[test]
fn project_files_are_made_in_the_current_directory_and_leave_with_askdesk() {
    let home = tempfile::tempdir().expect("home");
    let project = tempfile::tempdir().expect("project");
    let (home, project) = (home.path(), project.path());
    let askdesk = program();
    write(&project.join(".cursor/mcp.json"), CURSOR_MCP);

    let said = ok(home, project, &["claude-code", "--project"]);
    assert!(
        said.contains(&format!("{}: created", project.join(".mcp.json").display())),
        "{said}"
    );
    let mcp: serde_json::Value =
        serde_json::from_str(&read(&project.join(".mcp.json"))).expect("JSON");
    assert_eq!(mcp["mcpServers"]["askdesk"]["command"], askdesk.as_str());
    assert_eq!(
        mcp["mcpServers"]["askdesk"]["args"],
        serde_json::json!(["mcp"])
    );
    let settings: serde_json::Value =
        serde_json::from_str(&read(&project.join(".claude/settings.json"))).expect("JSON");
    let group = &settings["hooks"]["PreToolUse"][0];
    assert_eq!(group["matcher"], "AskUserQuestion");
    assert_eq!(
        group["hooks"][0]["command"],
        format!("{askdesk} hook claude-code")
    );
    assert_eq!(group["hooks"][0]["timeout"], 86400);
    assert!(
        said.contains("Note: Claude Code asks once before"),
        "{said}"
    );

    ok(home, project, &["codex", "--project"]);
    let codex = read(&project.join(".codex/config.toml"));
    assert_eq!(
        codex,
        format!("[mcp_servers.askdesk]\ncommand = \"{askdesk}\"\nargs = [\"mcp\"]\ntool_timeout_sec = 86400\n")
    );
    ok(home, project, &["cursor", "--project"]);
    assert!(read(&project.join(".cursor/mcp.json"))
        .starts_with("{\n  // Servers for every workspace.\n"));
    assert_eq!(
        files(home),
        Vec::<PathBuf>::new(),
        "the user's files are not touched"
    );

    // Files askdesk made hold nothing else: removing askdesk removes them.
    for product in ["claude-code", "codex", "cursor"] {
        ok(home, project, &[product, "--project", "--remove"]);
    }
    assert_eq!(files(project), [project.join(".cursor/mcp.json")]);
    assert_eq!(read(&project.join(".cursor/mcp.json")), CURSOR_MCP);
}

#[test]
fn claude_codes_and_codexs_folder_variables_move_their_files_and_home_is_not_needed() {
    let askdesk = program();
    let claude = tempfile::tempdir().expect("CLAUDE_CONFIG_DIR");
    let codex = tempfile::tempdir().expect("CODEX_HOME");
    let cwd = tempfile::tempdir().expect("somewhere else");
    // Each user file's place when its agent's variable names a folder.
    let moved = |path: &str| match path {
        ".claude.json" => claude.path().join(".claude.json"),
        ".claude/settings.json" => claude.path().join("settings.json"),
        ".codex/config.toml" => codex.path().join("config.toml"),
        ".codex/hooks.json" => codex.path().join("hooks.json"),
        _ => unreachable!("{path}"),
    };
    let env: [(&str, &Path); 2] = [
        ("CLAUDE_CONFIG_DIR", claude.path()),
        ("CODEX_HOME", codex.path()),
    ];
    for product in ["claude-code", "codex"] {
        let mine: Vec<_> = user_files()
            .into_iter()
            .filter(|(path, ..)| of(product).contains(path))
            .collect();
        for (path, original, _) in &mine {
            write(&moved(path), original);
        }
        let said = setup_with(&env, cwd.path(), &[product]);
        assert_eq!(
            said.code,
            Some(0),
            "{product}: {}{}",
            said.stdout,
            said.stderr
        );
        for (path, _, with) in &mine {
            let file = moved(path);
            assert_eq!(
                read(&file),
                with.replace("{askdesk}", &askdesk),
                "{product}: {path}"
            );
            assert!(
                said.stdout
                    .contains(&format!("{}: added the ", file.display())),
                "{}",
                said.stdout
            );
        }
        let removed = setup_with(&env, cwd.path(), &[product, "--remove"]);
        assert_eq!(removed.code, Some(0), "{}", removed.stderr);
        for (path, original, _) in &mine {
            assert_eq!(
                read(&moved(path)),
                *original,
                "{product}: {path} after --remove"
            );
        }
    }
    assert!(files(cwd.path()).is_empty(), "nothing written where it ran");

    // Cursor's file is in the home folder, which this run does not have.
    let refused = setup_with(&env, cwd.path(), &["cursor"]);
    assert_eq!(
        refused.code,
        Some(1),
        "{}{}",
        refused.stdout,
        refused.stderr
    );
    assert!(refused.stderr.contains("HOME"), "{}", refused.stderr);
}

#[test]
fn a_malformed_file_is_named_with_its_line_and_nothing_is_written() {
    let home = tempfile::tempdir().expect("home");
    let home = home.path();
    let broken = "{\n  \"model\": \"opus\",\n  \"hooks\": {\"PreToolUse\": [}\n}\n";
    write(&home.join(".claude/settings.json"), broken);
    write(&home.join(".claude.json"), CLAUDE_JSON);
    for args in [
        &["claude-code"][..],
        &["claude-code", "--dry-run"],
        &["claude-code", "--remove"],
    ] {
        let run = setup(home, home, args);
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stdout);
        let path = home.join(".claude/settings.json").display().to_string();
        assert!(
            run.stderr
                .contains(&format!("cannot read {path}, line 3, column ")),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains("no file was changed"), "{}", run.stderr);
        assert_eq!(read(&home.join(".claude/settings.json")), broken);
        assert_eq!(
            read(&home.join(".claude.json")),
            CLAUDE_JSON,
            "not even the good file"
        );
    }

    let toml = "model = \"o3\"\n\n[mcp_servers.docs\ncommand = \"x\"\n";
    write(&home.join(".codex/config.toml"), toml);
    let run = setup(home, home, &["codex"]);
    assert_eq!(run.code, Some(1));
    let path = home.join(".codex/config.toml").display().to_string();
    assert!(
        run.stderr
            .contains(&format!("cannot read {path}, line 3, column ")),
        "{}",
        run.stderr
    );
    assert_eq!(read(&home.join(".codex/config.toml")), toml);
}

#[test]
fn a_settings_file_that_is_a_link_stays_a_link() {
    let home = tempfile::tempdir().expect("home");
    let home = home.path();
    write(&home.join("dotfiles/cursor-mcp.json"), CURSOR_MCP);
    fs::create_dir_all(home.join(".cursor")).expect("folder");
    std::os::unix::fs::symlink(
        home.join("dotfiles/cursor-mcp.json"),
        home.join(".cursor/mcp.json"),
    )
    .expect("link");
    ok(home, home, &["cursor"]);
    let link = fs::symlink_metadata(home.join(".cursor/mcp.json")).expect("link");
    assert!(link.file_type().is_symlink());
    assert!(read(&home.join("dotfiles/cursor-mcp.json")).contains(&program()));
}

#[test]
fn ask_on_stop_adds_claude_codes_stop_hook_which_remove_takes_out_with_the_rest() {
    let home = tempfile::tempdir().expect("home");
    let cwd = tempfile::tempdir().expect("cwd");
    ok(home.path(), cwd.path(), &["claude-code", "--ask-on-stop"]);
    let settings: serde_json::Value =
        serde_json::from_str(&read(&home.path().join(".claude/settings.json"))).expect("JSON");
    let stop = &settings["hooks"]["Stop"][0]["hooks"][0];
    assert_eq!(
        stop["command"],
        format!("{} hook claude-code", program()),
        "{settings}"
    );
    assert_eq!(stop["timeout"], setup::STOP_SECONDS);
    assert!(settings["hooks"]["PreToolUse"].is_array(), "{settings}");
    // Run again without it: the Stop hook stays until askdesk is taken out.
    ok(home.path(), cwd.path(), &["claude-code"]);
    ok(home.path(), cwd.path(), &["claude-code", "--remove"]);
    let path = home.path().join(".claude/settings.json");
    let left = if path.exists() {
        read(&path)
    } else {
        String::new()
    };
    assert!(!left.contains("hook claude-code"), "{left}");
    // Codex has no such hook here: said, and nothing written.
    let run = setup(home.path(), cwd.path(), &["codex", "--ask-on-stop"]);
    assert_ne!(run.code, Some(0));
    assert!(
        run.stderr.contains("--ask-on-stop is for claude-code only"),
        "{}",
        run.stderr
    );
    assert!(!home.path().join(".codex").exists());
}

#[test]
fn opencode_gets_its_server_and_a_plugin_of_askdesks_own_which_never_replaces_anothers() {
    let askdesk = program();
    let home = tempfile::tempdir().expect("home");
    let xdg = tempfile::tempdir().expect("XDG_CONFIG_HOME");
    let project = tempfile::tempdir().expect("project");
    let (home, xdg, project) = (home.path(), xdg.path(), project.path());
    let config = "{\n  // mine\n  \"theme\": \"tokyonight\"\n}\n";
    write(&home.join(".config/opencode/opencode.json"), config);

    let said = ok(home, project, &["opencode"]);
    let plugin = home.join(".config/opencode/plugins/askdesk.js");
    assert!(
        said.contains(&format!("{}: added askdesk's plugin", plugin.display())),
        "{said}"
    );
    assert!(said.contains("opencode --port 0"), "{said}");
    let text = read(&plugin);
    assert!(
        text.contains(&format!("const ASKDESK = \"{askdesk}\";")),
        "{text}"
    );
    assert_eq!(
        read(&home.join(".config/opencode/opencode.json")),
        format!("{{\n  // mine\n  \"theme\": \"tokyonight\",\n  \"mcp\": {{\n    \"askdesk\": {{\n      \"type\": \"local\",\n      \"command\": [\"{askdesk}\", \"mcp\"]\n    }}\n  }}\n}}\n")
    );
    let again = ok(home, project, &["opencode"]);
    assert!(again.contains("Nothing changed"), "{again}");
    ok(home, project, &["opencode", "--remove"]);
    assert!(!plugin.exists());
    assert_eq!(read(&home.join(".config/opencode/opencode.json")), config);

    // XDG_CONFIG_HOME moves OpenCode's folder.
    let moved = setup_with(
        &[("HOME", home), ("XDG_CONFIG_HOME", xdg)],
        project,
        &["opencode"],
    );
    assert_eq!(moved.code, Some(0), "{}", moved.stderr);
    assert!(xdg.join("opencode/plugins/askdesk.js").exists());
    assert!(xdg.join("opencode/opencode.json").exists());
    assert!(files(project).is_empty(), "nothing written where it ran");

    // A project's plugin folder holding a file of that name that is not
    // askdesk's: refused, and nothing is written, its config neither.
    let theirs = "export const Askdesk = async () => ({}); // mine\n";
    write(&project.join(".opencode/plugins/askdesk.js"), theirs);
    let refused = setup(home, project, &["opencode", "--project"]);
    assert_eq!(
        refused.code,
        Some(1),
        "{}{}",
        refused.stdout,
        refused.stderr
    );
    assert!(
        refused.stderr.contains("askdesk setup did not write it"),
        "{}",
        refused.stderr
    );
    assert_eq!(read(&project.join(".opencode/plugins/askdesk.js")), theirs);
    assert!(!project.join("opencode.json").exists());
    let refused = setup(home, project, &["opencode", "--project", "--remove"]);
    assert_eq!(refused.code, Some(1));
    assert_eq!(read(&project.join(".opencode/plugins/askdesk.js")), theirs);
    fs::remove_file(project.join(".opencode/plugins/askdesk.js")).expect("removed");
    let made = ok(home, project, &["opencode", "--project"]);
    assert!(
        project.join(".opencode/plugins/askdesk.js").exists(),
        "{made}"
    );
    assert!(project.join("opencode.json").exists(), "{made}");
}

//! Permission prompts as asks: `askdesk hook claude-code` given Claude
//! Code's `PermissionRequest` event and `askdesk hook codex` given Codex's,
//! as each product runs its hook: the binary, recorded payloads of the
//! documented shapes on stdin, a real server, stdout checked as JSON
//! exactly. How prompts end without an answer, retries, the prompts left
//! alone and no desk are in [`edges`].

mod edges;

use crate::common::{args, by_api};
use desk::Desk;
use interaction::{Answers, AskStatus};
use serde_json::{json, Value};
use std::{process::Stdio, time::Duration};
use tokio::io::AsyncWriteExt;
use tokio_util::sync::CancellationToken;

/// A server on a free loopback port, and its desk for playing the person.
pub(crate) async fn server() -> (String, Desk, CancellationToken) {
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    let shutdown = CancellationToken::new();
    let started = crate::common::start(&settings, shutdown.clone())
        .await
        .expect("server");
    (format!("http://{}", started.addr), started.desk, shutdown)
}

/// Claude Code's `PermissionRequest` input, as its hooks reference shows
/// it: no `tool_use_id`, and the dialog's "always allow" entries.
fn claude_code(tool_name: &str, tool_input: Value, suggestions: Value) -> Value {
    json!({
        "session_id": "abc123",
        "transcript_path": "/home/me/.claude/projects/x/abc123.jsonl",
        "cwd": "/home/me/src/askdesk",
        "permission_mode": "default",
        "hook_event_name": "PermissionRequest",
        "tool_name": tool_name,
        "tool_input": tool_input,
        "permission_suggestions": suggestions
    })
}

/// Codex's `PermissionRequest` input, as its hook schema has it: a turn,
/// the model, and a shell command with its justification.
fn codex(command: &str) -> Value {
    json!({
        "session_id": "019fac90-fbcb-7121-a9dc-5b4e866eb680",
        "turn_id": "019fac91-dcc4-7492-9d4a-6d796117fa13",
        "transcript_path": null,
        "cwd": "/home/me/src/askdesk",
        "hook_event_name": "PermissionRequest",
        "model": "gpt-5",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Clean the build output"}
    })
}

fn rm_rf() -> Value {
    json!({"command": "rm -rf node_modules", "description": "Remove node_modules directory"})
}

fn bash_rule() -> Value {
    json!([{
        "type": "addRules",
        "rules": [{"toolName": "Bash", "ruleContent": "rm -rf node_modules"}],
        "behavior": "allow",
        "destination": "localSettings"
    }])
}

/// Runs `askdesk hook <product>` with `stdin` against `url`; returns its
/// stdout (trimmed) and stderr, after checking it exited 0 as a hook must.
pub(crate) async fn run_hook(product: &str, url: &str, stdin: String) -> (String, String) {
    let (_, done) = start_hook(product, url, stdin);
    done.await.expect("hook")
}

/// Starts the hook: the line where it names its ask (sent once it has
/// one), and its output once it ends.
fn start_hook(
    product: &str,
    url: &str,
    stdin: String,
) -> (
    tokio::sync::oneshot::Receiver<String>,
    tokio::task::JoinHandle<(String, String)>,
) {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt};
    let (tell, told) = tokio::sync::oneshot::channel();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"))
        .args(["hook", product])
        .env("ASKDESK_URL", url)
        .env_remove("ASKDESK_TOKEN")
        .env("ASKDESK_DATABASE", ":memory:")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("askdesk runs");
    let done = tokio::spawn(async move {
        let mut input = child.stdin.take().expect("stdin");
        input.write_all(stdin.as_bytes()).await.expect("write");
        drop(input);
        let mut stdout = child.stdout.take().expect("stdout");
        let mut lines = tokio::io::BufReader::new(child.stderr.take().expect("stderr")).lines();
        let read = async {
            let mut tell = Some(tell);
            let mut stderr = String::new();
            while let Some(line) = lines.next_line().await.expect("stderr") {
                if line.contains("answer at") {
                    if let Some(tell) = tell.take() {
                        let _ = tell.send(line.clone());
                    }
                }
                stderr.push_str(&line);
                stderr.push('\n');
            }
            let mut out = String::new();
            stdout.read_to_string(&mut out).await.expect("stdout");
            let status = child.wait().await.expect("exit");
            assert!(status.success(), "a hook always exits 0");
            (out.trim().to_owned(), stderr)
        };
        tokio::time::timeout(Duration::from_secs(60), read)
            .await
            .expect("the hook ends")
    });
    (told, done)
}

/// Starts the hook; its output once it ends.
fn spawn_hook(
    product: &str,
    url: &str,
    payload: &Value,
) -> tokio::task::JoinHandle<(String, String)> {
    start_hook(product, url, payload.to_string()).1
}

/// The ids of the pending asks, once there are `count` of them.
async fn pending(desk: &Desk, count: usize) -> Vec<String> {
    let appear = async {
        loop {
            let asks = desk
                .list(Some(AskStatus::Pending), &desk::Caller::Unnamed)
                .await
                .expect("list");
            if asks.len() >= count {
                return asks.into_iter().map(|a| a.id).collect();
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(30), appear)
        .await
        .expect("the hook put the prompt to the desk")
}

async fn choose(desk: &Desk, id: &str, item: Value) {
    let answers: Answers = serde_json::from_value(json!({"answers": [item]})).expect("answers");
    desk.answer(id, answers, &by_api()).await.expect("answered");
}

fn decision(decision: Value) -> Value {
    json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}})
}

fn parsed(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("JSON on stdout ({e}): {stdout:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_once_lets_the_command_run_and_the_ask_says_who_where_and_what() {
    let (url, desk, _shutdown) = server().await;
    let hook = spawn_hook(
        "claude-code",
        &url,
        &claude_code("Bash", rm_rf(), bash_rule()),
    );
    let id = pending(&desk, 1).await.remove(0);
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(ask.agent.as_deref(), Some("Claude Code · askdesk"));
    assert_eq!(ask.title.as_deref(), Some("Bash: rm -rf node_modules"));
    let question = &ask.request.questions()[0];
    assert_eq!(
        question.question,
        "Claude Code wants to run this command in /home/me/src/askdesk. It says why: Remove \
         node_modules directory. Anything typed under Other denies it and is sent to Claude \
         Code as the reason."
    );
    assert!(!question.multi_select);
    let options: Vec<(&str, Option<&str>, Option<&str>)> = question
        .options
        .iter()
        .map(|o| {
            (
                o.label.as_str(),
                o.description.as_deref(),
                o.preview.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        options,
        [
            (
                "Allow once",
                Some("Claude Code goes ahead this time and asks again next time."),
                Some("rm -rf node_modules")
            ),
            (
                "Always allow",
                Some(
                    "Claude Code goes ahead, and from now on: allow Bash(rm -rf node_modules) \
                     in this project's local settings."
                ),
                None
            ),
            (
                "Deny",
                Some("Claude Code does not go ahead, and is told you said no."),
                None
            ),
        ]
    );
    choose(
        &desk,
        &id,
        json!({"id": "permission", "selected": ["Allow once"]}),
    )
    .await;
    let (stdout, stderr) = hook.await.expect("hook");
    assert!(stderr.contains(&format!("/asks/{id}")), "{stderr}");
    assert_eq!(parsed(&stdout), decision(json!({"behavior": "allow"})));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn always_allow_gives_back_the_suggestions_the_event_brought() {
    let (url, desk, _shutdown) = server().await;
    let hook = spawn_hook(
        "claude-code",
        &url,
        &claude_code("Bash", rm_rf(), bash_rule()),
    );
    let id = pending(&desk, 1).await.remove(0);
    choose(
        &desk,
        &id,
        json!({"id": "permission", "selected": ["Always allow"]}),
    )
    .await;
    let (stdout, _) = hook.await.expect("hook");
    assert_eq!(
        parsed(&stdout),
        decision(json!({"behavior": "allow", "updatedPermissions": bash_rule()}))
    );

    // Codex's own suggestions: prefix rules, from versions that apply them.
    let rule = json!([{
        "type": "addRules",
        "rules": [{"type": "prefixRule", "command": ["cargo", "test"]}],
        "behavior": "allow",
        "destination": "userSettings"
    }]);
    let mut event = codex("cargo test -p server");
    event["permission_suggestions"] = rule.clone();
    let hook = spawn_hook("codex", &url, &event);
    let id = pending(&desk, 1).await.remove(0);
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(ask.agent.as_deref(), Some("Codex · askdesk"));
    assert_eq!(
        ask.request.questions()[0].options[1].description.as_deref(),
        Some(
            "Codex goes ahead, and from now on: allow commands starting with `cargo test` in \
             your user settings."
        )
    );
    choose(
        &desk,
        &id,
        json!({"id": "permission", "selected": ["Always allow"]}),
    )
    .await;
    let (stdout, _) = hook.await.expect("hook");
    assert_eq!(
        parsed(&stdout),
        decision(json!({"behavior": "allow", "updatedPermissions": rule}))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_text_denies_with_the_persons_words_and_deny_says_no() {
    let (url, desk, _shutdown) = server().await;
    // Codex's documented input has no suggestions: no Always allow.
    let hook = spawn_hook("codex", &url, &codex("rm -rf ./build"));
    let id = pending(&desk, 1).await.remove(0);
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    let labels: Vec<&str> = ask.request.questions()[0]
        .options
        .iter()
        .map(|o| o.label.as_str())
        .collect();
    assert_eq!(labels, ["Allow once", "Deny"]);
    choose(
        &desk,
        &id,
        json!({"id": "permission", "custom": "Only ./build/tmp, please"}),
    )
    .await;
    let (stdout, _) = hook.await.expect("hook");
    assert_eq!(
        parsed(&stdout),
        decision(json!({
            "behavior": "deny",
            "message": "The user denied this at askdesk, writing: \"Only ./build/tmp, please\""
        }))
    );

    let hook = spawn_hook("codex", &url, &codex("rm -rf ./dist"));
    let id = pending(&desk, 1).await.remove(0);
    choose(
        &desk,
        &id,
        json!({"id": "permission", "selected": ["Deny"]}),
    )
    .await;
    let (stdout, _) = hook.await.expect("hook");
    assert_eq!(
        parsed(&stdout),
        decision(json!({"behavior": "deny", "message": "The user denied this at askdesk."}))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_shows_its_change_as_a_diff_and_a_write_from_nothing() {
    let (url, desk, _shutdown) = server().await;
    let folder = tempfile::tempdir().expect("folder");
    let file = folder.path().join("main.rs");
    std::fs::write(&file, "fn main() {\n    println!(\"hi\");\n}\n").expect("write");
    let path = file.display().to_string();
    let edit = json!({"file_path": path, "old_string": "\"hi\"", "new_string": "\"hello\""});
    let hook = spawn_hook("claude-code", &url, &claude_code("Edit", edit, json!([])));
    let id = pending(&desk, 1).await.remove(0);
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(ask.title, Some(format!("Edit: {path}")));
    let question = &ask.request.questions()[0];
    assert!(
        question
            .question
            .starts_with(&format!("Claude Code wants to edit {path} in ")),
        "{}",
        question.question
    );
    assert_eq!(
        question.options[0].preview.as_deref(),
        Some(
            format!(
                "--- {path}\n+++ {path}\n@@ -1,3 +1,3 @@\n fn main() {{\n-    println!(\"hi\");\n\
                 +    println!(\"hello\");\n }}\n"
            )
            .as_str()
        )
    );
    // The page shows it as it is: monospace, its lines kept.
    let page = reqwest::get(&ask.url)
        .await
        .expect("the page")
        .text()
        .await
        .expect("its text");
    let shown = format!(
        "<pre dir=\"auto\" class=\"option-preview\">--- {path}\n+++ {path}\n@@ -1,3 +1,3 @@"
    );
    assert!(page.contains(&shown), "{page}");
    choose(
        &desk,
        &id,
        json!({"id": "permission", "selected": ["Deny"]}),
    )
    .await;
    let (stdout, _) = hook.await.expect("hook");
    assert_eq!(
        parsed(&stdout),
        decision(json!({"behavior": "deny", "message": "The user denied this at askdesk."}))
    );

    let new_file = folder.path().join("notes.md").display().to_string();
    let write = json!({"file_path": new_file, "content": "# Notes\n"});
    let hook = spawn_hook("claude-code", &url, &claude_code("Write", write, json!([])));
    let id = pending(&desk, 1).await.remove(0);
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(
        ask.request.questions()[0].options[0].preview.as_deref(),
        Some(format!("--- /dev/null\n+++ {new_file}\n@@ -0,0 +1 @@\n+# Notes\n").as_str())
    );
    choose(
        &desk,
        &id,
        json!({"id": "permission", "selected": ["Allow once"]}),
    )
    .await;
    let (stdout, _) = hook.await.expect("hook");
    assert_eq!(parsed(&stdout), decision(json!({"behavior": "allow"})));
}

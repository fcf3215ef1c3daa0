//! `askdesk hook claude-code` as Claude Code runs it: the binary, recorded
//! payloads of the documented shape on stdin, a real server, and stdout
//! checked as JSON exactly.

use crate::common::args;
use desk::Desk;
use interaction::{Answers, Decline};
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

fn payload(tool_use_id: &str, questions: Value) -> Value {
    json!({
        "session_id": "abc123",
        "transcript_path": "/home/me/.claude/projects/x/abc123.jsonl",
        "cwd": "/home/me/src/askdesk",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "AskUserQuestion",
        "tool_input": {"questions": questions},
        "tool_use_id": tool_use_id
    })
}

fn release_questions() -> Value {
    json!([
        {"question": "Which features should ship?", "header": "Features", "multiSelect": true,
         "options": [{"label": "Auth", "description": "Sign-in"}, {"label": "Logging", "description": "Logs"}]},
        {"question": "Which database?", "header": "Database", "multiSelect": false,
         "options": [{"label": "SQLite", "description": "Embedded"}, {"label": "PostgreSQL", "description": "Server"}]}
    ])
}

/// Runs the hook with `stdin` against `url`; returns its stdout (trimmed)
/// and stderr, after checking it exited 0 as a hook must.
pub(crate) async fn run_hook(url: &str, stdin: String) -> (String, String) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"))
        .args(["hook", "claude-code"])
        .env("ASKDESK_URL", url)
        .env_remove("ASKDESK_TOKEN")
        .env("ASKDESK_DATABASE", ":memory:")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("askdesk runs");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.as_bytes()).await.expect("write");
    drop(input);
    let output = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("the hook ends")
        .expect("output");
    assert!(output.status.success(), "a hook always exits 0");
    (
        String::from_utf8_lossy(&output.stdout).trim().to_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The pending ask the hook made, once it is there.
pub(crate) async fn pending(desk: &Desk) -> String {
    let appears = async {
        loop {
            let asks = desk
                .list(
                    Some(interaction::AskStatus::Pending),
                    &desk::Caller::Unnamed,
                )
                .await
                .expect("list");
            if let Some(ask) = asks.first() {
                return ask.id.clone();
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(30), appears)
        .await
        .expect("the hook put its questions to the desk")
}

pub(crate) fn answers(value: Value) -> Answers {
    serde_json::from_value(json!({ "answers": value })).expect("answers")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_comes_back_in_claude_codes_format_with_askdesks_projection() {
    let (url, desk, _shutdown) = server().await;
    let stdin = payload("toolu_01", release_questions()).to_string();
    let hook = tokio::spawn({
        let url = url.clone();
        async move { run_hook(&url, stdin).await }
    });
    let id = pending(&desk).await;
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(ask.agent.as_deref(), Some("Claude Code · askdesk"));
    let answered = desk
        .answer(
            &id,
            answers(json!([
                {"id": "q1", "selected": ["Logging", "Auth"], "custom": "Rate limiting"},
                {"id": "q2", "selected": [], "custom": "DuckDB"}
            ])),
            &crate::common::by_api(),
        )
        .await
        .expect("answered");
    let (stdout, stderr) = hook.await.expect("hook");
    assert!(stderr.contains(&format!("/asks/{id}")), "{stderr}");
    let output: Value = serde_json::from_str(&stdout).expect("JSON on stdout");
    assert_eq!(
        output,
        json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": {
                "questions": release_questions(),
                "answers": {
                    "Which features should ship?": "Auth, Logging, Rate limiting",
                    "Which database?": "DuckDB"
                }
            },
            "additionalContext": answered.projection.expect("projection").text
        }})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_optionless_question_is_answered_with_its_text() {
    let (url, desk, _shutdown) = server().await;
    let questions = json!([{"question": "Anything else?", "header": "Notes", "options": [], "multiSelect": false}]);
    let stdin = payload("toolu_02", questions.clone()).to_string();
    let hook = tokio::spawn({
        let url = url.clone();
        async move { run_hook(&url, stdin).await }
    });
    let id = pending(&desk).await;
    desk.answer(
        &id,
        answers(json!([{"id": "q1", "selected": [], "custom": "Ship on Friday"}])),
        &crate::common::by_api(),
    )
    .await
    .expect("answered");
    let (stdout, _) = hook.await.expect("hook");
    let output: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(
        output["hookSpecificOutput"]["updatedInput"]["answers"],
        json!({"Anything else?": "Ship on Friday"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decline_and_a_cancel_deny_the_tool_saying_why() {
    let (url, desk, _shutdown) = server().await;
    for (tool_use_id, declined) in [("toolu_03", true), ("toolu_04", false)] {
        let stdin = payload(tool_use_id, release_questions()).to_string();
        let hook = tokio::spawn({
            let url = url.clone();
            async move { run_hook(&url, stdin).await }
        });
        let id = pending(&desk).await;
        if declined {
            let reason = Some("Ask me tomorrow".to_owned());
            desk.decline(&id, Decline { reason }, &crate::common::by_api())
                .await
                .expect("declined");
        } else {
            desk.cancel(&id, &crate::common::by_api())
                .await
                .expect("cancelled");
        }
        let (stdout, _) = hook.await.expect("hook");
        let output: Value = serde_json::from_str(&stdout).expect("JSON");
        let reason = if declined {
            "The user declined to answer at askdesk: \"Ask me tomorrow\""
        } else {
            "The question was cancelled at askdesk before the user answered."
        };
        assert_eq!(
            output,
            json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason
            }})
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_tool_use_id_twice_reattaches_to_one_ask() {
    let (url, desk, _shutdown) = server().await;
    let stdin = payload("toolu_05", release_questions()).to_string();
    let first = tokio::spawn({
        let (url, stdin) = (url.clone(), stdin.clone());
        async move { run_hook(&url, stdin).await }
    });
    let id = pending(&desk).await;
    let second = tokio::spawn({
        let url = url.clone();
        async move { run_hook(&url, stdin).await }
    });
    // Whether the second hook finds the ask before or after it is
    // answered, it attaches to it: one ask, one answer, for both.
    desk.answer(
        &id,
        answers(json!([{"id": "q1", "selected": ["Auth"]}, {"id": "q2", "selected": ["SQLite"]}])),
        &crate::common::by_api(),
    )
    .await
    .expect("answered");
    let (one, _) = first.await.expect("hook");
    let (two, _) = second.await.expect("hook");
    assert_eq!(one, two);
    assert_eq!(
        desk.list(None, &desk::Caller::Unnamed)
            .await
            .expect("list")
            .len(),
        1
    );
}

#[tokio::test]
async fn other_tools_bad_input_and_no_desk_print_nothing_so_claude_code_asks_itself() {
    let (url, desk, _shutdown) = server().await;
    let mut other = payload("toolu_06", release_questions());
    other["tool_name"] = json!("Bash");
    let (stdout, stderr) = run_hook(&url, other.to_string()).await;
    assert_eq!((stdout.as_str(), stderr.as_str()), ("", ""));
    let (stdout, stderr) = run_hook(&url, "not json".to_owned()).await;
    assert_eq!(stdout, "");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    // An event askdesk does not answer, even one carrying the tool's call,
    // is said in one line and left to Claude Code.
    let mut later = payload("toolu_08", release_questions());
    later["hook_event_name"] = json!("PostToolUse");
    let (stdout, stderr) = run_hook(&url, later.to_string()).await;
    assert_eq!(stdout, "");
    assert!(
        stderr
            .trim()
            .ends_with("not PostToolUse; Claude Code asks as usual"),
        "{stderr}"
    );
    let mut unnamed = payload("toolu_09", release_questions());
    unnamed
        .as_object_mut()
        .expect("an object")
        .remove("hook_event_name");
    let (stdout, stderr) = run_hook(&url, unnamed.to_string()).await;
    assert_eq!(
        (stdout.as_str(), stderr.trim().lines().count()),
        ("", 1),
        "{stderr}"
    );
    // https on a port where nothing listens: nothing answers, and a server
    // of askdesk's own (plain http) cannot stand in.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let stdin = payload("toolu_07", release_questions()).to_string();
    let (stdout, stderr) = run_hook(&format!("https://127.0.0.1:{closed}"), stdin).await;
    assert_eq!(stdout, "", "{stderr}");
    assert!(stderr.contains("Claude Code asks as usual"), "{stderr}");
    assert!(desk
        .list(None, &desk::Caller::Unnamed)
        .await
        .expect("list")
        .is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agents_last_words_from_its_transcript_stand_above_the_questions() {
    use std::io::Write;
    let (url, desk, _shutdown) = server().await;
    let mut transcript = tempfile::NamedTempFile::new().expect("transcript");
    for entry in [
        json!({"type": "user", "message": {"role": "user", "content": "Tidy the tests"}}),
        json!({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "I moved the tests under tests/.\nTwo of them are slow."}]}}),
        json!({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_09", "name": "AskUserQuestion", "input": {}}]}}),
    ] {
        writeln!(transcript, "{entry}").expect("write");
    }
    let mut input = payload("toolu_09", release_questions());
    input["transcript_path"] = json!(transcript.path());
    let hook = tokio::spawn({
        let url = url.clone();
        async move { run_hook(&url, input.to_string()).await }
    });
    let id = pending(&desk).await;
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(
        ask.request.context(),
        Some("I moved the tests under tests/.\nTwo of them are slow.")
    );
    desk.cancel(&id, &crate::common::by_api())
        .await
        .expect("cancelled");
    hook.await.expect("hook");
}

//! Codex's `request_user_input` (plan mode's question) through its
//! `PreToolUse` hook, with the real binary: the questions asked at the
//! desk, and the answer back as the hook's denial reason in the tool's
//! own response shape, labels and typed text together.

use crate::common::by_api;
use interaction::Answers;
use serde_json::{json, Value};

/// Codex's `PreToolUse` input for a `request_user_input` call (the
/// tool's arguments as `tool_input`, openai/codex's
/// `codex-rs/tools/src/request_user_input_tool.rs`).
fn event() -> Value {
    json!({
        "session_id": "019a-session", "transcript_path": null, "cwd": "/home/ann/shop",
        "hook_event_name": "PreToolUse", "model": "gpt-5-codex", "permission_mode": "default",
        "turn_id": "turn-1", "tool_use_id": "call_ruI1", "tool_name": "request_user_input",
        "tool_input": {"questions": [
            {"id": "db", "header": "Database", "question": "Which database?",
             "options": [{"label": "SQLite (Recommended)", "description": "One file"},
                         {"label": "PostgreSQL", "description": "A server"}]},
            {"id": "scope", "header": "Scope", "question": "What ships first?",
             "options": [{"label": "API", "description": "The endpoints"},
                         {"label": "UI", "description": "The pages"}]}]}
    })
}

/// `askdesk hook codex` with `stdin`: what it printed on stdout.
async fn hook(url: String, stdin: String) -> String {
    crate::permission::run_hook("codex", &url, stdin).await.0
}

/// The denial's reason the hook printed.
fn reason(stdout: &str) -> String {
    let printed: Value = serde_json::from_str(stdout).expect("JSON on stdout");
    let output = &printed["hookSpecificOutput"];
    assert_eq!(output["hookEventName"], "PreToolUse");
    assert_eq!(output["permissionDecision"], "deny");
    output["permissionDecisionReason"]
        .as_str()
        .expect("a reason")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_answer_reaches_codexs_model_in_the_tools_response_shape() {
    let (url, desk, _shutdown) = crate::permission::server().await;
    let running = tokio::spawn(hook(url, event().to_string()));
    let id = crate::hook::pending(&desk).await;
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(ask.agent.as_deref(), Some("Codex · shop"));
    let ids: Vec<_> = ask
        .request
        .questions()
        .iter()
        .map(|q| q.id.clone())
        .collect();
    assert_eq!(ids, ["db", "scope"]);
    let answers: Answers = serde_json::from_value(json!({"answers": [
        {"id": "db", "selected": ["SQLite (Recommended)"]},
        {"id": "scope", "selected": [], "custom": "Both, API first"}]}))
    .expect("answers");
    desk.answer(&id, answers, &by_api())
        .await
        .expect("answered");
    let reason = reason(&running.await.expect("hook"));
    let response = r#"{"answers":{"db":{"answers":["SQLite (Recommended)"]},"scope":{"answers":["user_note: Both, API first"]}}}"#;
    assert!(reason.contains(response), "{reason}");
    assert!(
        reason.contains("Do not ask these questions again"),
        "{reason}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decline_says_so_and_other_tools_are_left_to_codex() {
    let (url, desk, _shutdown) = crate::permission::server().await;
    let running = tokio::spawn(hook(url.clone(), event().to_string()));
    let id = crate::hook::pending(&desk).await;
    let decline = serde_json::from_value(json!({"reason": "not now"})).expect("a decline");
    desk.decline(&id, decline, &by_api())
        .await
        .expect("declined");
    let reason = reason(&running.await.expect("hook"));
    assert!(
        reason.contains("declined to answer at askdesk: \"not now\""),
        "{reason}"
    );
    let mut shell = event();
    shell["tool_name"] = json!("shell");
    shell["tool_input"] = json!({"command": ["ls"]});
    assert_eq!(hook(url, shell.to_string()).await, "");
}

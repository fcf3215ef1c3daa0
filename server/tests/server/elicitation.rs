//! `askdesk hook claude-code` on Claude Code's `Elicitation` event: another
//! MCP server's form asked at the desk, the binary fed the documented
//! payload, a real server, and the content checked typed.

use crate::hook::{answers, pending, run_hook, server};
use interaction::Decline;
use serde_json::{json, Value};

/// The payload, with the schema written as a server sends it (its
/// properties in their own order, not alphabetical).
fn payload(id: &str) -> String {
    format!(
        r#"{{"session_id": "abc123", "transcript_path": "/nonexistent/abc123.jsonl",
            "cwd": "/home/me/src/askdesk", "hook_event_name": "Elicitation",
            "mcp_server_name": "deploy", "message": "Confirm the rollout.", "mode": "form",
            "elicitation_id": "{id}",
            "requested_schema": {{"type": "object", "properties": {{
                "region": {{"type": "string", "title": "Region",
                            "oneOf": [{{"const": "eu-1", "title": "Europe"}}, {{"const": "us-1", "title": "US"}}]}},
                "replicas": {{"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 9, "default": 3}},
                "canary": {{"type": "boolean", "title": "Canary first"}},
                "note": {{"type": "string", "description": "A note for the log"}}
            }}, "required": ["region", "replicas", "canary"]}}}}"#
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_is_asked_at_the_desk_and_its_content_comes_back_typed() {
    let (url, desk, _shutdown) = server().await;
    let stdin = payload("elicit-1");
    let hook = tokio::spawn({
        let url = url.clone();
        async move { run_hook(&url, stdin).await }
    });
    let id = pending(&desk).await;
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(ask.title.as_deref(), Some("deploy: Confirm the rollout."));
    let ids: Vec<&str> = ask
        .request
        .questions()
        .iter()
        .map(|q| q.id.as_str())
        .collect();
    assert_eq!(ids, ["region", "replicas", "canary", "note"]);
    assert_eq!(
        ask.request.questions()[1].format.as_deref(),
        Some("integer")
    );
    desk.answer(
        &id,
        answers(json!([
            {"id": "region", "selected": ["Europe"]},
            {"id": "replicas", "selected": [], "custom": "4"},
            {"id": "canary", "selected": ["Yes"]},
            {"id": "note", "selected": ["Leave empty"]}
        ])),
        &crate::common::by_api(),
    )
    .await
    .expect("answered");
    let (stdout, _) = hook.await.expect("hook");
    let output: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(
        output,
        json!({"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept",
            "content": {"region": "eu-1", "replicas": 4, "canary": true}}})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decline_and_a_withdrawal_say_so_and_what_cannot_be_asked_prints_nothing() {
    let (url, desk, _shutdown) = server().await;
    for (n, declines) in [(1, true), (2, false)] {
        let stdin = payload(&format!("elicit-end-{n}"));
        let hook = tokio::spawn({
            let url = url.clone();
            async move { run_hook(&url, stdin).await }
        });
        let id = pending(&desk).await;
        if declines {
            desk.decline(&id, Decline { reason: None }, &crate::common::by_api())
                .await
                .expect("declined");
        } else {
            desk.cancel(&id, &crate::common::by_api())
                .await
                .expect("cancelled");
        }
        let (stdout, _) = hook.await.expect("hook");
        let output: Value = serde_json::from_str(&stdout).expect("JSON");
        let action = if declines { "decline" } else { "cancel" };
        assert_eq!(
            output,
            json!({"hookSpecificOutput": {"hookEventName": "Elicitation", "action": action}})
        );
    }
    let url_mode = json!({"hook_event_name": "Elicitation", "mcp_server_name": "pay",
        "message": "Pay", "mode": "url", "url": "https://pay.example/x"});
    let (stdout, stderr) = run_hook(&url, url_mode.to_string()).await;
    assert_eq!(stdout, "");
    assert!(stderr.contains("url mode"), "{stderr}");
    assert!(desk
        .list(
            Some(interaction::AskStatus::Pending),
            &desk::Caller::Unnamed
        )
        .await
        .expect("list")
        .is_empty());
}

//! `askdesk hook claude-code` on Claude Code's `Stop` event: "what next?"
//! at the desk, the binary fed the documented payload, a real server.

use crate::hook::{answers, pending, run_hook, server};
use interaction::Decline;
use serde_json::{json, Value};

fn payload(message: &str) -> String {
    json!({
        "session_id": "abc123",
        "transcript_path": "/home/me/.claude/projects/x/abc123.jsonl",
        "cwd": "/home/me/src/askdesk",
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": false,
        "last_assistant_message": message
    })
    .to_string()
}

/// Runs the Stop hook while `person` acts on its ask; stdout.
async fn stop_while<F, Fut>(message: &str, person: F) -> String
where
    F: FnOnce(desk::Desk, String) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let (url, desk, _shutdown) = server().await;
    let stdin = payload(message);
    let hook = tokio::spawn(async move { run_hook(&url, stdin).await });
    let id = pending(&desk).await;
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(ask.title.as_deref(), Some("What next?"));
    assert_eq!(ask.request.context(), Some(message));
    assert!(
        ask.expires_at.is_some(),
        "nobody answering lets the agent stop"
    );
    person(desk, id).await;
    hook.await.expect("hook").0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_text_goes_on_as_the_agents_next_instruction() {
    let stdout = stop_while("All tests pass.", |desk, id| async move {
        desk.answer(
            &id,
            answers(json!([{"id": "next", "selected": [], "custom": "Now update the README"}])),
            &crate::common::by_api(),
        )
        .await
        .expect("answered");
    })
    .await;
    let output: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(
        output,
        json!({"decision": "block", "reason": "Now update the README"})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn done_a_decline_or_a_withdrawal_let_the_agent_stop() {
    let done = stop_while("Finished.", |desk, id| async move {
        desk.answer(
            &id,
            answers(json!([{"id": "next", "selected": ["Done"]}])),
            &crate::common::by_api(),
        )
        .await
        .expect("answered");
    })
    .await;
    assert_eq!(done, "");
    let declined = stop_while("Finished.", |desk, id| async move {
        desk.decline(&id, Decline { reason: None }, &crate::common::by_api())
            .await
            .expect("declined");
    })
    .await;
    assert_eq!(declined, "");
    let cancelled = stop_while("Finished.", |desk, id| async move {
        desk.cancel(&id, &crate::common::by_api())
            .await
            .expect("cancelled");
    })
    .await;
    assert_eq!(cancelled, "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_named_as_the_transcript_is_no_transcript_and_the_hook_goes_on() {
    let dir = tempfile::tempdir().expect("a folder");
    let fifo = dir.path().join("abc123.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo");
    // Without the agent's last words the hook reads the transcript, which
    // would wait for a writer that never comes.
    let stdin = json!({
        "session_id": "abc123",
        "transcript_path": fifo,
        "cwd": "/home/me/src/askdesk",
        "hook_event_name": "Stop",
        "stop_hook_active": false
    })
    .to_string();
    let (url, desk, _shutdown) = server().await;
    let hook = tokio::spawn(async move { run_hook(&url, stdin).await });
    // The ask appears within `pending`'s time: the FIFO was not waited on.
    let id = pending(&desk).await;
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(ask.title.as_deref(), Some("What next?"));
    assert_eq!(ask.request.context(), None);
    desk.cancel(&id, &crate::common::by_api())
        .await
        .expect("cancelled");
    let (stdout, _) = tokio::time::timeout(std::time::Duration::from_secs(30), hook)
        .await
        .expect("the hook ends")
        .expect("hook");
    assert_eq!(stdout, "");
}

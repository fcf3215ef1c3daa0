//! A prompt declined or cancelled, a prompt run again, the prompts
//! askdesk leaves to the agent, and no desk: the agent asks in its own way.

use super::{
    bash_rule, by_api, choose, claude_code, codex, decision, parsed, pending, rm_rf, run_hook,
    server, spawn_hook, start_hook,
};
use interaction::Decline;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decline_or_a_cancel_denies_saying_so() {
    let (url, desk, _shutdown) = server().await;
    for (command, declined) in [("make clean", true), ("make dist", false)] {
        let hook = spawn_hook("codex", &url, &codex(command));
        let id = pending(&desk, 1).await.remove(0);
        let message = if declined {
            let reason = Some("Not now".to_owned());
            desk.decline(&id, Decline { reason }, &by_api())
                .await
                .expect("declined");
            "The user declined to decide at askdesk, so this is denied: \"Not now\""
        } else {
            desk.cancel(&id, &by_api()).await.expect("cancelled");
            "The permission request was cancelled at askdesk before the user answered, so \
             this is denied."
        };
        let (stdout, _) = hook.await.expect("hook");
        assert_eq!(
            parsed(&stdout),
            decision(json!({"behavior": "deny", "message": message}))
        );
    }
}

#[tokio::test]
async fn ask_user_questions_own_permission_event_is_left_to_the_pre_tool_use_path() {
    let (url, desk, _shutdown) = server().await;
    let questions = json!({"questions": [{"question": "Which database?", "header": "Database",
        "multiSelect": false, "options": [{"label": "SQLite", "description": "Embedded"}]}]});
    let event = claude_code("AskUserQuestion", questions, json!([]));
    let (stdout, stderr) = run_hook("claude-code", &url, event.to_string()).await;
    assert_eq!((stdout.as_str(), stderr.as_str()), ("", ""));
    assert!(desk
        .list(None, &desk::Caller::Unnamed)
        .await
        .expect("list")
        .is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_prompt_finds_its_ask_and_a_later_one_is_asked_anew() {
    let (url, desk, _shutdown) = server().await;
    // The documented input has no tool_use_id: the same prompt run twice
    // while it is pending is one ask.
    let event = claude_code("Bash", rm_rf(), bash_rule());
    let first = spawn_hook("claude-code", &url, &event);
    let id = pending(&desk, 1).await.remove(0);
    let (attached, second) = start_hook("claude-code", &url, event.to_string());
    let line = attached.await.expect("the second hook found an ask");
    assert!(line.ends_with(&format!("/asks/{id}")), "{line}");
    choose(
        &desk,
        &id,
        json!({"id": "permission", "selected": ["Allow once"]}),
    )
    .await;
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

    // The same command later is a new prompt: allowing once did not
    // allow it again.
    let third = spawn_hook("claude-code", &url, &event);
    let again = pending(&desk, 1).await.remove(0);
    assert_ne!(again, id);
    choose(
        &desk,
        &again,
        json!({"id": "permission", "selected": ["Deny"]}),
    )
    .await;
    let (three, _) = third.await.expect("hook");
    assert_eq!(
        parsed(&three)["hookSpecificOutput"]["decision"]["behavior"],
        "deny"
    );

    // With a tool_use_id, that call's ask is found even once ended.
    let mut with_id = event.clone();
    with_id["tool_use_id"] = json!("toolu_01ABC123");
    let fourth = spawn_hook("claude-code", &url, &with_id);
    let keyed = pending(&desk, 1).await.remove(0);
    choose(
        &desk,
        &keyed,
        json!({"id": "permission", "selected": ["Allow once"]}),
    )
    .await;
    let (four, _) = fourth.await.expect("hook");
    let (retried, retried_err) = run_hook("claude-code", &url, with_id.to_string()).await;
    assert_eq!(retried, four);
    assert!(
        retried_err.contains(&format!("/asks/{keyed}")),
        "{retried_err}"
    );
    assert_eq!(
        desk.list(None, &desk::Caller::Unnamed)
            .await
            .expect("list")
            .len(),
        3
    );
}

#[tokio::test]
async fn without_a_desk_or_with_other_events_each_agent_asks_itself() {
    let (url, desk, _shutdown) = server().await;
    let mut other = codex("ls");
    other["hook_event_name"] = json!("PostToolUse");
    let (stdout, stderr) = run_hook("codex", &url, other.to_string()).await;
    assert_eq!(stdout, "");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    // Another tool's PreToolUse (askdesk answers request_user_input's):
    // not askdesk's to answer, so not a word.
    other["hook_event_name"] = json!("PreToolUse");
    let (stdout, stderr) = run_hook("codex", &url, other.to_string()).await;
    assert_eq!((stdout.as_str(), stderr.trim()), ("", ""));
    // https on a port where nothing listens: nothing answers, and a server
    // of askdesk's own (plain http) cannot stand in.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let nowhere = format!("https://127.0.0.1:{closed}");
    for (product, event, name) in [
        ("codex", codex("ls"), "Codex"),
        (
            "claude-code",
            claude_code("Bash", rm_rf(), bash_rule()),
            "Claude Code",
        ),
    ] {
        let (stdout, stderr) = run_hook(product, &nowhere, event.to_string()).await;
        assert_eq!(stdout, "", "{stderr}");
        assert!(
            stderr.contains(&format!("{name} asks as usual")),
            "{stderr}"
        );
    }
    assert!(desk
        .list(None, &desk::Caller::Unnamed)
        .await
        .expect("list")
        .is_empty());
}

//! `askdesk mcp` as Claude Code's channel: the binary over stdio, a
//! client playing Claude Code (its handshake, its relayed permission
//! prompts as `notifications/claude/channel/permission_request`), a real
//! server, and the person deciding at the desk.

use crate::hook::{answers, pending, server};
use desk::Desk;
use interaction::{AskStatus, Decline};
use serde_json::{json, Value};
use std::{process::Stdio, time::Duration};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines},
    process::{Child, ChildStdin, ChildStdout},
};

/// Claude Code's side of the stdio pipe.
struct ClaudeCode {
    _child: Child,
    input: ChildStdin,
    output: Lines<BufReader<ChildStdout>>,
}

impl ClaudeCode {
    /// `askdesk mcp` started against the desk at `url`, initialized.
    async fn start(url: &str) -> (Self, Value) {
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"))
            .arg("mcp")
            .env("ASKDESK_URL", url)
            .env_remove("ASKDESK_TOKEN")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("askdesk runs");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut claude = Self {
            _child: child,
            input,
            output,
        };
        claude
            .send(
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "claude-code", "version": "2.1.81"}
                }}),
            )
            .await;
        let initialized = claude.next(|m| m["id"] == 1).await;
        claude
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        (claude, initialized["result"].clone())
    }

    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.input.write_all(line.as_bytes()).await.expect("write");
    }

    /// Relays a permission prompt, as Claude Code does.
    async fn relay(&mut self, request_id: &str, preview: &str) {
        self.send(json!({
            "jsonrpc": "2.0",
            "method": "notifications/claude/channel/permission_request",
            "params": {
                "request_id": request_id,
                "tool_name": "Bash",
                "description": "List the project's files",
                "input_preview": preview,
            }
        }))
        .await;
    }

    /// The next message `wanted` accepts; others are skipped.
    async fn next(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let read = async {
            loop {
                let line = self
                    .output
                    .next_line()
                    .await
                    .expect("read")
                    .expect("askdesk mcp left");
                let message: Value = serde_json::from_str(&line).expect("JSON-RPC");
                if wanted(&message) {
                    return message;
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(30), read)
            .await
            .expect("the message came")
    }

    /// The next channel notification askdesk sends.
    async fn notification(&mut self) -> Value {
        self.next(|m| {
            m["method"]
                .as_str()
                .is_some_and(|method| method.starts_with("notifications/claude/channel"))
        })
        .await
    }
}

/// The pending ask other than `except`, once it is there.
async fn another(desk: &Desk, except: &str) -> String {
    for _ in 0..1500 {
        let asks = desk
            .list(Some(AskStatus::Pending), &desk::Caller::Unnamed)
            .await
            .expect("list");
        if let Some(ask) = asks.iter().find(|ask| ask.id != except) {
            return ask.id.clone();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no second ask came");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_channel_is_declared_and_a_relayed_prompt_allowed_at_the_desk_is_allowed() {
    let (url, desk, shutdown) = server().await;
    let (mut claude, initialized) = ClaudeCode::start(&url).await;
    let experimental = &initialized["capabilities"]["experimental"];
    assert_eq!(experimental["claude/channel"], json!({}));
    assert_eq!(experimental["claude/channel/permission"], json!({}));
    let instructions = initialized["instructions"].as_str().expect("instructions");
    assert!(
        instructions.contains("<channel source=\"askdesk\">"),
        "{instructions}"
    );

    claude.relay("abcde", r#"{"command":"ls -la"}"#).await;
    let id = pending(&desk).await;
    let ask = desk
        .get(&id, &desk::Caller::Unnamed)
        .await
        .expect("the ask");
    let question = &ask.request.questions()[0];
    assert!(question
        .question
        .starts_with("Claude Code wants to run this command"));
    assert!(question
        .question
        .contains("It says why: List the project's files."));
    let labels: Vec<&str> = question.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["Allow once", "Deny"]);
    assert_eq!(question.options[0].preview.as_deref(), Some("ls -la"));

    desk.answer(
        &id,
        answers(json!([{"id": "permission", "selected": ["Allow once"]}])),
        &crate::common::by_api(),
    )
    .await
    .expect("answered");
    let verdict = claude.notification().await;
    assert_eq!(
        verdict,
        json!({"jsonrpc": "2.0", "method": "notifications/claude/channel/permission",
               "params": {"request_id": "abcde", "behavior": "allow"}})
    );
    shutdown.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denial_in_the_persons_words_goes_back_with_them() {
    let (url, desk, shutdown) = server().await;
    let (mut claude, _) = ClaudeCode::start(&url).await;
    // A preview cut by Claude Code is shown as the text it is.
    claude
        .relay("fghij", r#"{"command":"rm -rf build && cargo bu"#)
        .await;
    let id = pending(&desk).await;
    desk.answer(
        &id,
        answers(json!([{"id": "permission", "selected": [], "custom": "Use cargo clean instead"}])),
        &crate::common::by_api(),
    )
    .await
    .expect("answered");
    let verdict = claude.notification().await;
    assert_eq!(
        verdict["params"],
        json!({"request_id": "fghij", "behavior": "deny"})
    );
    let event = claude.notification().await;
    assert_eq!(event["method"], "notifications/claude/channel");
    let content = event["params"]["content"].as_str().expect("content");
    assert!(content.contains("\"Use cargo clean instead\""), "{content}");
    assert_eq!(
        event["params"]["meta"],
        json!({"request_id": "fghij", "tool_name": "Bash"})
    );
    shutdown.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_answered_in_the_terminal_is_withdrawn_when_the_session_moves_on() {
    let (url, desk, shutdown) = server().await;
    let (mut claude, _) = ClaudeCode::start(&url).await;
    claude.relay("kmnop", r#"{"command":"ls"}"#).await;
    let first = pending(&desk).await;
    // The person said yes in the terminal; Claude Code's next prompt is
    // all askdesk sees of it.
    claude.relay("qrstu", r#"{"command":"make"}"#).await;
    let second = another(&desk, &first).await;
    let withdrawn = desk
        .get(&first, &desk::Caller::Unnamed)
        .await
        .expect("the first ask");
    assert_eq!(withdrawn.status, AskStatus::Cancelled);
    // Declined without a reason: denied, and nothing more said.
    desk.decline(&second, Decline { reason: None }, &crate::common::by_api())
        .await
        .expect("declined");
    let verdict = claude.notification().await;
    assert_eq!(
        verdict["params"],
        json!({"request_id": "qrstu", "behavior": "deny"})
    );
    // A tool call moves the session on too: a third prompt's ask is
    // withdrawn by the next tools/call, and no verdict ever went out for
    // the first.
    claude.relay("vwxyz", r#"{"command":"pwd"}"#).await;
    let third = another(&desk, &second).await;
    claude
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                     "params": {"name": "cancel_ask", "arguments": {"askId": "no-such-ask"}}}))
        .await;
    claude.next(|m| m["id"] == 2).await;
    assert_eq!(
        desk.get(&third, &desk::Caller::Unnamed)
            .await
            .expect("the third ask")
            .status,
        AskStatus::Cancelled
    );
    claude
        .send(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}))
        .await;
    let next = claude
        .next(|m| m["id"] == 3 || m["method"].as_str().is_some_and(|s| s.contains("channel")))
        .await;
    assert_eq!(next["id"], 3, "no verdict for a withdrawn prompt: {next}");
    shutdown.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_person_writes_on_an_ask_comes_into_the_live_session() {
    let (url, desk, shutdown) = server().await;
    let (mut claude, _) = ClaudeCode::start(&url).await;
    // Before the channel shows it is live, an ask names no session.
    claude
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                     "params": {"name": "ask_user", "arguments": {
                         "questions": [{"question": "Which region?", "options": [
                             {"label": "eu"}, {"label": "us"}]}],
                         "timeoutSeconds": 1}}}))
        .await;
    let early = pending(&desk).await;
    assert_eq!(
        desk.get(&early, &desk::Caller::Unnamed)
            .await
            .expect("the ask")
            .session,
        None
    );
    claude.next(|m| m["id"] == 2).await;

    claude.relay("abcde", r#"{"command":"ls"}"#).await;
    let id = another(&desk, &early).await;
    let session = desk
        .get(&id, &desk::Caller::Unnamed)
        .await
        .expect("the prompt's ask")
        .session
        .expect("a live channel names its session");
    let by = crate::common::by_api();
    let message = |text: &str| interaction::NewMessage {
        text: text.to_owned(),
    };
    desk.message(&id, message("Only list, never delete."), &by)
        .await
        .expect("written");
    let event = claude.notification().await;
    assert_eq!(
        event,
        json!({"jsonrpc": "2.0", "method": "notifications/claude/channel",
               "params": {"content": "Only list, never delete.",
                          "meta": {"ask_id": id, "from": "admin"}}})
    );
    // In order, while the ask waits.
    desk.message(&id, message("Then run the tests."), &by)
        .await
        .expect("written");
    desk.message(&id, message("And stop."), &by)
        .await
        .expect("written");
    for expected in ["Then run the tests.", "And stop."] {
        let event = claude.notification().await;
        assert_eq!(event["params"]["content"], expected);
    }
    desk.answer(
        &id,
        answers(json!([{"id": "permission", "selected": ["Allow once"]}])),
        &by,
    )
    .await
    .expect("answered");
    assert_eq!(claude.notification().await["params"]["behavior"], "allow");
    // Once answered, the session has moved on: nothing more is written.
    assert!(matches!(
        desk.message(&id, message("Too late."), &by).await,
        Err(desk::DeskError::Conflict(_))
    ));
    // The session's later asks name it too.
    claude
        .send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                     "params": {"name": "ask_user", "arguments": {
                         "questions": [{"question": "Deploy now?", "options": [
                             {"label": "yes"}, {"label": "no"}]}],
                         "timeoutSeconds": 1}}}))
        .await;
    let later = another(&desk, &early).await;
    assert_eq!(
        desk.get(&later, &desk::Caller::Unnamed)
            .await
            .expect("ask")
            .session,
        Some(session)
    );
    shutdown.cancel();
}

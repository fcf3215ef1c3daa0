//! `askdesk serve --log-format json` as a log collector reads it: the
//! binary's stderr, one JSON object a line, each request's id kept or made
//! and sent back, and nothing secret in any line.

use crate::common::free_port;
use serde_json::{json, Value};
use std::{
    process::{Command, Stdio},
    time::Duration,
};

const TOKEN: &str = "a-shared-token-nobody-may-log";
const ANSWER: &str = "an answer only the agent may read";

#[tokio::test]
async fn json_lines_carry_each_requests_id_and_nothing_secret() {
    let dir = tempfile::tempdir().expect("dir");
    let (child, base) = serving(&dir, &["--log-format", "json"], None).await;
    let http = reqwest::Client::new();

    // Kept when the client sends one.
    let me = http
        .get(format!("{base}/api/v1/me"))
        .bearer_auth(TOKEN)
        .header("x-request-id", "trace-me-42")
        .send()
        .await
        .expect("me");
    assert_eq!(me.headers()["x-request-id"], "trace-me-42");
    // Made when it does not.
    let created = http
        .post(format!("{base}/api/v1/asks"))
        .bearer_auth(TOKEN)
        .json(&json!({"questions": [{"id": "q", "question": "Which?", "options": [{"label": "A"}, {"label": "B"}]}]}))
        .send()
        .await
        .expect("create");
    let made = created.headers()["x-request-id"]
        .to_str()
        .expect("text")
        .to_owned();
    assert_eq!(made.len(), 36, "a UUID: {made}");
    let id = created.json::<Value>().await.expect("JSON")["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let answered = http
        .post(format!("{base}/api/v1/asks/{id}/answers"))
        .bearer_auth(TOKEN)
        .json(&json!({"answers": [{"id": "q", "selected": [], "custom": ANSWER}]}))
        .send()
        .await
        .expect("answer");
    assert_eq!(answered.status(), 200);

    let output = stopped(child).await;

    let lines: Vec<Value> = output
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    for line in &lines {
        for key in ["timestamp", "level", "target"] {
            assert!(line[key].is_string(), "{key} in {line}");
        }
        assert!(line["fields"]["message"].is_string(), "{line}");
    }
    let answered_line = |request_id: &str| {
        lines.iter().find(|line| {
            line["fields"]["message"] == "answered" && line["span"]["request_id"] == request_id
        })
    };
    let me_line = answered_line("trace-me-42").expect("the /me line");
    assert_eq!(me_line["level"], "INFO");
    assert_eq!(me_line["span"]["path"], "/api/v1/me");
    assert_eq!(me_line["fields"]["status"], 200);
    assert!(me_line["fields"]["ms"].is_u64());
    let created_line = answered_line(&made).expect("the create line");
    assert_eq!(created_line["span"]["method"], "POST");
    // What the desk logs while serving a request carries its id.
    assert!(
        lines
            .iter()
            .any(|line| line["span"]["request_id"] == made.as_str()
                && line["fields"]["message"] != "answered"),
        "{output}"
    );
    // The ask's id is written as {id} in paths; the probes not at info.
    assert!(lines
        .iter()
        .any(|line| line["span"]["path"] == "/api/v1/asks/{id}/answers"));
    assert!(!lines.iter().any(|line| line["span"]["path"] == "/healthz"));
    // The ask's whole id opens it: the log writes its first characters.
    for secret in [TOKEN, ANSWER, id.as_str()] {
        assert!(!output.contains(secret), "{secret:?} in the log:\n{output}");
    }
    assert!(output.contains(&format!("{}…", &id[..8])), "{output}");
}

/// Not even a debug log writes a whole MCP session id: the session is
/// named by its digest's first characters, and rmcp's transport says
/// nothing.
#[tokio::test]
async fn no_log_line_carries_an_mcp_session_id_even_at_debug() {
    let dir = tempfile::tempdir().expect("dir");
    let (child, base) = serving(&dir, &[], Some("debug")).await;
    let http = reqwest::Client::new();
    let opened = http
        .post(format!("{base}/mcp"))
        .bearer_auth(TOKEN)
        .header("accept", "application/json, text/event-stream")
        .json(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "logs", "version": "0"}}}),
        )
        .send()
        .await
        .expect("initialize");
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .expect("text")
        .to_owned();
    let _ = opened.text().await;
    let closed = http
        .delete(format!("{base}/mcp"))
        .bearer_auth(TOKEN)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .expect("delete");
    assert!(closed.status().is_success(), "{}", closed.status());

    let output = stopped(child).await;
    assert!(output.contains("DEBUG"), "a debug log: {output}");
    assert!(output.contains("an MCP session opened"), "{output}");
    assert!(
        !output.contains(&session),
        "the session id {session} in the log:\n{output}"
    );
}

/// `askdesk serve` on a free port with `flags`, the shared token and
/// `RUST_LOG` as given (none: its default), once it answers: the process
/// and its base URL.
async fn serving(
    dir: &tempfile::TempDir,
    flags: &[&str],
    rust_log: Option<&str>,
) -> (std::process::Child, String) {
    let port = free_port();
    let mut command = Command::new(env!("CARGO_BIN_EXE_askdesk"));
    command
        .arg("serve")
        .args(flags)
        .arg("--addr")
        .arg(format!("127.0.0.1:{port}"))
        .arg("--database")
        .arg(dir.path().join("desk.db"))
        .env("ASKDESK_TOKEN", TOKEN)
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(filter) = rust_log {
        command.env("RUST_LOG", filter);
    }
    let child = command.spawn().expect("askdesk runs");
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    for _ in 0..300 {
        if http.get(format!("{base}/healthz")).send().await.is_ok() {
            return (child, base);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the server does not answer:\n{}", stopped(child).await);
}

/// Everything `child` wrote on stderr, once SIGTERM has stopped it.
async fn stopped(mut child: std::process::Child) -> String {
    rustix_kill(&child);
    tokio::task::spawn_blocking(move || {
        let _ = child.wait();
        let mut stderr = String::new();
        use std::io::Read;
        child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut stderr)
            .expect("read");
        stderr
    })
    .await
    .expect("stderr")
}

/// SIGTERM, as an orchestrator stops an instance.
fn rustix_kill(child: &std::process::Child) {
    let pid = i32::try_from(child.id()).expect("pid");
    let _ = Command::new("kill")
        .arg("-TERM")
        .arg(pid.to_string())
        .status();
}

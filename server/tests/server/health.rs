//! `/healthz` and `/readyz` as a load balancer probes them: no token, any
//! Host, every method but GET refused, and `/readyz` 503 once the
//! instance is shutting down.

use crate::common::{body_text, TestServer};
use axum::{
    body::Body,
    http::{header, Method, Request, StatusCode},
};
use serde_json::{json, Value};

async fn probe(server: &TestServer, method: Method, path: &str) -> (StatusCode, Option<Value>) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        // A probe names the instance by its address, not the desk's name.
        .header(header::HOST, "10.1.2.3:3000")
        .body(Body::empty())
        .expect("request");
    let response = server.send(request).await;
    let status = response.status();
    if status == StatusCode::OK || status == StatusCode::SERVICE_UNAVAILABLE {
        let cache = response.headers().get(header::CACHE_CONTROL).cloned();
        assert_eq!(
            cache.as_ref().map(|v| v.to_str().expect("text")),
            Some("no-store")
        );
    }
    let text = body_text(response).await;
    (status, serde_json::from_str(&text).ok())
}

#[tokio::test]
async fn the_probes_answer_without_a_token_from_any_host() {
    let server = TestServer::with_token().await;
    assert_eq!(
        probe(&server, Method::GET, "/healthz").await,
        (StatusCode::OK, Some(json!({"status": "ok"})))
    );
    assert_eq!(
        probe(&server, Method::GET, "/readyz").await,
        (StatusCode::OK, Some(json!({"status": "ready"})))
    );
    // The rest of the desk still wants its Host and token.
    let (status, _) = probe(&server, Method::GET, "/api/v1/me").await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    let (status, _) = probe(&server, Method::POST, "/readyz").await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn readyz_says_draining_once_the_instance_is_stopping_and_healthz_still_serves() {
    let server = TestServer::new().await;
    server.shutdown.cancel();
    assert_eq!(
        probe(&server, Method::GET, "/readyz").await,
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Some(json!({"status": "draining", "message": "this instance is shutting down"}))
        )
    );
    assert_eq!(
        probe(&server, Method::GET, "/healthz").await,
        (StatusCode::OK, Some(json!({"status": "ok"})))
    );
}

/// The real binary: `--shutdown-grace 3`, then SIGTERM as an orchestrator
/// sends it. `/readyz` says draining at once while the server still
/// serves, and the process exits 0 once the grace is over.
#[tokio::test]
async fn after_sigterm_readyz_says_draining_through_the_grace_then_the_server_exits() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"))
        .args([
            "serve",
            "--shutdown-grace",
            "3",
            "--database",
            ":memory:",
            "--addr",
        ])
        .arg(format!("127.0.0.1:{port}"))
        .env_remove("ASKDESK_TOKEN")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("askdesk runs");
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let status = |path: &'static str| {
        let request = http.get(format!("{base}{path}"));
        async move { request.send().await.map(|r| r.status().as_u16()).ok() }
    };
    let mut ready = false;
    for _ in 0..300 {
        if status("/readyz").await == Some(200) {
            ready = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(ready, "the server became ready");
    let pid = child.id().expect("pid").to_string();
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(sent.success());
    let mut draining = false;
    for _ in 0..100 {
        if status("/readyz").await == Some(503) {
            draining = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(draining, "/readyz says 503 after SIGTERM");
    // Still serving meanwhile: the process, and the API.
    assert_eq!(status("/healthz").await, Some(200));
    assert_eq!(status("/api/v1/asks").await, Some(200));
    let exited = tokio::time::timeout(std::time::Duration::from_secs(20), child.wait())
        .await
        .expect("the server stops after its grace")
        .expect("wait");
    assert!(exited.success(), "{exited}");
    assert_eq!(status("/healthz").await, None, "nothing listens any more");
}

/// The probes are outside the guard's checks, not its headers: every
/// reply, the refusal of a method too, carries what every other does.
#[tokio::test]
async fn the_probes_carry_the_security_headers() {
    let server = TestServer::with_token().await;
    for (method, path) in [
        (Method::GET, "/healthz"),
        (Method::GET, "/readyz"),
        (Method::POST, "/readyz"),
    ] {
        let request = Request::builder()
            .method(method.clone())
            .uri(path)
            .header(header::HOST, "10.1.2.3:3000")
            .body(Body::empty())
            .expect("request");
        let response = server.send(request).await;
        let headers = response.headers();
        assert_eq!(
            headers[header::X_CONTENT_TYPE_OPTIONS],
            "nosniff",
            "{method} {path}"
        );
        assert_eq!(
            headers[header::REFERRER_POLICY],
            "no-referrer",
            "{method} {path}"
        );
        assert_eq!(
            headers[header::CACHE_CONTROL],
            "no-store",
            "{method} {path}"
        );
        assert_eq!(
            headers[header::CONTENT_SECURITY_POLICY],
            "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
            "{method} {path}"
        );
    }
}

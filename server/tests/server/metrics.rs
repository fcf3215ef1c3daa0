//! `/metrics` as Prometheus reads it, from the real binary: for the admin
//! token on the main address and open on `--metrics-addr`; counts of asks
//! created and ended, the time to answer and to the waiting agent, what
//! waits, the pending asks and the outbox, and no secret in any line.

use crate::common::{body_text, free_port, TestServer};
use axum::{
    body::Body,
    http::{header, Request, StatusCode},
};
use serde_json::{json, Value};
use server::http::security::Security;
use std::{process::Stdio, sync::Arc, time::Duration};
use tower::ServiceExt;

const TOKEN: &str = "the-admins-token";

/// The value of the sample `series` (its name and labels, as written).
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|value| value.trim().parse().ok())
}

#[tokio::test]
async fn metrics_count_what_the_desk_does_for_the_admin_and_on_their_own_address() {
    let dir = tempfile::tempdir().expect("dir");
    let database = dir.path().join("desk.db");
    let added = std::process::Command::new(env!("CARGO_BIN_EXE_askdesk"))
        .args(["people", "add", "alice", "--role", "person", "--database"])
        .arg(&database)
        .output()
        .expect("people add");
    let alice = String::from_utf8(added.stdout)
        .expect("text")
        .lines()
        .find(|line| line.starts_with("askd_"))
        .expect("alice's token")
        .to_owned();
    let (port, open) = (free_port(), free_port());
    // An ntfy server nobody runs: every attempt is retried.
    let dead = free_port();
    let _child = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"))
        .args(["serve", "--addr"])
        .arg(format!("127.0.0.1:{port}"))
        .arg("--metrics-addr")
        .arg(format!("127.0.0.1:{open}"))
        .arg("--database")
        .arg(&database)
        .args(["--token", TOKEN, "--notify"])
        .arg(format!("ntfy+http://127.0.0.1:{dead}/s3cret-topic"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("askdesk runs");
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let mut ready = false;
    for _ in 0..300 {
        if let Ok(r) = http.get(format!("{base}/readyz")).send().await {
            ready = r.status() == 200;
            if ready {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(ready, "the server became ready");
    let scrape = || {
        let request = http.get(format!("http://127.0.0.1:{open}/metrics"));
        async move {
            let response = request.send().await.expect("scraped");
            assert_eq!(response.status(), 200);
            response.text().await.expect("text")
        }
    };
    let main = |token: Option<&str>| {
        let mut request = http.get(format!("{base}/metrics"));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        async move { request.send().await.expect("sent") }
    };
    assert_eq!(main(None).await.status(), 401);
    // The open address checks Host as the main one does.
    let rebound = http
        .get(format!("http://127.0.0.1:{open}/metrics"))
        .header("host", format!("evil.example:{open}"))
        .send()
        .await
        .expect("sent");
    assert_eq!(rebound.status(), 421);
    assert_eq!(main(Some(&alice)).await.status(), 403);
    let admin = main(Some(TOKEN)).await;
    assert_eq!(admin.status(), 200);
    assert!(admin.headers()["content-type"]
        .to_str()
        .expect("text")
        .starts_with("text/plain; version=0.0.4"));

    let ask = json!({"questions": [{"id": "db", "question": "Which database?",
                                    "options": [{"label": "SQLite"}, {"label": "PostgreSQL"}]}]});
    let created: Value = http
        .post(format!("{base}/api/v1/asks"))
        .bearer_auth(TOKEN)
        .json(&ask)
        .send()
        .await
        .expect("created")
        .json()
        .await
        .expect("JSON");
    let id = created["id"].as_str().expect("id").to_owned();
    // An agent waits for the answer.
    let waiter = tokio::spawn({
        let request = http
            .get(format!("{base}/api/v1/asks/{id}?wait=60"))
            .bearer_auth(TOKEN);
        async move { request.send().await.expect("waited").status() }
    });
    let mut text = String::new();
    for _ in 0..250 {
        text = scrape().await;
        if sample(&text, "askdesk_waiting_requests{kind=\"long_poll\"}") == Some(1.0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        sample(&text, "askdesk_waiting_requests{kind=\"long_poll\"}"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(sample(&text, "askdesk_asks_pending"), Some(1.0), "{text}");
    assert_eq!(
        sample(&text, "askdesk_asks_created_total"),
        Some(1.0),
        "{text}"
    );

    let answers = json!({"answers": [{"id": "db", "selected": ["SQLite"]}]});
    let answered = http
        .post(format!("{base}/api/v1/asks/{id}/answers"))
        .bearer_auth(TOKEN)
        .json(&answers)
        .send()
        .await
        .expect("answered");
    assert_eq!(answered.status(), 200);
    assert_eq!(waiter.await.expect("task"), 200);
    let mut text = String::new();
    for _ in 0..250 {
        text = scrape().await;
        let retried = text.lines().any(|line| {
            line.starts_with("askdesk_notification_attempts_total{")
                && line.contains("outcome=\"retry\"")
        });
        if retried && sample(&text, "askdesk_waiting_requests{kind=\"long_poll\"}") == Some(0.0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let ended = "askdesk_asks_ended_total{status=\"answered\",via=\"api\"}";
    assert_eq!(sample(&text, ended), Some(1.0), "{text}");
    assert_eq!(
        sample(&text, "askdesk_time_to_answer_seconds_count"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "askdesk_answer_to_waiter_seconds_count"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(sample(&text, "askdesk_asks_pending"), Some(0.0), "{text}");
    assert_eq!(
        sample(&text, "askdesk_waiting_requests{kind=\"long_poll\"}"),
        Some(0.0),
        "{text}"
    );
    assert!(
        sample(&text, "askdesk_notifications_backlog").is_some_and(|n| n >= 1.0),
        "{text}"
    );
    assert!(text.contains("outcome=\"retry\""), "{text}");
    assert!(!text.contains("s3cret"), "no channel's secret in a label");
    assert!(
        text.contains("# HELP askdesk_time_to_answer_seconds"),
        "{text}"
    );
}

/// `--metrics-addr` answers only to the names the main address answers
/// to (DNS rebinding: another site's page must not read it) and its own
/// address, and every reply there carries the security headers.
#[tokio::test]
async fn the_metrics_address_checks_the_host_and_sends_the_security_headers() {
    let server = TestServer::new().await;
    let security = Security::new(
        None,
        "http://127.0.0.1:9464".to_owned(),
        vec!["metrics.internal".to_owned()],
    );
    let router = server::metrics::open_routes(server.desk.clone(), Arc::new(security));
    let get = |host: &str, path: &str| {
        let request = Request::get(path)
            .header(header::HOST, host)
            .body(Body::empty())
            .expect("request");
        router.clone().oneshot(request)
    };
    for (host, path, status) in [
        ("127.0.0.1:9464", "/metrics", StatusCode::OK),
        ("localhost:9464", "/metrics", StatusCode::OK),
        ("metrics.internal:9464", "/metrics", StatusCode::OK),
        ("127.0.0.1:9464", "/nothing-here", StatusCode::NOT_FOUND),
        (
            "evil.example:9464",
            "/metrics",
            StatusCode::MISDIRECTED_REQUEST,
        ),
        ("attacker.test", "/metrics", StatusCode::MISDIRECTED_REQUEST),
    ] {
        let response = get(host, path).await.expect("response");
        assert_eq!(response.status(), status, "{host}{path}");
        let headers = response.headers();
        assert_eq!(
            headers[header::X_CONTENT_TYPE_OPTIONS],
            "nosniff",
            "{host}{path}"
        );
        assert_eq!(
            headers[header::REFERRER_POLICY],
            "no-referrer",
            "{host}{path}"
        );
        assert_eq!(headers[header::CACHE_CONTROL], "no-store", "{host}{path}");
        assert!(
            headers.contains_key(header::CONTENT_SECURITY_POLICY),
            "{host}{path}"
        );
        let text = body_text(response).await;
        if status == StatusCode::MISDIRECTED_REQUEST {
            assert!(text.contains("--allowed-host"), "{text}");
            assert!(!text.contains("askdesk_"), "{text}");
        }
    }
}

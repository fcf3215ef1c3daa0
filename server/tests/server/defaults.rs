//! Default answers through the HTTP API: refused (422) where the one
//! validator finds them wrong or without a timeout, shown on a pending ask,
//! and applied, marked `defaulted`, when it expires unanswered.

use crate::common::{release_ask, TestServer};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

fn defaults() -> Value {
    json!([
        {"id": "notes", "custom": "  Nothing  "},
        {"id": "db", "selected": ["SQLite"]},
        {"id": "features", "selected": ["Metrics", "Auth"]}
    ])
}

/// The defaults as every reply shows them: in canonical form.
fn canonical() -> Value {
    json!([
        {"id": "features", "selected": ["Auth", "Metrics"]},
        {"id": "db", "selected": ["SQLite"]},
        {"id": "notes", "selected": [], "custom": "Nothing"}
    ])
}

fn with_defaults(timeout: Option<u64>, defaults: Value) -> Value {
    let mut body = release_ask();
    body["defaultAnswers"] = defaults;
    if let Some(seconds) = timeout {
        body["timeoutSeconds"] = json!(seconds);
    }
    body
}

fn problems(error: &Value) -> Vec<(String, String)> {
    error["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| {
            (
                p["path"].as_str().unwrap_or("").to_owned(),
                p["code"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn defaults_without_a_timeout_or_that_break_a_rule_get_422_at_their_paths() {
    let server = TestServer::new().await;
    let (status, error) = server
        .json(
            Method::POST,
            "/api/v1/asks",
            Some(with_defaults(None, defaults())),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{error}");
    assert_eq!(
        problems(&error),
        [(
            "defaultAnswers".to_owned(),
            "defaults_without_timeout".to_owned()
        )]
    );

    let wrong = json!([
        {"id": "features", "selected": ["Auth", "Auth"]},
        {"id": "db", "selected": ["SQLite"], "custom": "Both"},
        {"id": "ghost", "selected": ["x"]}
    ]);
    let (status, error) = server
        .json(
            Method::POST,
            "/api/v1/asks",
            Some(with_defaults(Some(60), wrong)),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{error}");
    let found = problems(&error);
    for expected in [
        ("defaultAnswers[0].selected[1]", "duplicate_label"),
        ("defaultAnswers[1].custom", "exclusive_custom"),
        ("defaultAnswers[2].id", "unknown_question"),
        ("defaultAnswers", "missing_answer"),
    ] {
        assert!(
            found.contains(&(expected.0.to_owned(), expected.1.to_owned())),
            "{expected:?} missing from {found:?}"
        );
    }

    let (status, error) = server
        .json(
            Method::POST,
            "/api/v1/asks",
            Some(with_defaults(Some(60), json!({"db": "SQLite"}))),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{error}");
    let (_, list) = server.json(Method::GET, "/api/v1/asks", None).await;
    assert_eq!(list["asks"], json!([]));
}

#[tokio::test]
async fn a_pending_ask_shows_its_defaults_and_no_defaulted() {
    let server = TestServer::new().await;
    let id = server.create(with_defaults(Some(600), defaults())).await;
    let (status, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ask["status"], "pending");
    assert_eq!(ask["defaultAnswers"], canonical());
    assert!(ask.get("answers").is_none() && ask.get("defaulted").is_none());
}

#[tokio::test]
async fn an_ask_that_expires_unanswered_ends_with_its_defaults_marked_and_no_person() {
    let server = TestServer::new().await;
    let id = server.create(with_defaults(Some(1), defaults())).await;
    // The long-poll returns when the ask's time is up, expiring it.
    let (status, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}?wait=30"), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ask["status"], "expired", "{ask}");
    assert_eq!(ask["answers"], canonical());
    assert_eq!(ask["defaulted"], true);
    assert_eq!(ask["answeredBy"], Value::Null);
    assert_eq!(ask["via"], Value::Null);
    assert_eq!(ask["finishedAt"], ask["expiresAt"]);
    let projection = &ask["projection"];
    assert_eq!(projection["structured"]["status"], "expired");
    assert_eq!(projection["structured"]["defaulted"], true);
    assert_eq!(projection["structured"]["answers"], canonical());
    let text = projection["text"].as_str().expect("text");
    assert!(text.starts_with("No person answered"), "{text}");
    assert!(text.contains("Default options: [\"SQLite\"]"), "{text}");

    // A late answer finds it gone, as any expired ask.
    let (status, error) = server
        .json(
            Method::POST,
            &format!("/api/v1/asks/{id}/answers"),
            Some(crate::common::combined_answers()),
        )
        .await;
    assert_eq!(status, StatusCode::GONE);
    assert_eq!(error["ask"]["defaulted"], true);
}

#[tokio::test]
async fn the_page_says_what_the_agent_goes_on_with_and_counts_down_until_it_does() {
    let server = TestServer::new().await;
    let id = server.create(with_defaults(Some(600), defaults())).await;
    let (status, html) = server.get_page(&format!("/asks/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    let at: interaction::Timestamp = ask["expiresAt"]
        .as_str()
        .expect("expiresAt")
        .parse()
        .expect("time");
    assert!(
        html.contains(&format!(
            "If nobody answers by {}, the agent goes on with these default answers:",
            at.short()
        )),
        "{html}"
    );
    let note = html
        .split("class=\"defaults-note\"")
        .nth(1)
        .and_then(|rest| rest.split("</section>").next())
        .expect("the defaults note");
    for shown in ["Auth, Metrics", "SQLite", "Nothing"] {
        assert!(note.contains(shown), "{shown} in {note}");
    }
    assert!(html.contains("class=\"countdown\""), "{html}");
    assert!(html.contains("default answers apply in 9 min"), "{html}");

    // Without defaults, neither.
    let plain = server.create(release_ask()).await;
    let (_, html) = server.get_page(&format!("/asks/{plain}")).await;
    assert!(!html.contains("defaults-note") && !html.contains("class=\"countdown\""));
}

#[tokio::test]
async fn the_page_of_a_defaulted_ask_says_nobody_answered_and_shows_the_defaults() {
    let server = TestServer::new().await;
    let id = server.create(with_defaults(Some(1), defaults())).await;
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}?wait=30"), None)
        .await;
    assert_eq!(ask["defaulted"], true);
    let (status, html) = server.get_page(&format!("/asks/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Nobody answered by"), "{html}");
    assert!(html.contains("No person chose them."), "{html}");
    assert!(
        html.contains("<p dir=\"auto\" class=\"selected\">SQLite</p>"),
        "{html}"
    );
    assert!(!html.contains("defaults-note") && !html.contains("finished-by"));
}

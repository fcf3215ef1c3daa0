//! HTTP API v1, end to end through the router and a real SQLite desk.

use crate::common::{combined_answers, release_ask, TestServer};
use axum::http::{Method, StatusCode};
use interaction::{project, Answers, Outcome, Request, ValidRequest};
use serde_json::{json, Value};
use std::time::Duration;

#[tokio::test]
async fn creating_an_ask_returns_its_id_url_and_status() {
    let server = TestServer::new().await;
    let (status, created) = server
        .json(Method::POST, "/api/v1/asks", Some(release_ask()))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = created["id"].as_str().expect("id");
    assert_eq!(id.len(), 32);
    assert_eq!(created["url"], format!("http://127.0.0.1:3000/asks/{id}"));
    assert_eq!(created["status"], "pending");
    // RFC 3339 in UTC with milliseconds, the same length for every time.
    let at = created["createdAt"].as_str().expect("createdAt");
    let layout: String = at
        .chars()
        .map(|c| if c.is_ascii_digit() { '0' } else { c })
        .collect();
    assert_eq!(layout, "0000-00-00T00:00:00.000Z", "{at}");
    assert_eq!(created["expiresAt"], Value::Null);

    let (status, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ask["title"], "Release plan");
    assert_eq!(ask["agent"], "test-agent");
    assert_eq!(ask["request"]["questions"][0]["id"], "features");
    assert_eq!(ask["finishedAt"], Value::Null);
    assert!(ask.get("answers").is_none() && ask.get("projection").is_none());
}

#[tokio::test]
async fn an_invalid_ask_gets_422_with_every_problem_and_is_not_stored() {
    let server = TestServer::new().await;
    let body = json!({"title": "x", "timeoutSeconds": 0, "questions": [
        {"id": "a b", "question": " ", "options": [{"label": "A"}, {"label": "A"}]}
    ]});
    let (status, error) = server.json(Method::POST, "/api/v1/asks", Some(body)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let found: Vec<(String, String)> = error["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| {
            (
                p["path"].as_str().unwrap_or("").to_owned(),
                p["code"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    for expected in [
        ("questions[0].id", "invalid_id"),
        ("questions[0].question", "empty_question"),
        ("questions[0].options[1].label", "duplicate_option"),
        ("timeoutSeconds", "timeout_out_of_range"),
    ] {
        assert!(
            found.contains(&(expected.0.to_owned(), expected.1.to_owned())),
            "{expected:?} missing from {found:?}"
        );
    }
    assert!(error["message"]
        .as_str()
        .expect("message")
        .contains("4 problem"));
    let (_, list) = server.json(Method::GET, "/api/v1/asks", None).await;
    assert_eq!(list["asks"], json!([]));
}

#[tokio::test]
async fn malformed_bodies_get_json_errors_naming_the_fault() {
    let server = TestServer::new().await;
    let request = axum::http::Request::post("/api/v1/asks")
        .header("host", crate::common::HOST)
        .header("content-type", "application/json")
        .body(axum::body::Body::from("{\"questions\": ["))
        .expect("request");
    let response = server.send(request).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let error: Value =
        serde_json::from_str(&crate::common::body_text(response).await).expect("json");
    assert!(
        error["message"]
            .as_str()
            .expect("message")
            .contains("not the JSON"),
        "{error}"
    );

    let (status, error) = server
        .json(
            Method::POST,
            "/api/v1/asks",
            Some(json!({"questions": [], "timeout": 5})),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        error["message"]
            .as_str()
            .expect("message")
            .contains("unknown field `timeout`"),
        "{error}"
    );

    let (status, error) = server.json(Method::PUT, "/api/v1/asks", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(error["message"]
        .as_str()
        .expect("message")
        .contains("PUT /api/v1/asks"));
    let (status, _) = server.json(Method::GET, "/api/v2/asks", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_body_over_one_mebibyte_gets_413_and_nothing_is_stored() {
    let server = TestServer::new().await;
    let mut body = release_ask();
    body["title"] = json!("x".repeat(1024 * 1024));
    let (status, error) = server.json(Method::POST, "/api/v1/asks", Some(body)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(error["message"]
        .as_str()
        .expect("message")
        .contains("1 MiB"));
    let (_, list) = server.json(Method::GET, "/api/v1/asks", None).await;
    assert_eq!(list["asks"], json!([]));
}

#[tokio::test]
async fn a_combined_multi_select_answer_is_accepted_and_read_back_with_its_projection() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let (status, ask) = server
        .json(
            Method::POST,
            &format!("/api/v1/asks/{id}/answers"),
            Some(combined_answers()),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{ask}");
    assert_eq!(ask["status"], "answered");
    let (_, stored) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(
        stored["answers"][0],
        json!({"id": "features", "selected": ["Auth", "Logging"], "custom": "Rate limiting"})
    );
    assert_ne!(stored["finishedAt"], Value::Null);

    // The projection is the interaction crate's, for the stored request.
    let request: Request = serde_json::from_value(json!({"questions": release_ask()["questions"]}))
        .expect("request part of the ask");
    let request = ValidRequest::new(request).expect("valid");
    let answers: Answers = serde_json::from_value(combined_answers()).expect("answers");
    let expected = project(
        &request,
        &Outcome::Answered(request.validate_answers(answers).expect("valid answers")),
    );
    assert_eq!(
        stored["projection"],
        serde_json::to_value(&expected).expect("json")
    );
    assert_eq!(stored["projection"]["structured"]["status"], "answered");
    assert!(
        stored["projection"]["text"]
            .as_str()
            .expect("text")
            .contains(r#""Rate limiting""#),
        "{}",
        stored["projection"]["text"]
    );
}

/// Answers for `release_ask` with one item replaced or removed.
fn answers_with(replace: &[(usize, Value)], drop: Option<usize>) -> Value {
    let mut answers = combined_answers();
    let items = answers["answers"].as_array_mut().expect("items");
    for (index, item) in replace {
        items[*index] = item.clone();
    }
    if let Some(index) = drop {
        items.remove(index);
    }
    answers
}

#[tokio::test]
async fn every_answer_problem_code_gets_422_with_its_path_and_leaves_the_ask_pending() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let long = "x".repeat(10_001);
    let cases = [
        (
            answers_with(
                &[(2, json!({"id": "nope", "selected": [], "custom": "x"}))],
                None,
            ),
            "answers[2].id",
            "unknown_question",
        ),
        (
            answers_with(&[(2, json!({"id": "db", "selected": ["SQLite"]}))], None),
            "answers[2].id",
            "duplicate_answer",
        ),
        (answers_with(&[], Some(2)), "answers", "missing_answer"),
        (
            answers_with(&[(1, json!({"id": "db", "selected": ["Oracle"]}))], None),
            "answers[1].selected[0]",
            "unknown_label",
        ),
        (
            answers_with(
                &[(0, json!({"id": "features", "selected": ["Auth", "Auth"]}))],
                None,
            ),
            "answers[0].selected[1]",
            "duplicate_label",
        ),
        (
            answers_with(
                &[(1, json!({"id": "db", "selected": ["SQLite", "PostgreSQL"]}))],
                None,
            ),
            "answers[1].selected",
            "too_many_selected",
        ),
        (
            answers_with(
                &[(2, json!({"id": "notes", "selected": [], "custom": "   "}))],
                None,
            ),
            "answers[2].custom",
            "empty_custom",
        ),
        (
            answers_with(
                &[(2, json!({"id": "notes", "selected": [], "custom": long}))],
                None,
            ),
            "answers[2].custom",
            "custom_too_long",
        ),
        (
            answers_with(&[(0, json!({"id": "features", "selected": []}))], None),
            "answers[0]",
            "empty_answer",
        ),
        (
            answers_with(
                &[(
                    1,
                    json!({"id": "db", "selected": ["SQLite"], "custom": "DuckDB"}),
                )],
                None,
            ),
            "answers[1].custom",
            "exclusive_custom",
        ),
    ];
    for (answers, path, code) in cases {
        let (status, error) = server
            .json(
                Method::POST,
                &format!("/api/v1/asks/{id}/answers"),
                Some(answers),
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{code}: {error}");
        let problems = error["problems"].as_array().expect("problems");
        assert!(
            problems
                .iter()
                .any(|p| p["path"] == path && p["code"] == code),
            "{code} at {path} missing: {error}"
        );
        assert!(problems
            .iter()
            .all(|p| p["message"].as_str().is_some_and(|m| !m.is_empty())));
    }
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(ask["status"], "pending");
}

#[tokio::test]
async fn a_second_submission_gets_409_and_the_first_answer_stays() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let path = format!("/api/v1/asks/{id}/answers");
    let (status, _) = server
        .json(Method::POST, &path, Some(combined_answers()))
        .await;
    assert_eq!(status, StatusCode::OK);
    let other = answers_with(
        &[(0, json!({"id": "features", "selected": ["Metrics"]}))],
        None,
    );
    let (status, error) = server.json(Method::POST, &path, Some(other)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error["ask"]["status"], "answered");
    assert_eq!(
        error["ask"]["answers"][0]["selected"],
        json!(["Auth", "Logging"])
    );
    let (status, _) = server
        .json(Method::POST, &format!("/api/v1/asks/{id}/decline"), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(ask["answers"][0]["custom"], "Rate limiting");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_submissions_yield_exactly_one_success() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = desk::SqliteStore::open(&dir.path().join("asks.db"))
        .await
        .expect("store");
    let server =
        std::sync::Arc::new(TestServer::with_store(std::sync::Arc::new(store), None).await);
    let id = server.create(release_ask()).await;
    let calls: Vec<_> = (0..12)
        .map(|_| {
            let server = server.clone();
            let path = format!("/api/v1/asks/{id}/answers");
            tokio::spawn(async move {
                server
                    .json(Method::POST, &path, Some(combined_answers()))
                    .await
                    .0
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for call in calls {
        statuses.push(call.await.expect("task"));
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::OK).count(),
        1,
        "{statuses:?}"
    );
    assert!(statuses
        .iter()
        .all(|s| *s == StatusCode::OK || *s == StatusCode::CONFLICT));
}

#[tokio::test]
async fn a_long_poll_wakes_on_the_answer() {
    let server = std::sync::Arc::new(TestServer::new().await);
    let id = server.create(release_ask()).await;
    let poll = tokio::spawn({
        let server = server.clone();
        let path = format!("/api/v1/asks/{id}?wait=120");
        async move { server.json(Method::GET, &path, None).await }
    });
    let (status, _) = server
        .json(
            Method::POST,
            &format!("/api/v1/asks/{id}/answers"),
            Some(combined_answers()),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, ask) = tokio::time::timeout(Duration::from_secs(60), poll)
        .await
        .expect("the poll returned long before its 120 s wait")
        .expect("task");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ask["status"], "answered");
    assert_eq!(ask["answers"][0]["custom"], "Rate limiting");
}

#[tokio::test]
async fn a_long_poll_returns_the_pending_ask_when_its_wait_ends_and_refuses_bad_waits() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let (status, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}?wait=0"), None)
        .await;
    assert_eq!(
        (status, ask["status"].clone()),
        (StatusCode::OK, json!("pending"))
    );
    let (status, error) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}?wait=soon"), None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error["message"]
        .as_str()
        .expect("message")
        .contains("wait="));
}

#[tokio::test]
async fn declining_and_cancelling_finish_the_ask_once() {
    let server = TestServer::new().await;
    let declined = server.create(release_ask()).await;
    let (status, ask) = server
        .json(
            Method::POST,
            &format!("/api/v1/asks/{declined}/decline"),
            Some(json!({"reason": "  Ask me tomorrow  "})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(ask["status"], "declined");
    assert_eq!(ask["declineReason"], "Ask me tomorrow");
    assert_eq!(
        ask["projection"]["structured"],
        json!({"status": "declined", "answers": [], "reason": "Ask me tomorrow"})
    );

    let cancelled = server.create(release_ask()).await;
    let (status, ask) = server
        .json(Method::DELETE, &format!("/api/v1/asks/{cancelled}"), None)
        .await;
    assert_eq!(
        (status, ask["status"].clone()),
        (StatusCode::OK, json!("cancelled"))
    );
    let (status, error) = server
        .json(
            Method::POST,
            &format!("/api/v1/asks/{cancelled}/answers"),
            Some(combined_answers()),
        )
        .await;
    assert_eq!(status, StatusCode::GONE);
    assert_eq!(error["ask"]["status"], "cancelled");
    // A retried DELETE is answered as the first was.
    let (status, again) = server
        .json(Method::DELETE, &format!("/api/v1/asks/{cancelled}"), None)
        .await;
    assert_eq!((status, again), (StatusCode::OK, ask));
    let (status, _) = server
        .json(Method::DELETE, &format!("/api/v1/asks/{declined}"), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn unknown_asks_are_404() {
    let server = TestServer::new().await;
    for path in [
        "/api/v1/asks/0123456789abcdef0123456789abcdef",
        "/api/v1/asks/not-an-id",
    ] {
        let (status, error) = server.json(Method::GET, path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(error["message"].as_str().is_some());
    }
    let (status, _) = server
        .json(
            Method::POST,
            "/api/v1/asks/0123456789abcdef0123456789abcdef/answers",
            Some(combined_answers()),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_list_shows_pending_asks_newest_first_and_filters_by_status() {
    let server = TestServer::new().await;
    let first = server.create(release_ask()).await;
    let mut second_body = release_ask();
    second_body["title"] = json!("Second");
    let second = server.create(second_body).await;
    let answered = server.create(release_ask()).await;
    server
        .json(
            Method::POST,
            &format!("/api/v1/asks/{answered}/answers"),
            Some(combined_answers()),
        )
        .await;
    let (status, list) = server
        .json(Method::GET, "/api/v1/asks?status=pending", None)
        .await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&str> = list["asks"]
        .as_array()
        .expect("asks")
        .iter()
        .map(|a| a["id"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(ids, [second.as_str(), first.as_str()]);
    assert_eq!(list["asks"][0]["title"], "Second");
    assert_eq!(list["asks"][0]["questionCount"], 3);
    assert_eq!(list["asks"][0]["status"], "pending");
    let (_, all) = server.json(Method::GET, "/api/v1/asks", None).await;
    assert_eq!(all["asks"].as_array().expect("asks").len(), 3);
    let (status, error) = server
        .json(Method::GET, "/api/v1/asks?status=done", None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error["message"]
        .as_str()
        .expect("message")
        .contains("pending"));
}

#[tokio::test]
async fn the_openapi_document_describes_every_route() {
    let server = TestServer::new().await;
    let (status, doc) = server.json(Method::GET, "/api/v1/openapi.json", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(doc["openapi"].as_str().expect("version").starts_with("3."));
    let paths = doc["paths"].as_object().expect("paths");
    for (path, methods) in [
        ("/api/v1/asks", &["get", "post"][..]),
        ("/api/v1/asks/{id}", &["get", "delete"]),
        ("/api/v1/asks/{id}/answers", &["post"]),
        ("/api/v1/asks/{id}/decline", &["post"]),
        ("/api/v1/openapi.json", &["get"]),
        ("/api/v1/events", &["get"]),
    ] {
        let documented = paths
            .get(path)
            .unwrap_or_else(|| panic!("{path} undocumented"));
        for method in methods {
            assert!(
                documented.get(*method).is_some(),
                "{method} {path} undocumented"
            );
        }
    }
    // And nothing documented that the server does not serve.
    for path in paths.keys() {
        let concrete = path.replace("{id}", "0123456789abcdef0123456789abcdef");
        let (status, _) = server.json(Method::OPTIONS, &concrete, None).await;
        assert_eq!(
            status,
            StatusCode::METHOD_NOT_ALLOWED,
            "{path} is documented but not routed"
        );
    }
}

#[tokio::test]
async fn decline_bodies_are_optional_and_their_errors_are_json_too() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let path = format!("/api/v1/asks/{id}/decline");
    let send = |body: String| {
        axum::http::Request::post(&path)
            .header("host", crate::common::HOST)
            .header("content-type", "application/json")
            .body(axum::body::Body::from(body))
            .expect("request")
    };
    let big = format!("{{\"reason\": \"{}\"}}", "x".repeat(1024 * 1024));
    for (body, status) in [
        (big, StatusCode::PAYLOAD_TOO_LARGE),
        ("{\"reason\": ".to_owned(), StatusCode::BAD_REQUEST),
        (
            "{\"why\": \"x\"}".to_owned(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let response = server.send(send(body)).await;
        assert_eq!(response.status(), status);
        let error: Value =
            serde_json::from_str(&crate::common::body_text(response).await).expect("JSON error");
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(ask["status"], "pending");
    let (status, ask) = server.json(Method::POST, &path, None).await;
    assert_eq!(
        (status, ask["declineReason"].clone()),
        (StatusCode::OK, Value::Null)
    );
}

/// The body of an insta snapshot file: what follows its `---` header.
fn snapshot_body(file: &str) -> &str {
    file.splitn(3, "---\n")
        .nth(2)
        .expect("snapshot header")
        .trim_end()
}

#[tokio::test]
async fn the_api_returns_the_projection_recorded_in_the_interaction_snapshots() {
    let server = TestServer::new().await;
    // The request and answers of interaction's `combined_labels_and_custom_text`.
    let id = server
        .create(json!({"questions": [
            {"id": "db", "question": "Which database should we use?", "header": "Database",
             "options": [{"label": "PostgreSQL", "description": "Relational, ACID"}, {"label": "SQLite"}],
             "multiSelect": false},
            {"id": "features", "question": "Which features do you want?", "header": "Features",
             "options": [{"label": "Auth"}, {"label": "Logging"}, {"label": "Metrics"}], "multiSelect": true},
            {"id": "notes", "question": "Anything else we should know?", "options": []}
        ]}))
        .await;
    let answers = json!({"answers": [
        {"id": "db", "selected": ["SQLite"]},
        {"id": "features", "selected": ["Auth", "Logging"], "custom": "Rate limiting"},
        {"id": "notes", "selected": [], "custom": "Thanks"}
    ]});
    let (status, ask) = server
        .json(
            Method::POST,
            &format!("/api/v1/asks/{id}/answers"),
            Some(answers),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{ask}");
    let text = include_str!(
        "../../../interaction/tests/behaviour/snapshots/behaviour__projection__combined_labels_and_custom_text.snap"
    );
    let structured = include_str!(
        "../../../interaction/tests/behaviour/snapshots/behaviour__projection__combined_labels_and_custom_text-2.snap"
    );
    assert_eq!(ask["projection"]["text"], snapshot_body(text));
    let structured: Value = serde_json::from_str(snapshot_body(structured)).expect("snapshot JSON");
    assert_eq!(ask["projection"]["structured"], structured);
}

#[tokio::test]
async fn the_list_long_polls_for_the_next_change_after_its_version() {
    let server = std::sync::Arc::new(TestServer::new().await);
    let (_, list) = server
        .json(Method::GET, "/api/v1/asks?status=pending", None)
        .await;
    let version = list["version"].as_u64().expect("version");
    let poll = tokio::spawn({
        let server = server.clone();
        let path = format!("/api/v1/asks?status=pending&after={version}&wait=120");
        async move { server.json(Method::GET, &path, None).await }
    });
    let id = server.create(release_ask()).await;
    let (status, list) = tokio::time::timeout(Duration::from_secs(60), poll)
        .await
        .expect("the poll returned long before its 120 s wait")
        .expect("task");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["asks"][0]["id"], id.as_str());
    assert!(list["version"].as_u64().expect("version") > version);
    // Polling at the newest version with no change returns after the wait.
    let newest = list["version"].as_u64().expect("version");
    let (_, same) = server
        .json(
            Method::GET,
            &format!("/api/v1/asks?after={newest}&wait=0"),
            None,
        )
        .await;
    assert_eq!(same["version"].as_u64(), Some(newest));
    let (status, _) = server
        .json(Method::GET, "/api/v1/asks?after=x&wait=1", None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn an_idempotency_key_makes_one_ask_of_repeated_creates() {
    let server = TestServer::new().await;
    let post = |key: &'static str, body: Value| {
        let server = &server;
        async move {
            let request = axum::http::Request::post("/api/v1/asks")
                .header("host", crate::common::HOST)
                .header("content-type", "application/json")
                .header("idempotency-key", key)
                .body(axum::body::Body::from(body.to_string()))
                .expect("request");
            let response = server.send(request).await;
            let status = response.status();
            let body: Value =
                serde_json::from_str(&crate::common::body_text(response).await).expect("json");
            (status, body)
        }
    };
    let (status, first) = post("retry-4f2e", release_ask()).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let (status, again) = post("retry-4f2e", release_ask()).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again, first);
    let mut other = release_ask();
    other["title"] = json!("Another plan");
    let (status, refused) = post("retry-4f2e", other).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(refused["problems"][0]["code"], "idempotency_conflict");
    assert_eq!(refused["problems"][0]["path"], "Idempotency-Key");
    let (status, refused) = post("has spaces", release_ask()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(refused["problems"][0]["code"], "invalid_idempotency_key");
    let (_, list) = server.json(Method::GET, "/api/v1/asks", None).await;
    assert_eq!(list["asks"].as_array().expect("asks").len(), 1);
}

#[tokio::test]
async fn a_query_string_the_call_cannot_read_is_refused_as_json() {
    let server = TestServer::new().await;
    for path in [
        "/api/v1/asks?wait=null&wait=null",
        "/api/v1/asks?after=soon&wait=1",
        "/api/v1/events?after=soon",
    ] {
        let (status, body) = server.json(Method::GET, path, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        let message = body["message"].as_str().unwrap_or_default();
        assert!(!message.is_empty(), "{path}: {body}");
    }
}

#[tokio::test]
async fn the_list_pages_with_a_cursor_filters_and_exports_every_match_as_json_lines() {
    let server = TestServer::new().await;
    let mut made = Vec::new();
    for n in 0..7 {
        let mut ask = release_ask();
        ask["agent"] = json!(if n % 2 == 0 { "builder" } else { "reviewer" });
        ask["title"] = json!(format!("Release {n}"));
        made.push(server.create(ask).await);
    }
    made.reverse(); // newest first

    // Pages of three: the cursor of each leads to the next, and the last has none.
    let mut seen = Vec::new();
    let mut path = "/api/v1/asks?limit=3".to_owned();
    loop {
        let (status, page) = server.json(Method::GET, &path, None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        seen.extend(
            page["asks"]
                .as_array()
                .expect("asks")
                .iter()
                .map(|a| a["id"].as_str().unwrap_or("").to_owned()),
        );
        match page["next"].as_str() {
            Some(next) => path = format!("/api/v1/asks?limit=3&cursor={next}"),
            None => break,
        }
    }
    assert_eq!(seen, made);

    let (_, reviewers) = server
        .json(Method::GET, "/api/v1/asks?agent=reviewer", None)
        .await;
    assert_eq!(reviewers["asks"].as_array().expect("asks").len(), 3);
    let (_, found) = server
        .json(Method::GET, "/api/v1/asks?q=release%205", None)
        .await;
    assert_eq!(found["asks"][0]["title"], "Release 5");
    assert_eq!(found["asks"].as_array().expect("asks").len(), 1);

    // Refusals are JSON naming the parameter and the rule.
    for (query, says) in [
        ("limit=0", "limit="),
        ("limit=201", "1 to 200"),
        ("limit=ten", "limit="),
        ("cursor=yesterday", "cursor="),
        ("format=xml", "format="),
        ("format=jsonl&after=x", "after="),
    ] {
        let (status, refusal) = server
            .json(Method::GET, &format!("/api/v1/asks?{query}"), None)
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert!(
            refusal["message"].as_str().expect("message").contains(says),
            "{query}: {refusal}"
        );
    }

    // Every match, one JSON summary per line.
    let request = axum::http::Request::get("/api/v1/asks?format=jsonl&agent=builder")
        .header(axum::http::header::HOST, crate::common::HOST)
        .body(axum::body::Body::empty())
        .expect("request");
    let response = server.send(request).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/x-ndjson");
    let text = crate::common::body_text(response).await;
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 4);
    assert!(lines.iter().all(|a| a["agent"] == "builder"));
    assert!(text.ends_with('\n'));

    // Gzipped, as a browser or `curl --compressed` asks for it.
    let request = axum::http::Request::get("/api/v1/asks?format=jsonl")
        .header(axum::http::header::HOST, crate::common::HOST)
        .header(axum::http::header::ACCEPT_ENCODING, "gzip")
        .body(axum::body::Body::empty())
        .expect("request");
    let response = server.send(request).await;
    assert_eq!(response.headers()["content-encoding"], "gzip");
    let bytes = http_body_util::BodyExt::collect(response.into_body())
        .await
        .expect("the whole body")
        .to_bytes();
    let mut unzipped = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut unzipped)
        .expect("gzip");
    assert_eq!(unzipped.lines().count(), 7);

    // No match: an empty export.
    let request = axum::http::Request::get("/api/v1/asks?format=jsonl&agent=nobody&cursor=0.0")
        .header(axum::http::header::HOST, crate::common::HOST)
        .body(axum::body::Body::empty())
        .expect("request");
    let response = server.send(request).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(crate::common::body_text(response).await, "");
}

/// The typed client pages through a list longer than one page: the
/// terminal UI's queue shows every pending ask, not the newest 200.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_follows_next_through_every_page() {
    let mut settings = crate::common::args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    let shutdown = tokio_util::sync::CancellationToken::new();
    let started = crate::common::start(&settings, shutdown.clone())
        .await
        .expect("server");
    let new: interaction::NewAsk = serde_json::from_value(release_ask()).expect("ask");
    for _ in 0..230 {
        started
            .desk
            .create(new.clone(), &desk::Caller::Unnamed)
            .await
            .expect("created");
    }
    let client = client::Client::builder(format!("http://{}", started.addr))
        .build()
        .expect("client");
    let first = client
        .list(client::ListQuery::pending())
        .await
        .expect("a page");
    assert_eq!(first.asks.len(), 200);
    assert!(first.next.is_some());
    let all = client
        .list_all(client::ListQuery::pending())
        .await
        .expect("every page");
    assert_eq!(all.asks.len(), 230);
    let ids: std::collections::HashSet<&str> = all.asks.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(ids.len(), 230, "no ask twice");
    assert_eq!(all.next, None);
    let few = client
        .list(client::ListQuery {
            text: Some("which DATABASE".to_owned()),
            limit: Some(3),
            ..client::ListQuery::default()
        })
        .await
        .expect("a search");
    assert_eq!(few.asks.len(), 3, "the search and limit reach the server");
    shutdown.cancel();
}

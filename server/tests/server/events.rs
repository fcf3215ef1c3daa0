//! The event stream: order, resuming with Last-Event-ID without loss or
//! duplicates, resets, and one ask's own stream.

use crate::common::{combined_answers, release_ask, TestServer, HOST};
use axum::{
    body::Body,
    http::{header, Method, Request, StatusCode},
};
use http_body_util::BodyExt;
use serde_json::Value;
use std::time::Duration;

/// An open event stream, read event by event.
struct Events {
    body: Body,
    buffer: String,
}

/// One parsed event.
#[derive(Debug)]
struct Sse {
    event: String,
    id: String,
    data: Value,
}

impl Events {
    async fn open(server: &TestServer, path: &str, last_event_id: Option<&str>) -> Self {
        let mut request = Request::get(path).header(header::HOST, HOST);
        if let Some(id) = last_event_id {
            request = request.header("last-event-id", id);
        }
        let response = server
            .send(request.body(Body::empty()).expect("request"))
            .await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/event-stream"
        );
        Self {
            body: response.into_body(),
            buffer: String::new(),
        }
    }

    /// The next event (keep-alive comments skipped), within 10 s.
    async fn next(&mut self) -> Sse {
        tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                if let Some(end) = self.buffer.find("\n\n") {
                    let block: String = self.buffer.drain(..end + 2).collect();
                    let mut sse = Sse {
                        event: String::new(),
                        id: String::new(),
                        data: Value::Null,
                    };
                    for line in block.lines() {
                        if let Some(v) = line.strip_prefix("event:") {
                            sse.event = v.trim().to_owned();
                        } else if let Some(v) = line.strip_prefix("id:") {
                            sse.id = v.trim().to_owned();
                        } else if let Some(v) = line.strip_prefix("data:") {
                            sse.data = serde_json::from_str(v.trim()).expect("JSON data");
                        }
                    }
                    if !sse.event.is_empty() {
                        return sse;
                    }
                    continue;
                }
                let frame = self
                    .body
                    .frame()
                    .await
                    .expect("stream open")
                    .expect("frame");
                if let Ok(data) = frame.into_data() {
                    self.buffer
                        .push_str(std::str::from_utf8(&data).expect("utf-8"));
                }
            }
        })
        .await
        .expect("an event within 10 s")
    }

    /// Whether nothing but keep-alives arrives for `wait`.
    async fn quiet_for(&mut self, wait: Duration) -> bool {
        tokio::time::timeout(wait, self.next()).await.is_err()
    }
}

fn seq(event: &Sse) -> u64 {
    event.data["seq"].as_u64().expect("seq")
}

#[tokio::test]
async fn events_arrive_in_order_with_the_ask_as_it_now_is() {
    let server = TestServer::new().await;
    let mut events = Events::open(&server, "/api/v1/events", None).await;
    let first = server.create(release_ask()).await;
    let second = server.create(release_ask()).await;
    server
        .json(
            Method::POST,
            &format!("/api/v1/asks/{first}/answers"),
            Some(combined_answers()),
        )
        .await;
    let got = [
        events.next().await,
        events.next().await,
        events.next().await,
    ];
    assert_eq!(
        got.iter().map(|e| e.event.as_str()).collect::<Vec<_>>(),
        ["ask", "ask", "ask"]
    );
    assert_eq!(got[0].data["ask"]["id"], first.as_str());
    assert_eq!(got[0].data["ask"]["status"], "pending");
    assert_eq!(got[0].data["ask"]["questionCount"], 3);
    assert_eq!(got[1].data["ask"]["id"], second.as_str());
    assert_eq!(got[2].data["ask"]["id"], first.as_str());
    assert_eq!(got[2].data["ask"]["status"], "answered");
    assert!(seq(&got[0]) < seq(&got[1]) && seq(&got[1]) < seq(&got[2]));
    assert_eq!(got[2].id, seq(&got[2]).to_string());
}

#[tokio::test]
async fn a_reconnect_with_last_event_id_replays_exactly_what_was_missed() {
    let server = TestServer::new().await;
    let mut events = Events::open(&server, "/api/v1/events", None).await;
    server.create(release_ask()).await;
    server.create(release_ask()).await;
    let _ = events.next().await;
    let seen = events.next().await;
    drop(events);
    // Missed while disconnected.
    let missed_a = server.create(release_ask()).await;
    let missed_b = server.create(release_ask()).await;
    let mut events = Events::open(&server, "/api/v1/events", Some(&seen.id)).await;
    let a = events.next().await;
    let b = events.next().await;
    assert_eq!(a.data["ask"]["id"], missed_a.as_str());
    assert_eq!(b.data["ask"]["id"], missed_b.as_str());
    assert_eq!((seq(&a), seq(&b)), (seq(&seen) + 1, seq(&seen) + 2));
    // No duplicates: nothing more until something new happens, then that.
    assert!(events.quiet_for(Duration::from_millis(300)).await);
    let live = server.create(release_ask()).await;
    let c = events.next().await;
    assert_eq!(c.data["ask"]["id"], live.as_str());
    assert_eq!(seq(&c), seq(&b) + 1);
}

/// Events are numbered by the database: a stream resumes where it was
/// after the server restarts.
#[tokio::test]
async fn a_stream_resumes_after_a_restart_with_exactly_what_was_missed() {
    use desk::SqliteStore;
    use std::sync::Arc;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("asks.db");
    let open = || async { Arc::new(SqliteStore::open(&path).await.expect("store")) };

    let before = TestServer::with_store(open().await, None).await;
    let mut events = Events::open(&before, "/api/v1/events", None).await;
    before.create(release_ask()).await;
    let seen = events.next().await;
    let missed = before.create(release_ask()).await;
    drop(events);
    drop(before);

    let after = TestServer::with_store(open().await, None).await;
    let also_missed = after.create(release_ask()).await;
    let mut events = Events::open(&after, "/api/v1/events", Some(&seen.id)).await;
    let a = events.next().await;
    let b = events.next().await;
    assert_eq!(
        (a.data["ask"]["id"].as_str(), seq(&a)),
        (Some(missed.as_str()), seq(&seen) + 1)
    );
    assert_eq!(
        (b.data["ask"]["id"].as_str(), seq(&b)),
        (Some(also_missed.as_str()), seq(&seen) + 2)
    );
    assert!(events.quiet_for(Duration::from_millis(300)).await);
}

#[tokio::test]
async fn events_no_longer_kept_get_a_reset_telling_the_client_to_reload() {
    let server = TestServer::new().await;
    for _ in 0..3 {
        server.create(release_ask()).await;
    }
    server.desk.prune_events(1).await.expect("pruned");
    let mut events = Events::open(&server, "/api/v1/events", Some("1")).await;
    assert_eq!(events.next().await.event, "reset");
    let mut events = Events::open(&server, "/api/v1/events", Some("2")).await;
    assert_eq!(seq(&events.next().await), 3, "event 3 is kept");
}

#[tokio::test]
async fn an_unknown_event_id_gets_a_reset_telling_the_client_to_reload() {
    let server = TestServer::new().await;
    // An old server's `<epoch>-<seq>`, anything else, and a number this
    // desk has not reached (another database's).
    for id in ["otherrun-5", "garbage", "99"] {
        let mut events = Events::open(&server, "/api/v1/events", Some(id)).await;
        let reset = events.next().await;
        assert_eq!(reset.event, "reset", "{id}");
        let created = server.create(release_ask()).await;
        assert_eq!(events.next().await.data["ask"]["id"], created.as_str());
    }
}

#[tokio::test]
async fn an_ask_stream_starts_with_the_ask_and_shows_when_its_agent_cancels_it() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let other = server.create(release_ask()).await;
    let mut events = Events::open(&server, &format!("/asks/{id}/events"), None).await;
    let now = events.next().await;
    assert_eq!(now.data["ask"]["status"], "pending");
    server
        .json(Method::DELETE, &format!("/api/v1/asks/{other}"), None)
        .await;
    server
        .json(Method::DELETE, &format!("/api/v1/asks/{id}"), None)
        .await;
    let cancelled = events.next().await;
    assert_eq!(
        cancelled.data["ask"]["id"],
        id.as_str(),
        "only this ask's events"
    );
    assert_eq!(cancelled.data["ask"]["status"], "cancelled");
    let (status, _) = server
        .json(
            Method::GET,
            "/asks/0123456789abcdef0123456789abcdef/events",
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn with_a_token_the_desk_stream_needs_it_and_an_ask_stream_does_not() {
    let server = TestServer::with_token().await;
    let (status, _) = server.json(Method::GET, "/api/v1/events", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let request = Request::post("/api/v1/asks")
        .header(header::HOST, HOST)
        .header(
            header::AUTHORIZATION,
            format!("Bearer {}", crate::common::TOKEN),
        )
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(release_ask().to_string()))
        .expect("request");
    let created: Value =
        serde_json::from_str(&crate::common::body_text(server.send(request).await).await)
            .expect("json");
    let id = created["id"].as_str().expect("id");
    let mut events = Events::open(&server, &format!("/asks/{id}/events"), None).await;
    assert_eq!(events.next().await.data["ask"]["status"], "pending");
}

//! Webhook notifications against a real receiver on loopback: it checks
//! every delivery's signature with the shared secret, and fails on purpose
//! to show a failed delivery is retried with the same id.

use crate::common::args;
use axum::{body::Bytes, extract::State, http::HeaderMap, http::StatusCode, routing::post, Router};
use client::Client;
use interaction::{Answers, NewAsk};
use server::{
    notify::signature,
    run::{start, Started},
};
use std::{
    sync::{Arc, Mutex},
    time::Duration,
};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

const SECRET: &str = "webhook-secret-for-tests";

/// One POST the receiver got: its headers of interest and its JSON.
#[derive(Debug, Clone)]
struct Received {
    event: String,
    delivery: String,
    body: serde_json::Value,
    /// Whether its signature was the HMAC of its body with [`SECRET`].
    signed: bool,
    /// Whether the receiver took it (2xx); it refuses unsigned ones (401)
    /// and fails the first few on purpose (500).
    taken: bool,
}

#[derive(Clone)]
struct Receiver {
    /// How many of the next requests to fail with 500.
    failing: Arc<Mutex<u32>>,
    got: mpsc::UnboundedSender<Received>,
}

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    // Signed with the secret, over the raw body: anything else is refused.
    let signed = header("x-askdesk-signature") == signature(SECRET, &body)
        && header("content-type") == "application/json";
    let taken = signed && {
        let mut failing = receiver.failing.lock().expect("lock");
        let fail = *failing > 0;
        *failing = failing.saturating_sub(1);
        !fail
    };
    let _ = receiver.got.send(Received {
        event: header("x-askdesk-event"),
        delivery: header("x-askdesk-delivery"),
        body: serde_json::from_slice(&body).expect("JSON"),
        signed,
        taken,
    });
    match (signed, taken) {
        (false, _) => StatusCode::UNAUTHORIZED,
        (true, true) => StatusCode::NO_CONTENT,
        (true, false) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

async fn receiver(failing: u32) -> (String, mpsc::UnboundedReceiver<Received>) {
    let (got, heard) = mpsc::unbounded_channel();
    let app = Router::new()
        .route("/hooks/askdesk", post(receive))
        .with_state(Receiver {
            failing: Arc::new(Mutex::new(failing)),
            got,
        });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/hooks/askdesk"), heard)
}

async fn serve(notify: Vec<String>, secret: &str, stop: &CancellationToken) -> (Started, Client) {
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.notify = notify;
    settings.notify_secret = Some(secret.to_owned());
    let started = start(&settings, stop.clone()).await.expect("starts");
    let client = Client::builder(format!("http://{}", started.addr))
        .build()
        .expect("client");
    (started, client)
}

async fn next(heard: &mut mpsc::UnboundedReceiver<Received>) -> Received {
    tokio::time::timeout(Duration::from_secs(20), heard.recv())
        .await
        .expect("a delivery within 20 s")
        .expect("the receiver runs")
}

fn ask() -> NewAsk {
    serde_json::from_value(serde_json::json!({
        "title": "Release plan", "agent": "test-agent",
        "questions": [{"id": "db", "question": "Which database?",
                       "options": [{"label": "SQLite"}, {"label": "PostgreSQL"}]}]
    }))
    .expect("ask")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_hears_of_each_ask_signed_and_a_failed_delivery_comes_again_with_its_id() {
    // The receiver fails its first request.
    let (url, mut heard) = receiver(1).await;
    let stop = CancellationToken::new();
    let (_server, desk) = serve(vec![format!("webhook+{url}")], SECRET, &stop).await;

    let created = desk.create(&ask()).await.expect("created");
    let failed = next(&mut heard).await;
    assert!(failed.signed && !failed.taken);
    assert_eq!(failed.event, "ask.created");
    assert_eq!(failed.body["id"], failed.delivery.as_str());
    assert_eq!(failed.body["event"], "ask.created");
    assert_eq!(failed.body["ask"]["id"], created.id.as_str());
    assert_eq!(failed.body["ask"]["url"], created.url.as_str());
    assert_eq!(failed.body["ask"]["status"], "pending");
    assert_eq!(failed.body["ask"]["title"], "Release plan");
    // Retried after a backoff of 1–2 s: the same delivery, taken this time.
    let again = next(&mut heard).await;
    assert!(again.taken);
    assert_eq!(again.delivery, failed.delivery);

    let answers: Answers = serde_json::from_value(serde_json::json!({
        "answers": [{"id": "db", "selected": ["SQLite"]}]
    }))
    .expect("answers");
    desk.answer(&created.id, &answers).await.expect("answered");
    let finished = next(&mut heard).await;
    assert!(finished.taken);
    assert_eq!(finished.event, "ask.finished");
    assert_ne!(finished.delivery, failed.delivery);
    assert_eq!(finished.body["ask"]["status"], "answered");
    assert_eq!(finished.body["ask"]["answers"][0]["selected"][0], "SQLite");
    // Nothing more: each delivered once.
    assert!(
        tokio::time::timeout(Duration::from_millis(1500), heard.recv())
            .await
            .is_err(),
        "no delivery twice once it was taken"
    );
    stop.cancel();
}

#[tokio::test]
async fn a_receiver_with_another_secret_refuses_and_the_delivery_is_retried_not_lost() {
    let (url, mut heard) = receiver(0).await;
    let stop = CancellationToken::new();
    // This server signs with another key: the receiver refuses (401).
    let (_server, desk) = serve(vec![format!("webhook+{url}")], "another-secret", &stop).await;
    desk.create(&ask()).await.expect("created");
    let refused = next(&mut heard).await;
    assert!(!refused.signed && !refused.taken);
    // A refusal is a failure like any other: the same delivery comes again.
    let again = next(&mut heard).await;
    assert!(!again.signed && !again.taken);
    assert_eq!(again.delivery, refused.delivery);
    stop.cancel();
}

#[tokio::test]
async fn a_bad_notify_value_or_a_webhook_without_a_secret_refuses_to_start() {
    let stop = CancellationToken::new();
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.notify = vec!["pager+https://pager.example/s3cret".to_owned()];
    settings.notify_secret = Some(SECRET.to_owned());
    let message = start(&settings, stop.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(
        message.contains("--notify pager+https://pager.example/…"),
        "{message}"
    );
    assert!(!message.contains("s3cret"), "{message}");
    settings.notify = vec!["webhook+https://hooks.example/s3cret".to_owned()];
    settings.notify_secret = None;
    let message = start(&settings, stop.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(message.contains("--notify-secret"), "{message}");
    assert!(!message.contains("s3cret"), "{message}");
}

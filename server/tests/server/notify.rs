//! Webhook notifications against a real receiver on loopback: it checks
//! every delivery's signature with the shared secret, and fails on purpose
//! to show a failed delivery is retried with the same id.

use crate::common::args;
use crate::common::start;
use ::notify::signature;
use axum::{body::Bytes, extract::State, http::HeaderMap, http::StatusCode, routing::post, Router};
use client::Client;
use interaction::{Answers, NewAsk};
use server::cli::run::Started;
use std::{
    collections::{HashMap, HashSet},
    net::SocketAddr,
    process::Stdio,
    sync::{Arc, Mutex},
    time::Duration,
};
use tokio::io::{AsyncBufReadExt, BufReader};
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
    /// Also fail the first attempt of every delivery: half of all requests.
    fail_first: bool,
    seen: Arc<Mutex<HashSet<String>>>,
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
    let first = receiver
        .seen
        .lock()
        .expect("lock")
        .insert(header("x-askdesk-delivery"));
    let taken = signed && !(receiver.fail_first && first) && {
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
    receiver_on("127.0.0.1:0".parse().expect("addr"), failing, false).await
}

/// A receiver at `addr` that fails its first `failing` requests, and with
/// `fail_first` the first attempt of every delivery too.
async fn receiver_on(
    addr: SocketAddr,
    failing: u32,
    fail_first: bool,
) -> (String, mpsc::UnboundedReceiver<Received>) {
    let (got, heard) = mpsc::unbounded_channel();
    let app = Router::new()
        .route("/hooks/askdesk", post(receive))
        .with_state(Receiver {
            failing: Arc::new(Mutex::new(failing)),
            fail_first,
            seen: Arc::default(),
            got,
        });
    let listener = tokio::net::TcpListener::bind(addr).await.expect("bind");
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
    next_within(heard, Duration::from_secs(20)).await
}

async fn next_within(heard: &mut mpsc::UnboundedReceiver<Received>, within: Duration) -> Received {
    tokio::time::timeout(within, heard.recv())
        .await
        .expect("a delivery in time")
        .expect("the receiver runs")
}

/// A notification's text without the isolates around the agent's words
/// (`notify::messages::isolated`, which its own tests check).
fn plain(text: &serde_json::Value) -> String {
    text.as_str()
        .unwrap_or_default()
        .replace(['\u{2068}', '\u{2069}'], "")
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

    // The API and the ask's page show how each went.
    let read: serde_json::Value =
        reqwest::get(format!("{}/api/v1/asks/{}", desk.base(), created.id))
            .await
            .expect("GET")
            .json()
            .await
            .expect("JSON");
    let shown = read["deliveries"].as_array().expect("deliveries");
    let line = |d: &serde_json::Value| {
        (
            d["id"].as_str().unwrap_or_default().to_owned(),
            d["event"].as_str().unwrap_or_default().to_owned(),
            d["state"].as_str().unwrap_or_default().to_owned(),
            d["attempts"].as_u64().unwrap_or_default(),
        )
    };
    assert_eq!(
        shown.iter().map(line).collect::<Vec<_>>(),
        [
            (
                failed.delivery.clone(),
                "ask.created".to_owned(),
                "delivered".to_owned(),
                2
            ),
            (
                finished.delivery.clone(),
                "ask.finished".to_owned(),
                "delivered".to_owned(),
                1
            ),
        ]
    );
    assert!(shown[0]["channel"]
        .as_str()
        .expect("channel")
        .starts_with("webhook 127.0.0.1:"));
    let page = reqwest::get(&created.url)
        .await
        .expect("page")
        .text()
        .await
        .expect("HTML");
    assert!(
        page.contains("Notifications") && page.contains("delivered at"),
        "{page}"
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
    settings.notify_secret = Some(SECRET.to_owned());
    settings.escalate = Some("webhook+https://pager.example/s3cret".to_owned());
    let message = start(&settings, stop.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(message.contains("--escalate-after"), "{message}");
    settings.escalate_after = Some(Duration::from_secs(60));
    settings.escalate = Some("pager+https://pager.example/s3cret".to_owned());
    let message = start(&settings, stop.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(
        message.starts_with("--escalate pager+https://pager.example/…"),
        "{message}"
    );
    settings.escalate = None;
    settings.escalate_after = None;
    settings.notify = Vec::new();
    settings.remind_after = Some(Duration::from_secs(60));
    let message = start(&settings, stop.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(
        message.contains("--remind-after needs a --notify"),
        "{message}"
    );
}

/// A real `askdesk` process with `command`'s arguments and environment
/// (its stderr as `command` says), and where it serves, once it does.
pub(crate) async fn spawned(
    mut command: tokio::process::Command,
) -> (tokio::process::Child, String) {
    let mut child = command
        .args(["--addr", "127.0.0.1:0"])
        .env_remove("ASKDESK_TOKEN")
        .env_remove("ASKDESK_NOTIFY")
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("askdesk runs");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("askdesk starts")
        .expect("read")
        .expect("a line");
    let served = line
        .strip_prefix("askdesk is serving on ")
        .expect("the address")
        .to_owned();
    (child, served)
}

/// A real `askdesk` process on `database`, telling the webhook at `url`.
async fn askdesk_process(database: &std::path::Path, url: &str) -> (tokio::process::Child, Client) {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"));
    command
        .args(["--notify", &format!("webhook+{url}")])
        .arg("--database")
        .arg(database)
        .env("ASKDESK_NOTIFY_SECRET", SECRET)
        .stderr(Stdio::null());
    let (child, served) = spawned(command).await;
    (child, Client::builder(served).build().expect("client"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notification_owed_when_askdesk_is_killed_arrives_after_a_restart_under_one_id() {
    let dir = tempfile::tempdir().expect("tempdir");
    let database = dir.path().join("askdesk.db");
    // The receiver is down: nothing listens on its port yet.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr");
    let url = format!("http://{port}/hooks/askdesk");
    let (mut first, desk) = askdesk_process(&database, &url).await;
    let created = desk.create(&ask()).await.expect("created");
    first.kill().await.expect("SIGKILL");

    let (_second, _desk) = askdesk_process(&database, &url).await;
    let (_, mut heard) = receiver_on(port, 0, false).await;
    // Killed between claiming the delivery and recording its failure, the
    // first process leaves it leased: it comes back when the lease ends.
    let arrived = next_within(&mut heard, ::notify::LEASE * 2).await;
    assert!(arrived.signed && arrived.taken);
    assert_eq!(arrived.event, "ask.created");
    assert_eq!(arrived.body["ask"]["id"], created.id.as_str());
    // At least once: a repeat may come, under the same id only.
    while let Ok(Some(again)) = tokio::time::timeout(Duration::from_secs(3), heard.recv()).await {
        assert_eq!(again.delivery, arrived.delivery);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_asks_to_a_receiver_failing_half_the_time_are_all_delivered_once() {
    // Every delivery's first attempt fails: half of all requests.
    let (url, mut heard) = receiver_on("127.0.0.1:0".parse().expect("addr"), 0, true).await;
    let stop = CancellationToken::new();
    let (_server, desk) = serve(vec![format!("webhook+{url}")], SECRET, &stop).await;
    let mut asks = HashSet::new();
    for _ in 0..1000 {
        asks.insert(desk.create(&ask()).await.expect("created").id);
    }
    let mut taken: HashMap<String, String> = HashMap::new();
    let (mut failed, mut delivered) = (0, 0);
    while taken.len() < asks.len() {
        let got = next(&mut heard).await;
        assert!(got.signed);
        if got.taken {
            delivered += 1;
            let ask = got.body["ask"]["id"].as_str().expect("id").to_owned();
            assert!(asks.contains(&ask), "a notification of an ask made here");
            let before = taken.insert(ask, got.delivery);
            assert!(before.is_none(), "each ask's creation delivered once");
        } else {
            failed += 1;
        }
    }
    assert_eq!((failed, delivered), (1000, 1000));
    stop.cancel();
}

/// An ntfy server on loopback: takes JSON publishes at its root, as ntfy
/// does, and hands each message to the test.
async fn ntfy_server() -> (
    String,
    mpsc::UnboundedReceiver<(Option<String>, serde_json::Value)>,
) {
    let (got, heard) = mpsc::unbounded_channel();
    let app = Router::new().route(
        "/",
        post(
            move |headers: HeaderMap, axum::Json(message): axum::Json<serde_json::Value>| {
                let got = got.clone();
                async move {
                    let auth = headers
                        .get("authorization")
                        .and_then(|v| v.to_str().ok())
                        .map(str::to_owned);
                    let _ = got.send((auth, message));
                    axum::Json(serde_json::json!({"id": "n1", "event": "message"}))
                }
            },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}"), heard)
}

type Published = mpsc::UnboundedReceiver<(Option<String>, serde_json::Value)>;

/// The next message published to the ntfy stand-in, with its Authorization.
async fn next_message(heard: &mut Published) -> (Option<String>, serde_json::Value) {
    tokio::time::timeout(Duration::from_secs(20), heard.recv())
        .await
        .expect("a message within 20 s")
        .expect("ntfy runs")
}

/// Presses an ntfy `http` action as the ntfy app does: its method, URL,
/// headers and body, nothing else.
async fn press(action: &serde_json::Value) -> (u16, serde_json::Value) {
    let http = reqwest::Client::new();
    let mut request = http.request(
        action["method"]
            .as_str()
            .expect("method")
            .parse()
            .expect("a method"),
        action["url"].as_str().expect("url"),
    );
    for (name, value) in action["headers"].as_object().expect("headers") {
        request = request.header(name.as_str(), value.as_str().expect("a header value"));
    }
    let reply = request
        .body(action["body"].as_str().expect("body").to_owned())
        .send()
        .await
        .expect("the action reaches askdesk");
    let status = reply.status().as_u16();
    (status, reply.json().await.expect("JSON"))
}

fn yes_no_ask() -> NewAsk {
    serde_json::from_value(serde_json::json!({
        "title": "Deploy now?", "agent": "release-bot",
        "questions": [{"id": "go", "header": "Deploy", "question": "Ship 2.3 to production?",
                       "options": [{"label": "Yes", "description": "Deploy now"},
                                   {"label": "No"}, {"label": "Tomorrow"}]}]
    }))
    .expect("ask")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ntfy_shows_the_question_and_its_buttons_answer_once_and_only_their_own_ask() {
    let (root, mut heard) = ntfy_server().await;
    let stop = CancellationToken::new();
    let channel = format!(
        "ntfy+{}/desk-topic",
        root.replacen("http://", "http://me:pw@", 1)
    );
    let (_server, desk) = serve(vec![channel], SECRET, &stop).await;
    let created = desk.create(&yes_no_ask()).await.expect("created");
    let (auth, message) = next_message(&mut heard).await;
    // me:pw as Basic auth.
    assert_eq!(auth.as_deref(), Some("Basic bWU6cHc="));
    assert_eq!(message["topic"], "desk-topic");
    assert_eq!(
        message["title"],
        "\u{2068}release-bot\u{2069} asks: \u{2068}Deploy now?\u{2069}"
    );
    assert_eq!(
        plain(&message["message"]),
        "Deploy: Ship 2.3 to production?\n  • Yes — Deploy now\n  • No\n  • Tomorrow"
    );
    assert_eq!(message["click"], created.url.as_str());
    let actions = message["actions"].as_array().expect("actions").clone();
    let labels: Vec<&str> = actions
        .iter()
        .map(|a| a["label"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(labels, ["Yes", "No", "Tomorrow"]);
    assert!(actions
        .iter()
        .all(|a| a["action"] == "http" && a["method"] == "POST"));

    // Another ask's buttons do not answer this one, nor does a forged
    // token: 403, and nothing changes.
    let other = desk.create(&yes_no_ask()).await.expect("created");
    let (_, other_message) = next_message(&mut heard).await;
    let mut crossed = other_message["actions"][0].clone();
    crossed["url"] = actions[0]["url"].clone();
    assert_eq!(press(&crossed).await.0, 403);
    let mut forged = actions[0].clone();
    forged["body"] = serde_json::json!({"label": "Yes", "token": "0".repeat(32)})
        .to_string()
        .into();
    let (status, refusal) = press(&forged).await;
    assert_eq!(status, 403);
    assert!(
        refusal["message"]
            .as_str()
            .expect("message")
            .contains("not valid"),
        "{refusal}"
    );
    let mut relabelled = actions[0].clone();
    let token: serde_json::Value =
        serde_json::from_str(actions[0]["body"].as_str().expect("body")).expect("JSON");
    relabelled["body"] = serde_json::json!({"label": "No", "token": token["token"]})
        .to_string()
        .into();
    assert_eq!(press(&relabelled).await.0, 403);
    assert_eq!(
        desk.get(&created.id).await.expect("read").status,
        interaction::AskStatus::Pending
    );

    // "Tomorrow" answers, through the desk like any answer.
    let (status, answered) = press(&actions[2]).await;
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["status"], "answered");
    assert_eq!(answered["via"], "ntfy", "answered through ntfy's button");
    assert_eq!(
        answered["answers"],
        serde_json::json!([{"id": "go", "selected": ["Tomorrow"]}])
    );
    // Used once: again is 403; another button of the ended ask is 409.
    let (status, _) = press(&actions[2]).await;
    assert_eq!(status, 403);
    let (status, ended) = press(&actions[0]).await;
    assert_eq!(status, 409, "{ended}");
    assert_eq!(ended["ask"]["answers"][0]["selected"][0], "Tomorrow");
    // The end is told too, with no buttons.
    let (_, finished) = next_message(&mut heard).await;
    assert_eq!(plain(&finished["title"]), "release-bot: Deploy now?");
    assert!(finished["message"]
        .as_str()
        .expect("text")
        .starts_with("Answered: Tomorrow\n"));
    assert_eq!(finished["actions"], serde_json::json!([]));

    // An ask answered elsewhere first (on its page): its button gets 409.
    let on_page: Answers = serde_json::from_value(serde_json::json!({
        "answers": [{"id": "go", "selected": ["No"]}]
    }))
    .expect("answers");
    desk.answer(&other.id, &on_page)
        .await
        .expect("answered on the page");
    let (status, ended) = press(&other_message["actions"][0]).await;
    assert_eq!(status, 409, "{ended}");
    assert_eq!(ended["ask"]["answers"][0]["selected"][0], "No");
    stop.cancel();
}

#[tokio::test]
async fn an_ask_with_more_than_one_question_or_many_options_gets_no_buttons() {
    let (root, mut heard) = ntfy_server().await;
    let stop = CancellationToken::new();
    let (_server, desk) = serve(vec![format!("ntfy+{root}/t")], SECRET, &stop).await;
    desk.create(&ask()).await.expect("created"); // one question, 2 options: buttons
    let mut four = serde_json::to_value(yes_no_ask()).expect("JSON");
    four["questions"][0]["options"]
        .as_array_mut()
        .expect("options")
        .push(serde_json::json!({"label": "Never"}));
    desk.create(&serde_json::from_value(four).expect("ask"))
        .await
        .expect("created");
    let mut multi = serde_json::to_value(yes_no_ask()).expect("JSON");
    multi["questions"][0]["multiSelect"] = true.into();
    desk.create(&serde_json::from_value(multi).expect("ask"))
        .await
        .expect("created");
    let mut counts = Vec::new();
    for _ in 0..3 {
        let (_, message) = tokio::time::timeout(Duration::from_secs(20), heard.recv())
            .await
            .expect("a message")
            .expect("ntfy runs");
        counts.push((
            message["title"].as_str().unwrap_or_default().to_owned(),
            message["actions"].as_array().map_or(0, Vec::len),
        ));
    }
    counts.sort();
    assert_eq!(
        counts
            .iter()
            .map(|(_, n)| *n)
            .collect::<Vec<_>>()
            .iter()
            .sum::<usize>(),
        2,
        "only the two-option single-select ask has buttons: {counts:?}"
    );
    stop.cancel();
}

const SLACK_SECRET: &str = "slack-signing-secret-for-tests";

/// A Slack stand-in on loopback: the incoming webhook (`/services/…`) and
/// the messages' `response_url` (`/respond`), each handing what it got to
/// the test.
async fn slack_server() -> (String, Published) {
    let (got, heard) = mpsc::unbounded_channel();
    let app = Router::new().route(
        "/{*path}",
        post(
            move |uri: axum::http::Uri, axum::Json(message): axum::Json<serde_json::Value>| {
                let got = got.clone();
                async move {
                    let _ = got.send((Some(uri.path().to_owned()), message));
                    "ok"
                }
            },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}"), heard)
}

/// Presses a Slack message's button as Slack does: the interaction payload
/// as a form, signed at `timestamp` with `secret`.
async fn slack_press(
    server: &str,
    value: &str,
    response_url: &str,
    secret: &str,
    timestamp: i64,
) -> u16 {
    let payload = serde_json::json!({
        "type": "block_actions",
        "user": {"id": "U1", "username": "alice"},
        "actions": [{"action_id": "askdesk_answer_0", "type": "button", "value": value}],
        "response_url": response_url,
    });
    let body = serde_urlencoded::to_string([("payload", payload.to_string())]).expect("form");
    let timestamp = timestamp.to_string();
    reqwest::Client::new()
        .post(format!("{server}/integrations/slack/actions"))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("x-slack-request-timestamp", &timestamp)
        .header(
            "x-slack-signature",
            server::routes::slack::sign(secret, &timestamp, body.as_bytes()),
        )
        .body(body)
        .send()
        .await
        .expect("askdesk answers")
        .status()
        .as_u16()
}

fn unix_now() -> i64 {
    i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("time")
            .as_secs(),
    )
    .expect("seconds")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slack_shows_the_question_and_its_signed_button_presses_answer_once() {
    let (slack, mut heard) = slack_server().await;
    let stop = CancellationToken::new();
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.notify = vec![format!("slack+{slack}/services/T0/B0/hook")];
    settings.slack_signing_secret = Some(SLACK_SECRET.to_owned());
    let started = start(&settings, stop.clone()).await.expect("starts");
    let server = format!("http://{}", started.addr);
    let desk = Client::builder(server.clone()).build().expect("client");

    let created = desk.create(&yes_no_ask()).await.expect("created");
    let (path, message) = next_message(&mut heard).await;
    assert_eq!(path.as_deref(), Some("/services/T0/B0/hook"));
    assert_eq!(
        message["text"],
        "\u{2068}release-bot\u{2069} asks: \u{2068}Deploy now?\u{2069}"
    );
    let blocks = message["blocks"].as_array().expect("blocks");
    assert_eq!(
        blocks[0]["text"]["text"],
        "\u{2068}release-bot\u{2069} asks: \u{2068}Deploy now?\u{2069}"
    );
    assert_eq!(
        plain(&blocks[1]["text"]["text"]),
        "*Deploy*: Ship 2.3 to production?\n• Yes — Deploy now\n• No\n• Tomorrow"
    );
    let buttons = blocks[2]["elements"].as_array().expect("buttons");
    let texts: Vec<&str> = buttons
        .iter()
        .map(|b| b["text"]["text"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(texts, ["Yes", "No", "Tomorrow", "Answer"]);
    assert_eq!(buttons[3]["url"], created.url.as_str());
    let yes = buttons[0]["value"].as_str().expect("value").to_owned();
    let respond = format!("{slack}/respond");

    // Bad and stale signatures are refused before anything is read.
    let now = unix_now();
    assert_eq!(
        slack_press(&server, &yes, &respond, "not-the-secret", now).await,
        401
    );
    assert_eq!(
        slack_press(&server, &yes, &respond, SLACK_SECRET, now - 600).await,
        401
    );
    assert_eq!(
        desk.get(&created.id).await.expect("read").status,
        interaction::AskStatus::Pending
    );

    // A signed press answers, and Slack hears how it went.
    assert_eq!(
        slack_press(&server, &yes, &respond, SLACK_SECRET, now).await,
        200
    );
    // Slack hears the outcome, and the channel the end of the ask: in
    // either order.
    let mut replies = Vec::new();
    while replies.len() < 2 {
        let (path, got) = next_message(&mut heard).await;
        replies.push((path.unwrap_or_default(), got));
    }
    replies.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(replies[0].0, "/respond");
    assert_eq!(replies[0].1["text"], "Answered: Yes");
    assert_eq!(replies[1].0, "/services/T0/B0/hook");
    assert_eq!(plain(&replies[1].1["text"]), "release-bot: Deploy now?");
    let ask = desk.get(&created.id).await.expect("read");
    assert_eq!(
        ask.via,
        Some(interaction::Via::Slack),
        "answered through Slack"
    );
    assert_eq!(ask.answered_by, None);
    assert_eq!(ask.answers.expect("answers")[0].selected, ["Yes"]);
    // Pressed again: nothing changes, and Slack is told why.
    assert_eq!(
        slack_press(&server, &yes, &respond, SLACK_SECRET, now).await,
        200
    );
    let (path, again) = next_message(&mut heard).await;
    assert_eq!(path.as_deref(), Some("/respond"));
    assert!(again["text"]
        .as_str()
        .expect("text")
        .contains("used already"));
    stop.cancel();
}

#[tokio::test]
async fn without_a_signing_secret_slack_messages_only_link_and_presses_are_refused() {
    let (slack, mut heard) = slack_server().await;
    let stop = CancellationToken::new();
    let (started, desk) = serve(vec![format!("slack+{slack}/services/x")], SECRET, &stop).await;
    desk.create(&yes_no_ask()).await.expect("created");
    let (_, message) = next_message(&mut heard).await;
    let buttons = message["blocks"][2]["elements"]
        .as_array()
        .expect("buttons");
    assert_eq!(buttons.len(), 1, "only the link: {buttons:?}");
    let server = format!("http://{}", started.addr);
    let status = slack_press(
        &server,
        "{}",
        "http://127.0.0.1:9/",
        SLACK_SECRET,
        unix_now(),
    )
    .await;
    assert_eq!(status, 404);
    stop.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_ask_is_reminded_and_escalated_and_both_stop_when_it_is_answered() {
    let (url, mut heard) = receiver(0).await;
    let (pager, mut paged) = receiver(0).await;
    let stop = CancellationToken::new();
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.notify = vec![format!("webhook+{url}")];
    settings.notify_secret = Some(SECRET.to_owned());
    settings.remind_after = Some(Duration::from_secs(1));
    settings.remind_max = 2;
    settings.escalate_after = Some(Duration::from_secs(2));
    settings.escalate = Some(format!("webhook+{pager}"));
    let started = start(&settings, stop.clone()).await.expect("starts");
    let desk = Client::builder(format!("http://{}", started.addr))
        .build()
        .expect("client");

    let waiting = desk.create(&ask()).await.expect("created").id;
    let events: Vec<String> = [
        next(&mut heard).await,
        next(&mut heard).await,
        next(&mut heard).await,
    ]
    .into_iter()
    .map(|r| {
        assert_eq!(r.body["ask"]["id"], waiting.as_str());
        r.event
    })
    .collect();
    assert_eq!(events, ["ask.created", "ask.reminder", "ask.reminder"]);
    let escalated = next(&mut paged).await;
    assert_eq!(escalated.event, "ask.reminder");
    assert_eq!(escalated.body["ask"]["status"], "pending");

    // Answered before its first reminder: no reminder, no escalation.
    let answered = desk.create(&ask()).await.expect("created").id;
    assert_eq!(next(&mut heard).await.event, "ask.created");
    let answers: Answers = serde_json::from_value(serde_json::json!({
        "answers": [{"id": "db", "selected": ["SQLite"]}]
    }))
    .expect("answers");
    desk.answer(&answered, &answers).await.expect("answered");
    let finished = next(&mut heard).await;
    assert_eq!(
        (finished.event.as_str(), &finished.body["ask"]["id"]),
        ("ask.finished", &serde_json::json!(answered))
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(3500), heard.recv())
            .await
            .is_err(),
        "no reminder of an answered ask"
    );
    assert!(
        paged.try_recv().is_err(),
        "no escalation of an answered ask"
    );
    stop.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_never_reach_the_log() {
    // Every secret a channel can hold: in URLs' paths, queries and logins,
    // the webhook key and Slack's signing secret. The receivers are down,
    // so failures are logged too.
    let secrets = [
        "hook-path-s3cret",
        "hook-query-s3cret",
        "ntfy-pass-s3cret",
        "slack-path-s3cret",
        "webhook-key-s3cret",
        "slack-signing-s3cret",
    ];
    let down = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr");
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"));
    command
        .args(["--database", ":memory:"])
        .arg("--notify")
        .arg(format!(
            "webhook+http://{down}/{}?key={}",
            secrets[0], secrets[1]
        ))
        .arg("--notify")
        .arg(format!("ntfy+http://me:{}@{down}/topic", secrets[2]))
        .arg("--notify")
        .arg(format!("slack+http://{down}/services/{}", secrets[3]))
        .env("ASKDESK_NOTIFY_SECRET", secrets[4])
        .env("ASKDESK_SLACK_SIGNING_SECRET", secrets[5])
        .env("RUST_LOG", "debug")
        .stderr(Stdio::piped());
    let (mut child, served) = spawned(command).await;
    let desk = Client::builder(served.clone()).build().expect("client");
    let created = desk.create(&yes_no_ask()).await.expect("created");
    // A Slack press with a bad signature is refused and logged.
    assert_eq!(
        slack_press(&served, "{}", "http://127.0.0.1:9/", "wrong", unix_now()).await,
        401
    );
    // Until every channel has failed at least once.
    let failed_everywhere = async {
        loop {
            let read: serde_json::Value =
                reqwest::get(format!("{served}/api/v1/asks/{}", created.id))
                    .await
                    .expect("GET")
                    .json()
                    .await
                    .expect("JSON");
            let deliveries = read["deliveries"].as_array().cloned().unwrap_or_default();
            if deliveries.len() == 3 && deliveries.iter().all(|d| !d["lastError"].is_null()) {
                return read.to_string();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    let shown = tokio::time::timeout(Duration::from_secs(20), failed_everywhere)
        .await
        .expect("every channel tried");
    child.start_kill().expect("stop");
    let output = child.wait_with_output().await.expect("output");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(
        log.contains("a notification failed"),
        "the failures are logged: {log}"
    );
    assert!(log.contains("bad or stale signature"), "{log}");
    for secret in secrets {
        assert!(!log.contains(secret), "{secret} is in the log:\n{log}");
        assert!(
            !shown.contains(secret),
            "{secret} is in the API's reply: {shown}"
        );
    }
}

/// What a push service stand-in got: the path, headers of interest, body.
type Pushed = mpsc::UnboundedReceiver<(String, HeaderMap, Vec<u8>)>;

/// A push service on loopback: `/push/live` takes messages (201),
/// `/push/gone` says the subscription is gone (410).
async fn push_service() -> (String, Pushed) {
    let (got, heard) = mpsc::unbounded_channel();
    let app = Router::new().route(
        "/push/{which}",
        post(
            move |axum::extract::Path(which): axum::extract::Path<String>,
                  headers: HeaderMap,
                  body: Bytes| {
                let got = got.clone();
                async move {
                    let _ = got.send((which.clone(), headers, body.to_vec()));
                    if which == "gone" {
                        StatusCode::GONE
                    } else {
                        StatusCode::CREATED
                    }
                }
            },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}"), heard)
}

fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

fn unb64(text: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text)
        .expect("base64url")
}

/// An HKDF output length for ring.
struct Len(usize);

impl ring::hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

fn hkdf(salt: &[u8], ikm: &[u8], info: &[&[u8]], len: usize) -> Vec<u8> {
    let prk = ring::hkdf::Salt::new(ring::hkdf::HKDF_SHA256, salt).extract(ikm);
    let mut out = vec![0u8; len];
    prk.expand(info, Len(len))
        .expect("expand")
        .fill(&mut out)
        .expect("fill");
    out
}

/// Decrypts a push as the browser would (RFC 8291, RFC 8188), on its own
/// terms: ring's HKDF, not the server's.
fn decrypt(
    ua_private: ring::agreement::EphemeralPrivateKey,
    ua_public: &[u8],
    auth: &[u8],
    body: &[u8],
) -> Vec<u8> {
    use ring::{aead, agreement};
    let (salt, rest) = body.split_at(16);
    let record_size = u32::from_be_bytes(rest[..4].try_into().expect("4 bytes"));
    assert!(record_size >= 18);
    let id_len = usize::from(rest[4]);
    let (as_public, ciphertext) = rest[5..].split_at(id_len);
    let peer = agreement::UnparsedPublicKey::new(&agreement::ECDH_P256, as_public);
    let secret = agreement::agree_ephemeral(ua_private, &peer, |s| s.to_vec()).expect("ECDH");
    let ikm = hkdf(
        auth,
        &secret,
        &[b"WebPush: info\0", ua_public, as_public],
        32,
    );
    let cek = hkdf(salt, &ikm, &[b"Content-Encoding: aes128gcm\0"], 16);
    let nonce = hkdf(salt, &ikm, &[b"Content-Encoding: nonce\0"], 12);
    let key = aead::LessSafeKey::new(aead::UnboundKey::new(&aead::AES_128_GCM, &cek).expect("key"));
    let mut record = ciphertext.to_vec();
    let plain = key
        .open_in_place(
            aead::Nonce::try_assume_unique_for_key(&nonce).expect("nonce"),
            aead::Aad::empty(),
            &mut record,
        )
        .expect("the push decrypts with the subscription's keys");
    assert_eq!(plain.last(), Some(&2), "one record, the last");
    plain[..plain.len() - 1].to_vec()
}

/// Checks a push's VAPID `Authorization` (RFC 8292): the key is the
/// server's, the JWT is signed by it, for this push service's origin, for
/// `subject`, and not expired.
fn check_vapid(authorization: &str, server_key: &str, origin: &str, subject: &str) {
    let rest = authorization
        .strip_prefix("vapid t=")
        .expect("vapid scheme");
    let (token, key) = rest.split_once(", k=").expect("t and k");
    assert_eq!(key, server_key);
    let mut parts = token.split('.');
    let (header, claims, signature) = (
        parts.next().expect("header"),
        parts.next().expect("claims"),
        parts.next().expect("signature"),
    );
    let header: serde_json::Value = serde_json::from_slice(&unb64(header)).expect("JSON");
    assert_eq!(header["alg"], "ES256");
    ring::signature::UnparsedPublicKey::new(&ring::signature::ECDSA_P256_SHA256_FIXED, unb64(key))
        .verify(
            format!("{}.{}", token.split('.').next().unwrap_or(""), claims).as_bytes(),
            &unb64(signature),
        )
        .expect("signed with the server's VAPID key");
    let claims: serde_json::Value = serde_json::from_slice(&unb64(claims)).expect("JSON");
    assert_eq!(claims["aud"], origin);
    assert_eq!(claims["sub"], subject);
    let exp = claims["exp"].as_i64().expect("exp");
    let now = unix_now();
    assert!(now < exp && exp <= now + 24 * 3600, "exp {exp}, now {now}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_push_reaches_subscribed_browsers_encrypted_and_signed_and_drops_gone_ones() {
    use ring::{agreement, rand::SecureRandom};
    let (service, mut pushed) = push_service().await;
    let stop = CancellationToken::new();
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.web_push = Some("mailto:desk@example.com".to_owned());
    let started = start(&settings, stop.clone()).await.expect("starts");
    let server = format!("http://{}", started.addr);
    let desk = Client::builder(server.clone()).build().expect("client");
    let http = reqwest::Client::new();

    let key: serde_json::Value = http
        .get(format!("{server}/api/v1/push/key"))
        .send()
        .await
        .expect("GET key")
        .json()
        .await
        .expect("JSON");
    let server_key = key["publicKey"].as_str().expect("publicKey").to_owned();
    assert_eq!(unb64(&server_key).len(), 65);

    // While no browser is subscribed, asks owe no push.
    let early = desk.create(&ask()).await.expect("created");
    let read: serde_json::Value = http
        .get(format!("{server}/api/v1/asks/{}", early.id))
        .send()
        .await
        .expect("GET")
        .json()
        .await
        .expect("JSON");
    assert!(read.get("deliveries").is_none(), "{read}");

    // A browser's keys, as PushManager.subscribe makes them.
    let rng = ring::rand::SystemRandom::new();
    let ua_private =
        agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &rng).expect("key");
    let ua_public = ua_private
        .compute_public_key()
        .expect("public")
        .as_ref()
        .to_vec();
    let mut auth = [0u8; 16];
    rng.fill(&mut auth).expect("random");
    let subscribe = |endpoint: String, p256dh: String| {
        let http = http.clone();
        let server = server.clone();
        async move {
            http.post(format!("{server}/api/v1/push/subscriptions"))
                .json(&serde_json::json!({
                    "endpoint": endpoint, "expirationTime": null,
                    "keys": {"p256dh": p256dh, "auth": b64(&auth)}
                }))
                .send()
                .await
                .expect("POST subscription")
        }
    };
    // A bad key is refused, naming the field.
    let refused = subscribe(format!("{service}/push/live"), b64(&[4u8; 10])).await;
    assert_eq!(refused.status().as_u16(), 422);
    let refused: serde_json::Value = refused.json().await.expect("JSON");
    assert!(refused["message"]
        .as_str()
        .expect("message")
        .starts_with("keys.p256dh:"));
    let refused = subscribe("http://push.example/x".to_owned(), b64(&ua_public)).await;
    assert_eq!(refused.status().as_u16(), 422, "plain http off loopback");
    for which in ["gone", "live"] {
        let made = subscribe(format!("{service}/push/{which}"), b64(&ua_public)).await;
        assert_eq!(made.status().as_u16(), 201);
    }

    let two: NewAsk = serde_json::from_value(serde_json::json!({
        "title": "Deploy now?", "agent": "release-bot",
        "questions": [{"id": "go", "question": "Ship 2.3 to production?",
                       "options": [{"label": "Yes"}, {"label": "No"}]}]
    }))
    .expect("ask");
    let created = desk.create(&two).await.expect("created");
    let mut got = Vec::new();
    while got.len() < 2 {
        got.push(
            tokio::time::timeout(Duration::from_secs(20), pushed.recv())
                .await
                .expect("a push within 20 s")
                .expect("the service runs"),
        );
    }
    got.sort_by(|a, b| a.0.cmp(&b.0));
    let (which, headers, body) = got.pop().expect("the live one");
    assert_eq!(which, "live");
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    };
    assert_eq!(header("content-encoding"), "aes128gcm");
    assert_eq!(header("ttl"), "86400");
    assert_eq!(header("urgency"), "high");
    check_vapid(
        header("authorization"),
        &server_key,
        &service,
        "mailto:desk@example.com",
    );
    let message: serde_json::Value =
        serde_json::from_slice(&decrypt(ua_private, &ua_public, &auth, &body)).expect("JSON");
    assert_eq!(
        message["title"],
        "\u{2068}release-bot\u{2069} asks: \u{2068}Deploy now?\u{2069}"
    );
    assert_eq!(message["body"], "Ship 2.3 to production?");
    assert_eq!(message["url"], created.url.as_str());
    assert_eq!(message["tag"], created.id.as_str());
    let actions = message["actions"].as_array().expect("actions");
    assert_eq!(actions.len(), 2);

    // The notification's "No" answers, as the service worker sends it.
    let pressed = http
        .post(message["actionUrl"].as_str().expect("actionUrl"))
        .json(&actions[1])
        .send()
        .await
        .expect("POST action");
    assert_eq!(pressed.status().as_u16(), 200);
    let ask = desk.get(&created.id).await.expect("read");
    assert_eq!(ask.answers.expect("answers")[0].selected, ["No"]);

    // The gone subscription was dropped: the end of the ask goes to the
    // live one only.
    let (which, headers, _) = tokio::time::timeout(Duration::from_secs(20), pushed.recv())
        .await
        .expect("the end is pushed")
        .expect("the service runs");
    assert_eq!(which, "live");
    assert_eq!(
        headers.get("urgency").and_then(|v| v.to_str().ok()),
        Some("normal")
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(1500), pushed.recv())
            .await
            .is_err(),
        "nothing more, and nothing to the gone one"
    );
    stop.cancel();
}

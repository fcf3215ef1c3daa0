//! `--keep-finished` against the real binary: a desk with asks finished
//! long ago and lately, served with a keep of 90 days, loses exactly the
//! old ones, says so in its log and on `/history`, and keeps the rest.

use desk::{Desk, SqliteStore};
use serde_json::json;
use std::{
    process::Stdio,
    sync::{
        atomic::{AtomicI64, Ordering},
        Arc,
    },
    time::{Duration, SystemTime, UNIX_EPOCH},
};
use tokio::io::{AsyncBufReadExt, BufReader};

const DAY: i64 = 86_400_000;

fn new_ask() -> interaction::NewAsk {
    serde_json::from_value(json!({"title": "Old news", "questions": [
        {"id": "go", "question": "Ship it?", "options": [{"label": "Yes"}, {"label": "No"}]}]}))
    .expect("ask")
}

fn answer() -> interaction::Answers {
    serde_json::from_value(json!({"answers": [{"id": "go", "selected": ["Yes"]}]}))
        .expect("answers")
}

#[tokio::test]
async fn a_desk_keeping_90_days_removes_older_finished_asks_and_says_how_many() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("desk.db");
    let system_now = i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("time")
            .as_millis(),
    )
    .expect("ms");
    // Written 100 days ago by a desk whose clock says so.
    let now = Arc::new(AtomicI64::new(system_now - 100 * DAY));
    let clock = now.clone();
    let by_api = desk::Actor::new(desk::Caller::Unnamed, interaction::Via::Api);
    let (old, recent, pending) = {
        let desk = Desk::open(
            Arc::new(SqliteStore::open(&file).await.expect("store")),
            "http://127.0.0.1",
        )
        .await
        .expect("desk")
        .with_clock(Arc::new(move || clock.load(Ordering::SeqCst)));
        let mut old = Vec::new();
        for _ in 0..3 {
            let id = desk
                .create(new_ask(), &desk::Caller::Unnamed)
                .await
                .expect("created")
                .id;
            desk.answer(&id, answer(), &by_api).await.expect("answered");
            old.push(id);
        }
        let pending = desk
            .create(new_ask(), &desk::Caller::Unnamed)
            .await
            .expect("created")
            .id;
        now.store(system_now - 10 * DAY, Ordering::SeqCst);
        let recent = desk
            .create(new_ask(), &desk::Caller::Unnamed)
            .await
            .expect("created")
            .id;
        desk.cancel(&recent, &by_api).await.expect("cancelled");
        (old, recent, pending)
    };

    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"));
    command
        .args(["--keep-finished", "90d", "--database"])
        .arg(&file)
        .env("RUST_LOG", "info")
        .stderr(Stdio::piped());
    let (mut server, url) = crate::notify::spawned(command).await;
    let mut log = BufReader::new(server.stderr.take().expect("stderr")).lines();
    let said = tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(line) = log.next_line().await.expect("stderr") {
            if line.contains("retention:") {
                return line;
            }
        }
        panic!("the server's log ended without a word on retention");
    })
    .await
    .expect("retention ran at start");
    assert!(
        said.contains("removed 3 asks finished more than 90d ago"),
        "{said}"
    );

    let http = reqwest::Client::new();
    for id in &old {
        let status = http
            .get(format!("{url}/api/v1/asks/{id}"))
            .send()
            .await
            .expect("get")
            .status();
        assert_eq!(status, 404, "{id} finished 100 days ago is removed");
    }
    for id in [&recent, &pending] {
        let status = http
            .get(format!("{url}/api/v1/asks/{id}"))
            .send()
            .await
            .expect("get")
            .status();
        assert_eq!(status, 200, "{id} is kept");
    }
    let history = http
        .get(format!("{url}/history"))
        .header("accept-language", "en")
        .send()
        .await
        .expect("history")
        .text()
        .await
        .expect("text");
    assert!(
        history.contains("Asks are removed 90 days after they finish; 3 removed so far."),
        "{history}"
    );
    server.kill().await.expect("stopped");
}

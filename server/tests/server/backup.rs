//! `askdesk backup` as a person runs it: the real binary copying a SQLite
//! desk while a real server on it takes answers from 64 clients at once.

use crate::common::args;
use desk::{Desk, SqliteStore};
use serde_json::{json, Value};
use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex,
    },
    time::Instant,
};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

const CLIENTS: usize = 64;

/// One client's loop: create an ask and answer it, over and over, noting
/// each answer the server acknowledged and when.
async fn write_until(
    url: String,
    stop: Arc<AtomicBool>,
    acknowledged: Arc<Mutex<Vec<(String, Instant)>>>,
    count: watch::Sender<usize>,
) {
    let http = reqwest::Client::new();
    while !stop.load(Ordering::Relaxed) {
        let created: Value = http
            .post(format!("{url}/api/v1/asks"))
            .json(&json!({"questions": [{"id": "go", "question": "Ship it?",
                "multiSelect": true, "options": [{"label": "Yes"}, {"label": "Later"}]}]}))
            .send()
            .await
            .expect("create")
            .json()
            .await
            .expect("created");
        let id = created["id"].as_str().expect("id").to_owned();
        let answered = http
            .post(format!("{url}/api/v1/asks/{id}/answers"))
            .json(&json!({"answers": [{"id": "go", "selected": ["Yes"], "custom": "after lunch"}]}))
            .send()
            .await
            .expect("answer");
        assert_eq!(answered.status(), 200);
        acknowledged
            .lock()
            .expect("lock")
            .push((id, Instant::now()));
        count.send_modify(|n| *n += 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_taken_while_64_clients_answer_holds_every_answer_acknowledged_before_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = dir.path().join("desk.db");
    let copy = dir.path().join("backup.db");
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.database = Some(live.display().to_string());
    let shutdown = CancellationToken::new();
    let started = crate::common::start(&settings, shutdown.clone())
        .await
        .expect("server");
    let url = format!("http://{}", started.addr);

    let stop = Arc::new(AtomicBool::new(false));
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let (count, mut counted) = watch::channel(0);
    let writers: Vec<_> = (0..CLIENTS)
        .map(|_| {
            tokio::spawn(write_until(
                url.clone(),
                stop.clone(),
                acknowledged.clone(),
                count.clone(),
            ))
        })
        .collect();
    // Let every client get going before the backup starts.
    counted
        .wait_for(|n| *n >= CLIENTS * 4)
        .await
        .expect("writers");
    let began = Instant::now();
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"))
        .arg("backup")
        .arg(&copy)
        .arg("--database")
        .arg(&live)
        .output()
        .await
        .expect("askdesk backup runs");
    let written_during = acknowledged.lock().expect("lock").len();
    stop.store(true, Ordering::Relaxed);
    for writer in writers {
        writer.await.expect("writer");
    }
    assert!(
        output.status.success(),
        "backup failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.starts_with("backed up "), "{said}");
    assert!(said.contains("asks ("), "{said}");
    assert!(!dir.path().join("backup.db.partial").exists());

    let before: Vec<String> = acknowledged
        .lock()
        .expect("lock")
        .iter()
        .filter(|(_, at)| *at < began)
        .map(|(id, _)| id.clone())
        .collect();
    assert!(before.len() >= CLIENTS * 4);
    assert!(
        written_during > before.len(),
        "the clients kept writing during the backup"
    );

    // The copy opens as a desk of its own, with every one of those answers.
    let restored = Desk::open(
        Arc::new(SqliteStore::open(&copy).await.expect("the copy opens")),
        "http://127.0.0.1",
    )
    .await
    .expect("desk");
    for id in &before {
        let ask = restored
            .get(id, &desk::Caller::Unnamed)
            .await
            .unwrap_or_else(|e| panic!("ask {id} acknowledged before the backup: {e}"));
        let answers = serde_json::to_value(&ask.answers).expect("json");
        assert_eq!(
            answers,
            json!([{"id": "go", "selected": ["Yes"], "custom": "after lunch"}]),
            "ask {id}"
        );
    }

    // A second backup to the same file is refused and changes nothing.
    let again = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"))
        .arg("backup")
        .arg(&copy)
        .arg("--database")
        .arg(&live)
        .output()
        .await
        .expect("askdesk backup runs");
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
    shutdown.cancel();
}

#[tokio::test]
async fn a_postgres_or_memory_desk_is_not_backed_up_by_askdesk() {
    for (database, says) in [
        ("postgres://askdesk@127.0.0.1/askdesk", "pg_dump"),
        (":memory:", "nothing to back up"),
    ] {
        let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"))
            .args(["backup", "/tmp/never-written.db", "--database", database])
            .output()
            .await
            .expect("askdesk backup runs");
        assert!(!output.status.success());
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(says),
            "{database}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

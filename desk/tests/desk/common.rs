//! What the desk's tests share: stores to run on, and asks and answers.

use desk::{Desk, SqliteStore, Store};
use interaction::{Answers, NewAsk};
use std::sync::Arc;
use tempfile::TempDir;

/// The kinds of store the conformance suite runs on.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// SQLite in memory.
    Memory,
    /// A SQLite file in a fresh folder.
    File,
}

/// Keeps a store's files while a test runs.
pub struct Db(#[allow(dead_code)] Option<TempDir>);

/// A fresh, empty store of this kind.
pub async fn store_on(kind: Kind) -> (Arc<dyn Store>, Db) {
    match kind {
        Kind::Memory => (
            Arc::new(SqliteStore::in_memory().await.expect("store")),
            Db(None),
        ),
        Kind::File => {
            let dir = tempfile::tempdir().expect("tempdir");
            let store = SqliteStore::open(&dir.path().join("asks.db"))
                .await
                .expect("store");
            (Arc::new(store), Db(Some(dir)))
        }
    }
}

/// A desk over a fresh store of this kind.
pub async fn desk_on(kind: Kind) -> (Desk, Db) {
    let (store, db) = store_on(kind).await;
    (Desk::new(store, "http://127.0.0.1:3000/"), db)
}

pub fn new_ask(timeout: Option<u64>) -> NewAsk {
    let mut json = serde_json::json!({
        "title": "Release plan",
        "agent": "test-agent",
        "questions": [
            {"id": "features", "question": "Which features?", "multiSelect": true,
             "options": [{"label": "Auth"}, {"label": "Logging"}, {"label": "Metrics"}]},
            {"id": "db", "question": "Which database?",
             "options": [{"label": "SQLite"}, {"label": "PostgreSQL"}]}
        ]
    });
    if let Some(t) = timeout {
        json["timeoutSeconds"] = t.into();
    }
    serde_json::from_value(json).expect("new ask")
}

pub fn answers(json: serde_json::Value) -> Answers {
    serde_json::from_value(serde_json::json!({ "answers": json })).expect("answers")
}

pub fn combined() -> Answers {
    answers(serde_json::json!([
        {"id": "db", "selected": ["SQLite"]},
        {"id": "features", "selected": ["Metrics", "Auth"], "custom": "  Rate limiting "}
    ]))
}

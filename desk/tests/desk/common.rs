//! What the desk's tests share: stores to run on, and asks and answers.

use desk::{Desk, PoolSettings, PostgresStore, SqliteStore, Store};
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
    /// PostgreSQL at `ASKDESK_TEST_POSTGRES`, in a fresh schema.
    Postgres,
}

/// The PostgreSQL the tests use: `scripts/dev.sh` starts a throwaway
/// cluster and sets this (or passes on the one you set).
fn postgres_url() -> String {
    std::env::var("ASKDESK_TEST_POSTGRES").unwrap_or_else(|_| {
        panic!(
            "ASKDESK_TEST_POSTGRES is not set: run `scripts/dev.sh test unit`, which starts a \
             throwaway PostgreSQL, or set it to a database these tests may write to"
        )
    })
}

/// A fresh, empty schema in the test database, and the URL that uses it.
pub async fn postgres_schema() -> String {
    use sqlx::Connection;
    let url = postgres_url();
    let schema = format!("test_{}", desk::AskId::random().expect("random"));
    let mut admin = sqlx::PgConnection::connect(&url)
        .await
        .unwrap_or_else(|e| panic!("cannot reach PostgreSQL at ASKDESK_TEST_POSTGRES: {e}"));
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut admin)
        .await
        .expect("create schema");
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}options=-c%20search_path%3D{schema}")
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
        Kind::Postgres => {
            let store = PostgresStore::connect(&postgres_schema().await, PoolSettings::default())
                .await
                .expect("store");
            (Arc::new(store), Db(None))
        }
    }
}

/// A desk over a fresh store of this kind.
pub async fn desk_on(kind: Kind) -> (Desk, Db) {
    let (store, db) = store_on(kind).await;
    (
        Desk::open(store, "http://127.0.0.1:3000/")
            .await
            .expect("desk"),
        db,
    )
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

/// Acting through the API with every right (an open desk, or the shared
/// token).
pub fn by_api() -> desk::Actor {
    desk::Actor::new(desk::Caller::Unnamed, interaction::Via::Api)
}

/// Acting as a person named `name` with `role`, through `via`.
pub fn as_person(name: &str, role: interaction::Role, via: interaction::Via) -> desk::Actor {
    desk::Actor::new(
        desk::Caller::Person(desk::Person {
            name: name.to_owned(),
            role,
            created_at: interaction::Timestamp::from_ms(0),
            relays_answers: false,
            email: None,
        }),
        via,
    )
}

/// Acting as the agent `name`, made to relay answers, through `via`.
pub fn relaying_agent(name: &str, via: interaction::Via) -> desk::Actor {
    let mut actor = as_person(name, interaction::Role::Agent, via);
    if let desk::Caller::Person(agent) = &mut actor.caller {
        agent.relays_answers = true;
    }
    actor
}

/// Who made the asks `caller` acts on in a test of roles: an agent acts
/// only on its own, anyone else on any, here a caller's with every right.
pub fn maker(caller: &desk::Caller) -> desk::Caller {
    match caller {
        desk::Caller::Person(person) if person.role == interaction::Role::Agent => caller.clone(),
        _ => desk::Caller::Unnamed,
    }
}

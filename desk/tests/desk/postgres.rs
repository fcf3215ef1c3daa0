//! What only PostgreSQL shows.

use crate::common::{by_api, postgres_schema};
use desk::{PoolSettings, PostgresStore, StoreError};

#[tokio::test]
async fn a_database_a_newer_askdesk_migrated_is_refused_naming_both_versions() {
    let url = postgres_schema().await;
    let store = PostgresStore::connect(&url, PoolSettings::default())
        .await
        .expect("store");
    drop(store);
    {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect(&url).await.expect("connect");
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, \
             execution_time) VALUES (99, 'from the future', TRUE, '\\x00', 0)",
        )
        .execute(&mut conn)
        .await
        .expect("tamper");
    }
    let error = PostgresStore::connect(&url, PoolSettings::default())
        .await
        .expect_err("refused");
    assert!(
        matches!(error, StoreError::TooNew { found: 99, known } if known < 99),
        "{error}"
    );
}

/// The next event, failing the test rather than hanging when none comes.
async fn next(heard: &mut tokio::sync::broadcast::Receiver<desk::Event>) -> desk::Event {
    tokio::time::timeout(std::time::Duration::from_secs(10), heard.recv())
        .await
        .expect("an event within 10 s")
        .expect("event")
}

/// Two instances on one database: what one does, the other hears of at
/// once (LISTEN/NOTIFY), and not its own changes twice.
#[tokio::test]
async fn an_instance_hears_at_once_what_another_creates_and_finishes() {
    use crate::common::{combined, new_ask};
    use desk::Desk;
    use interaction::AskStatus;
    use std::{sync::Arc, time::Duration};
    use tokio::time::timeout;

    let url = postgres_schema().await;
    let a_store = PostgresStore::connect(&url, PoolSettings::default())
        .await
        .expect("store a");
    let b_store = PostgresStore::connect(&url, PoolSettings::default())
        .await
        .expect("store b");
    let changes = a_store.changes().await.expect("listen");
    let a = Desk::open(Arc::new(a_store), "http://a")
        .await
        .expect("desk a");
    let b = Desk::open(Arc::new(b_store), "http://b")
        .await
        .expect("desk b");
    let follower = tokio::spawn({
        let a = a.clone();
        async move { a.follow(changes).await }
    });
    let mut heard = a.subscribe();

    let own = a
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("create on a");
    let theirs = b
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("create on b");
    let first = next(&mut heard).await;
    assert_eq!(first.ask.id, own.id);
    let second = next(&mut heard).await;
    assert_eq!(
        (second.seq, second.ask.id.as_str(), second.ask.status),
        (2, theirs.id.as_str(), AskStatus::Pending),
        "a's own ask is not heard again from the database"
    );

    // A long-poll on a wakes when b answers: well before its wait is over.
    let waiter = tokio::spawn({
        let a = a.clone();
        let id = theirs.id.clone();
        async move {
            a.wait(&id, Duration::from_secs(300), &desk::Caller::Unnamed)
                .await
        }
    });
    b.answer(&theirs.id, combined(), &by_api())
        .await
        .expect("answer on b");
    let ask = timeout(Duration::from_secs(30), waiter)
        .await
        .expect("woken by b's answer")
        .expect("task")
        .expect("wait");
    assert_eq!(ask.status, AskStatus::Answered);
    let third = next(&mut heard).await;
    assert_eq!(
        (third.seq, third.ask.id.as_str(), third.ask.status),
        (3, theirs.id.as_str(), AskStatus::Answered)
    );
    // One numbering for both: a stream that read event 1 on a resumes on b.
    let resumed = b.events_since(1).await.expect("read").expect("kept");
    assert_eq!(
        resumed.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![2, 3]
    );
    follower.abort();
}

#[tokio::test]
async fn asks_stored_before_search_existed_are_found_by_their_questions() {
    use std::sync::Arc;
    let url = postgres_schema().await;
    let open = || async {
        let store = PostgresStore::connect(&url, PoolSettings::default())
            .await
            .expect("store");
        desk::Desk::open(Arc::new(store), "http://x")
            .await
            .expect("desk")
    };
    let id = open()
        .await
        .create(crate::common::new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    {
        use sqlx::{Connection, Executor};
        let mut conn = sqlx::PgConnection::connect(&url).await.expect("connect");
        conn.execute(
            "ALTER TABLE asks DROP COLUMN search; DELETE FROM _sqlx_migrations WHERE version = 9",
        )
        .await
        .expect("tamper");
    }
    let desk = open().await;
    for text in ["which DATABASE", "release plan", "TEST-agent"] {
        let filter = desk::ListFilter {
            text: Some(text.to_owned()),
            ..desk::ListFilter::default()
        };
        let page = desk
            .search(&filter, 10, &desk::Caller::Unnamed)
            .await
            .expect("search");
        assert_eq!(
            page.asks.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(),
            [id.as_str()],
            "{text}"
        );
    }
}

//! What only a SQLite file shows: asks survive reopening, stored rows are
//! read back through one decoding path, and rows that no longer decode are
//! one clear error naming the ask.

use crate::common::{by_api, combined, new_ask};
use desk::{Desk, DeskError, SqliteStore, StoreError};
use interaction::AskStatus;
use std::{path::Path, sync::Arc};

async fn desk_at(path: &Path) -> Desk {
    Desk::open(
        Arc::new(SqliteStore::open(path).await.expect("store")),
        "http://x",
    )
    .await
    .expect("desk")
}

/// Changes the database behind the desk's back, as a person with `sqlite3`
/// (or an older or newer askdesk) might.
async fn tamper(path: &Path, sql: &str) {
    use sqlx::{ConnectOptions, Executor};
    let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(path)
        .connect()
        .await
        .expect("connect");
    conn.execute(sql).await.expect("tamper");
}

#[tokio::test]
async fn an_answer_survives_reopening_the_database() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("asks.db");
    let (id, answered) = {
        let desk = desk_at(&path).await;
        let id = desk
            .create(new_ask(None), &desk::Caller::Unnamed)
            .await
            .expect("created")
            .id;
        let answered = desk
            .answer(&id, combined(), &by_api())
            .await
            .expect("answered");
        (id, answered)
    };
    let ask = desk_at(&path)
        .await
        .get(&id, &desk::Caller::Unnamed)
        .await
        .expect("ask");
    assert_eq!(ask.status, AskStatus::Answered);
    assert_eq!(
        ask.answers.as_ref().expect("answers")[0].custom.as_deref(),
        Some("Rate limiting")
    );
    assert_eq!(ask, answered, "read back exactly as it was answered");
}

/// Event numbers go on where they were: a stream resumes across a restart.
#[tokio::test]
async fn event_numbers_continue_after_reopening_and_old_ones_replay() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("asks.db");
    let first = desk_at(&path).await;
    let id = first
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    drop(first);

    let desk = desk_at(&path).await;
    assert_eq!(desk.version(), 1);
    desk.cancel(&id, &by_api()).await.expect("cancelled");
    let events = desk.events_since(0).await.expect("read").expect("kept");
    let seen: Vec<_> = events.iter().map(|e| (e.seq, e.ask.status)).collect();
    assert_eq!(
        seen,
        vec![(1, AskStatus::Pending), (2, AskStatus::Cancelled)]
    );
}

#[tokio::test]
async fn the_projection_is_made_once_when_the_ask_ends_and_stored() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("asks.db");
    let desk = desk_at(&path).await;
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    desk.answer(&id, combined(), &by_api())
        .await
        .expect("answered");
    // What is read back is the stored projection, not one made anew.
    tamper(
        &path,
        &format!(
            "UPDATE asks SET projection = json_set(projection, '$.text', 'as stored') \
             WHERE id = '{id}'"
        ),
    )
    .await;
    let projection = desk
        .get(&id, &desk::Caller::Unnamed)
        .await
        .expect("ask")
        .projection;
    assert_eq!(projection.expect("projection").text, "as stored");
    // Asks that ended before projections were stored get theirs on reading.
    tamper(
        &path,
        &format!("UPDATE asks SET projection = NULL WHERE id = '{id}'"),
    )
    .await;
    let projection = desk
        .get(&id, &desk::Caller::Unnamed)
        .await
        .expect("ask")
        .projection;
    assert!(projection
        .expect("projection")
        .text
        .contains("Rate limiting"));
}

#[tokio::test]
async fn a_stored_ask_that_no_longer_validates_is_one_clear_error_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("asks.db");
    let desk = desk_at(&path).await;
    let pending = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let answered = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    desk.answer(&answered, combined(), &by_api())
        .await
        .expect("answered");
    // A request that breaks the rules, and answers naming an unknown label.
    tamper(
        &path,
        &format!(
            "UPDATE asks SET request = '{{\"questions\": []}}' WHERE id = '{pending}'; \
             UPDATE asks SET answers = '[{{\"id\": \"db\", \"selected\": [\"Oracle\"]}}]' \
             WHERE id = '{answered}'"
        ),
    )
    .await;
    for id in [&pending, &answered] {
        for result in [
            desk.get(id, &desk::Caller::Unnamed).await,
            desk.cancel(id, &by_api()).await,
            desk.answer(id, combined(), &by_api()).await,
        ] {
            match result {
                Err(DeskError::Store(StoreError::Corrupt { id: named, .. })) => {
                    assert_eq!(&named, id)
                }
                other => panic!("{id}: expected a corrupt-ask error, got {other:?}"),
            }
        }
    }
}

#[tokio::test]
async fn a_database_a_newer_askdesk_migrated_is_refused_naming_both_versions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("asks.db");
    drop(desk_at(&path).await);
    tamper(
        &path,
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (99, 'from the future', TRUE, x'00', 0)",
    )
    .await;
    let error = SqliteStore::open(&path).await.expect_err("refused");
    let message = error.to_string();
    let StoreError::TooNew { found: 99, known } = error else {
        panic!("expected a refusal of the newer schema, got {message}");
    };
    assert!(known < 99);
    assert!(
        message.contains("version 99") && message.contains(&format!("({known})")),
        "{message}"
    );
}

#[tokio::test]
async fn asks_stored_before_search_existed_are_found_by_their_questions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("asks.db");
    let desk = desk_at(&path).await;
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    drop(desk);
    // As an askdesk before migration 8 left it: no search text, and the
    // migration not yet run.
    tamper(
        &path,
        "UPDATE asks SET search = ''; DROP INDEX asks_by_age; \
         ALTER TABLE asks DROP COLUMN search; DELETE FROM _sqlx_migrations WHERE version = 8",
    )
    .await;
    let desk = desk_at(&path).await;
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

//! `--database`: SQLite files, `:memory:` and PostgreSQL URLs, chosen by
//! the value, with passwords kept out of everything printed.

use crate::common::{args, combined_answers, release_ask, TestServer};
use axum::http::{Method, StatusCode};
use server::cli::{
    config::{database_at, Database, ServeSettings},
    run::open_database,
};

/// A fresh schema in the test PostgreSQL (`scripts/dev.sh` starts one).
pub async fn postgres_url() -> String {
    use sqlx::Connection;
    let url = std::env::var("ASKDESK_TEST_POSTGRES").unwrap_or_else(|_| {
        panic!("ASKDESK_TEST_POSTGRES is not set: run `scripts/dev.sh test unit`")
    });
    let schema = format!("server_{}", desk::AskId::random().expect("random"));
    let mut admin = sqlx::PgConnection::connect(&url).await.expect("connect");
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut admin)
        .await
        .expect("schema");
    format!("{url}?options=-c%20search_path%3D{schema}")
}

#[test]
fn the_value_chooses_the_database_and_unknown_schemes_are_refused_by_name() {
    let mut settings = args(None);
    for (value, expected) in [
        (":memory:", Database::Memory),
        ("asks.db", Database::File("asks.db".into())),
        (
            "postgres://u:secret@db.example/desk",
            Database::Postgres("postgres://u:secret@db.example/desk".into()),
        ),
        (
            "postgresql://db.example:5433/desk",
            Database::Postgres("postgresql://db.example:5433/desk".into()),
        ),
    ] {
        settings.database = Some(value.to_owned());
        assert_eq!(
            database_at(settings.database.as_deref()).expect(value),
            expected
        );
    }
    settings.database = Some("mysql://u:secret@db.example/desk".to_owned());
    let refused = database_at(settings.database.as_deref())
        .expect_err("refused")
        .to_string();
    assert!(refused.contains("mysql://"), "{refused}");
    assert!(!refused.contains("secret"), "{refused}");
}

#[test]
fn a_postgres_password_never_shows_in_what_is_printed() {
    let mut settings = args(None);
    settings.database = Some("postgres://askdesk:hunter2@db.example:5432/desk".to_owned());
    let shown = database_at(settings.database.as_deref())
        .expect("database")
        .to_string();
    assert_eq!(shown, "postgres://db.example:5432/desk");
    let debug = format!("{settings:?}");
    assert!(!debug.contains("hunter2"), "{debug}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_works_the_same_on_postgres() {
    let mut settings = args(None);
    settings.database = Some(postgres_url().await);
    let settings = ServeSettings::check(settings).expect("settings");
    let server::cli::run::Opened {
        store, database, ..
    } = open_database(settings.database, settings.pool)
        .await
        .expect("store");
    assert!(matches!(database, Database::Postgres(_)));
    let server = TestServer::with_store(store, None).await;
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
    let (_, again) = server
        .json(
            Method::POST,
            &format!("/api/v1/asks/{id}/answers"),
            Some(combined_answers()),
        )
        .await;
    assert_eq!(again["ask"]["answers"], ask["answers"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_one_sqlite_file_refuses_naming_the_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.database = Some(dir.path().join("asks.db").display().to_string());
    let stop_first = tokio_util::sync::CancellationToken::new();
    let first = crate::common::start(&settings, stop_first.clone())
        .await
        .expect("the first server starts");
    let refused = crate::common::start(&settings, tokio_util::sync::CancellationToken::new())
        .await
        .err()
        .expect("the second is refused")
        .to_string();
    assert!(
        refused.contains(&format!("http://{}", first.addr)),
        "names the server using the file: {refused}"
    );
    assert!(refused.contains("PostgreSQL"), "{refused}");
    // Once the first has stopped, the file is free.
    stop_first.cancel();
    first.task.await.expect("stopped cleanly");
    let stop_second = tokio_util::sync::CancellationToken::new();
    let second = crate::common::start(&settings, stop_second.clone())
        .await
        .expect("the file is free again");
    stop_second.cancel();
    second.task.await.expect("stopped cleanly");
}

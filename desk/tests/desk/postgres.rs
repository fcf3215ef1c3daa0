//! What only PostgreSQL shows.

use crate::common::postgres_schema;
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

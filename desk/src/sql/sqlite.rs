//! The embedded default: asks in one SQLite file, in WAL mode, with every
//! commit synced to disk before the caller hears of it.

use super::migrate;
use crate::error::StoreError;
use sqlx::{
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
    SqlitePool,
};
use std::{path::Path, time::Duration};

/// Asks stored in SQLite.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating if needed) the database file at `path` and brings its
    /// schema up to date.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL syncs the WAL on every commit: an answer acknowledged
            // to the human survives a power cut, not only a crash.
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            // A connection to a local file cannot go stale the way a
            // network one can; a ping before every query only adds a hop
            // to the connection's thread.
            .test_before_acquire(false)
            .connect_with(options)
            .await?;
        Self::migrate(pool).await
    }

    /// A private database in memory, gone when the store is dropped; for
    /// tests and throwaway runs.
    pub async fn in_memory() -> Result<Self, StoreError> {
        let options = SqliteConnectOptions::new().in_memory(true);
        // Every connection to `:memory:` is its own database, so keep one.
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .test_before_acquire(false)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?;
        Self::migrate(pool).await
    }

    async fn migrate(pool: SqlitePool) -> Result<Self, StoreError> {
        migrate::upgrade_sqlite(&pool, migrate::SQLITE).await?;
        Ok(Self { pool })
    }
}

super::asks::sql_store!(SqliteStore, sqlx::Sqlite, "rowid");
super::people::sql_people!(SqliteStore, sqlx::Sqlite);
super::sessions::sql_sessions!(SqliteStore, sqlx::Sqlite);
super::outbox::sql_outbox!(SqliteStore, sqlx::Sqlite, "");
super::retention::sql_retention!(SqliteStore);

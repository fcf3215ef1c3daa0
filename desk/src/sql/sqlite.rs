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
            .busy_timeout(Duration::from_secs(10))
            // Each connection's own page cache at 512 KiB, a quarter of
            // SQLite's default: the system's file cache holds the same
            // pages already, and every pooled connection keeps its own
            // (bench/waiters.sh).
            .pragma("cache_size", "-512");
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

    /// Writes a consistent copy of the database to `file`, which must not
    /// exist yet. `VACUUM INTO` reads one snapshot, so writers go on while
    /// it copies, and every commit made before it began is in the copy.
    pub async fn back_up_into(&self, file: &str) -> Result<(), StoreError> {
        sqlx::query("VACUUM INTO ?")
            .bind(file)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// What a SQLite file holds, read without changing it (no migration,
    /// no journal mode): for saying what a backup copied.
    pub async fn contents_of(path: &Path) -> Result<Contents, StoreError> {
        let options = SqliteConnectOptions::new().filename(path).read_only(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await?;
        let by_status: Vec<(String, i64)> =
            sqlx::query_as("SELECT status, count(*) FROM asks GROUP BY status ORDER BY status")
                .fetch_all(&pool)
                .await?;
        let people = sqlx::query_scalar("SELECT count(*) FROM people")
            .fetch_one(&pool)
            .await?;
        let sessions = sqlx::query_scalar("SELECT count(*) FROM sessions")
            .fetch_one(&pool)
            .await?;
        let deliveries = sqlx::query_scalar("SELECT count(*) FROM deliveries")
            .fetch_one(&pool)
            .await?;
        pool.close().await;
        Ok(Contents {
            asks: by_status,
            people,
            sessions,
            deliveries,
        })
    }

    async fn migrate(pool: SqlitePool) -> Result<Self, StoreError> {
        migrate::upgrade_sqlite(&pool, migrate::SQLITE).await?;
        Ok(Self { pool })
    }
}

/// What a desk's database holds, counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contents {
    /// Asks by status (`answered`, `pending`, …), each status once.
    pub asks: Vec<(String, i64)>,
    /// People with tokens of their own.
    pub people: i64,
    /// Signed-in browser sessions.
    pub sessions: i64,
    /// Notifications, delivered or owed.
    pub deliveries: i64,
}

impl std::fmt::Display for Contents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let total: i64 = self.asks.iter().map(|(_, n)| n).sum();
        write!(f, "{total} asks")?;
        if !self.asks.is_empty() {
            let each: Vec<String> = self.asks.iter().map(|(s, n)| format!("{n} {s}")).collect();
            write!(f, " ({})", each.join(", "))?;
        }
        write!(
            f,
            ", {} people, {} sessions, {} notifications",
            self.people, self.sessions, self.deliveries
        )
    }
}

super::asks::sql_store!(SqliteStore, sqlx::Sqlite, "rowid");
super::people::sql_people!(SqliteStore, sqlx::Sqlite);
super::sessions::sql_sessions!(SqliteStore, sqlx::Sqlite);
super::outbox::sql_outbox!(SqliteStore, sqlx::Sqlite, "");
super::retention::sql_retention!(SqliteStore);
super::messages::sql_messages!(SqliteStore);
super::owners::sql_owners!(SqliteStore);
super::grants::sql_grants!(SqliteStore);

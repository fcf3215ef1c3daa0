//! The embedded default: asks in one SQLite file, in WAL mode, with every
//! commit synced to disk before the caller hears of it.

use crate::{
    id::AskId,
    migrate,
    record::{End, Record},
    store::{Entry, Store, StoreError},
    stored::{entry, json, parse_id, record, ENTRY_COLUMNS, RECORD_COLUMNS},
};
use async_trait::async_trait;
use interaction::AskStatus;
use sqlx::{
    migrate::Migrator,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
    Row, SqlitePool,
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
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?;
        Self::migrate(pool).await
    }

    async fn migrate(pool: SqlitePool) -> Result<Self, StoreError> {
        let applied: Option<i64> = sqlx::query_scalar(migrate::APPLIED)
            .fetch_one(&pool)
            .await
            .unwrap_or(None);
        migrate::SQLITE.check(applied)?;
        Migrator::new(migrate::SQLITE).await?.run(&pool).await?;
        Ok(Self { pool })
    }
}

#[async_trait]
impl Store for SqliteStore {
    async fn insert(&self, record: &Record) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO asks (id, status, title, agent, request, question_count, \
             created_at, expires_at) VALUES (?, 'pending', ?, ?, ?, ?, ?, ?)",
        )
        .bind(record.id.as_str())
        .bind(&record.title)
        .bind(&record.agent)
        .bind(json(&record.id, &record.request)?)
        .bind(i64::try_from(record.request.questions().len()).unwrap_or(i64::MAX))
        .bind(record.created_at)
        .bind(record.expires_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn get(&self, id: &AskId) -> Result<Option<Record>, StoreError> {
        let row = sqlx::query(&format!("SELECT {RECORD_COLUMNS} FROM asks WHERE id = ?"))
            .bind(id.as_str())
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(record).transpose()
    }

    async fn list(&self, status: Option<AskStatus>, limit: u32) -> Result<Vec<Entry>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {ENTRY_COLUMNS} FROM asks WHERE ?1 IS NULL OR status = ?1 \
             ORDER BY created_at DESC, rowid DESC LIMIT ?2"
        ))
        .bind(status.map(AskStatus::as_str))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(entry).collect()
    }

    async fn finish(&self, id: &AskId, end: &End) -> Result<bool, StoreError> {
        let outcome = end.outcome();
        let answers = outcome
            .answers()
            .map(|a| json(id, &a.items()))
            .transpose()?;
        // The status condition makes this the one transition out of
        // `pending`: of two racing calls, exactly one changes the row.
        let done = sqlx::query(
            "UPDATE asks SET status = ?, answers = ?, decline_reason = ?, finished_at = ?, \
             projection = ? WHERE id = ? AND status = 'pending'",
        )
        .bind(outcome.status().as_str())
        .bind(answers)
        .bind(outcome.reason())
        .bind(end.at())
        .bind(json(id, end.projection())?)
        .bind(id.as_str())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn due(&self, now: i64) -> Result<Vec<AskId>, StoreError> {
        let rows = sqlx::query("SELECT id FROM asks WHERE status = 'pending' AND expires_at <= ?")
            .bind(now)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| parse_id(&row.try_get::<String, _>("id")?))
            .collect()
    }
}

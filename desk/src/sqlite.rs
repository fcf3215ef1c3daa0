//! The embedded default: asks in one SQLite file, in WAL mode, with every
//! commit synced to disk before the caller hears of it.

use crate::{
    store::{Finish, Record, Store, StoreError},
    AskId,
};
use async_trait::async_trait;
use interaction::AskStatus;
use sqlx::{
    error::BoxDynError,
    migrate::{Migration, MigrationSource, MigrationType, Migrator},
    sqlite::{
        SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
    },
    Row, SqlitePool,
};
use std::{future::Future, path::Path, pin::Pin, time::Duration};

/// The schema, compiled in so the binary needs no files beside it.
#[derive(Debug)]
struct Migrations;

impl MigrationSource<'static> for Migrations {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async {
            Ok(vec![Migration::new(
                1,
                "asks".into(),
                MigrationType::Simple,
                include_str!("../migrations/0001_asks.sql").into(),
                false,
            )])
        })
    }
}

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
        Migrator::new(Migrations).await?.run(&pool).await?;
        Ok(Self { pool })
    }
}

fn corrupt(id: &str, detail: impl ToString) -> StoreError {
    StoreError::Corrupt {
        id: id.to_owned(),
        detail: detail.to_string(),
    }
}

fn record(row: &SqliteRow) -> Result<Record, StoreError> {
    let id: String = row.try_get("id")?;
    let status: String = row.try_get("status")?;
    let request: String = row.try_get("request")?;
    let answers: Option<String> = row.try_get("answers")?;
    Ok(Record {
        status: AskStatus::parse(&status)
            .ok_or_else(|| corrupt(&id, format!("unknown status {status:?}")))?,
        title: row.try_get("title")?,
        agent: row.try_get("agent")?,
        request: serde_json::from_str(&request).map_err(|e| corrupt(&id, e))?,
        created_at: row.try_get("created_at")?,
        expires_at: row.try_get("expires_at")?,
        finished_at: row.try_get("finished_at")?,
        answers: answers
            .map(|a| serde_json::from_str(&a))
            .transpose()
            .map_err(|e| corrupt(&id, e))?,
        decline_reason: row.try_get("decline_reason")?,
        id: AskId::parse(&id).ok_or_else(|| corrupt(&id, "malformed id"))?,
    })
}

fn json<T: serde::Serialize>(id: &AskId, value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| corrupt(id.as_str(), e))
}

const COLUMNS: &str = "id, status, title, agent, request, created_at, expires_at, \
                       finished_at, answers, decline_reason";

#[async_trait]
impl Store for SqliteStore {
    async fn insert(&self, record: &Record) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO asks (id, status, title, agent, request, question_count, \
             created_at, expires_at, finished_at, answers, decline_reason) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(record.id.as_str())
        .bind(record.status.as_str())
        .bind(&record.title)
        .bind(&record.agent)
        .bind(json(&record.id, &record.request)?)
        .bind(i64::try_from(record.request.questions.len()).unwrap_or(i64::MAX))
        .bind(record.created_at)
        .bind(record.expires_at)
        .bind(record.finished_at)
        .bind(
            record
                .answers
                .as_ref()
                .map(|a| json(&record.id, a))
                .transpose()?,
        )
        .bind(&record.decline_reason)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn get(&self, id: &AskId) -> Result<Option<Record>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM asks WHERE id = ?"))
            .bind(id.as_str())
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(record).transpose()
    }

    async fn list(&self, status: Option<AskStatus>, limit: u32) -> Result<Vec<Record>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM asks WHERE ?1 IS NULL OR status = ?1 \
             ORDER BY created_at DESC, rowid DESC LIMIT ?2"
        ))
        .bind(status.map(AskStatus::as_str))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(record).collect()
    }

    async fn finish(&self, id: &AskId, finish: &Finish, at: i64) -> Result<bool, StoreError> {
        let (answers, reason) = match finish {
            Finish::Answered(items) => (Some(json(id, items)?), None),
            Finish::Declined(reason) => (None, reason.clone()),
            Finish::Cancelled | Finish::Expired => (None, None),
        };
        // The status condition makes this the one transition out of
        // `pending`: of two racing calls, exactly one changes the row.
        let done = sqlx::query(
            "UPDATE asks SET status = ?, answers = ?, decline_reason = ?, finished_at = ? \
             WHERE id = ? AND status = 'pending'",
        )
        .bind(finish.status().as_str())
        .bind(answers)
        .bind(reason)
        .bind(at)
        .bind(id.as_str())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn expire_due(&self, now: i64) -> Result<Vec<AskId>, StoreError> {
        let rows = sqlx::query(
            "UPDATE asks SET status = 'expired', finished_at = expires_at \
             WHERE status = 'pending' AND expires_at <= ? RETURNING id",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let id: String = row.try_get("id")?;
                AskId::parse(&id).ok_or_else(|| corrupt(&id, "malformed id"))
            })
            .collect()
    }
}

//! Asks in PostgreSQL, for several askdesk instances acting as one desk.
//! The same rows as SQLite, the same decoding ([`crate::stored`]); only
//! the SQL dialect differs.

use crate::{
    id::AskId,
    migrate,
    record::{End, Record},
    store::{Entry, Store, StoreError},
    stored::{entry, json, parse_id, record, ENTRY_COLUMNS, RECORD_COLUMNS},
};
use async_trait::async_trait;
use interaction::AskStatus;
use sqlx::{migrate::Migrator, postgres::PgPoolOptions, PgPool, Row};
use std::time::Duration;

/// How an instance uses its share of the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSettings {
    /// Connections this instance keeps at most.
    pub max_connections: u32,
    /// How long a request waits for a connection (or for the database to
    /// answer a connection attempt) before it fails.
    pub acquire_timeout: Duration,
}

impl Default for PoolSettings {
    fn default() -> Self {
        Self {
            max_connections: 10,
            acquire_timeout: Duration::from_secs(5),
        }
    }
}

/// Asks stored in PostgreSQL.
#[derive(Debug, Clone)]
pub struct PostgresStore {
    pool: PgPool,
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://…`) and brings its
    /// schema up to date.
    pub async fn connect(url: &str, settings: PoolSettings) -> Result<Self, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(settings.max_connections)
            .acquire_timeout(settings.acquire_timeout)
            .connect(url)
            .await?;
        let applied: Option<i64> = sqlx::query_scalar(migrate::APPLIED)
            .fetch_one(&pool)
            .await
            .unwrap_or(None);
        migrate::POSTGRES.check(applied)?;
        Migrator::new(migrate::POSTGRES).await?.run(&pool).await?;
        Ok(Self { pool })
    }
}

#[async_trait]
impl Store for PostgresStore {
    async fn insert(&self, record: &Record) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO asks (id, status, title, agent, request, question_count, \
             created_at, expires_at) VALUES ($1, 'pending', $2, $3, $4, $5, $6, $7)",
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
        let row = sqlx::query(&format!("SELECT {RECORD_COLUMNS} FROM asks WHERE id = $1"))
            .bind(id.as_str())
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(record).transpose()
    }

    async fn list(&self, status: Option<AskStatus>, limit: u32) -> Result<Vec<Entry>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {ENTRY_COLUMNS} FROM asks WHERE $1::TEXT IS NULL OR status = $1 \
             ORDER BY created_at DESC, seq DESC LIMIT $2"
        ))
        .bind(status.map(AskStatus::as_str))
        .bind(i64::from(limit))
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
        // `pending`: of two racing calls, on any instance, exactly one
        // changes the row.
        let done = sqlx::query(
            "UPDATE asks SET status = $1, answers = $2, decline_reason = $3, finished_at = $4, \
             projection = $5 WHERE id = $6 AND status = 'pending'",
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
        let rows = sqlx::query("SELECT id FROM asks WHERE status = 'pending' AND expires_at <= $1")
            .bind(now)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| parse_id(&row.try_get::<String, _>("id")?))
            .collect()
    }
}

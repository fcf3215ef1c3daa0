//! The embedded default: asks in one SQLite file, in WAL mode, with every
//! commit synced to disk before the caller hears of it.

use crate::{
    id::AskId,
    record::{End, Record},
    store::{Entry, Store, StoreError},
};
use async_trait::async_trait;
use interaction::{
    project, AnswerItem, Answers, AskStatus, Outcome, Request, ToolOutput, ValidRequest,
};
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
        let migration = |version, name: &str, sql: &'static str| {
            Migration::new(
                version,
                name.to_owned().into(),
                MigrationType::Simple,
                sql.into(),
                false,
            )
        };
        Box::pin(async move {
            Ok(vec![
                migration(1, "asks", include_str!("../migrations/0001_asks.sql")),
                migration(
                    2,
                    "projection",
                    include_str!("../migrations/0002_projection.sql"),
                ),
            ])
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

fn json<T: serde::Serialize>(id: &AskId, value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| corrupt(id.as_str(), e))
}

fn parse_id(id: &str) -> Result<AskId, StoreError> {
    AskId::parse(id).ok_or_else(|| corrupt(id, "malformed id"))
}

fn parse_status(id: &str, status: &str) -> Result<AskStatus, StoreError> {
    AskStatus::parse(status).ok_or_else(|| corrupt(id, format!("unknown status {status:?}")))
}

/// Decodes a row and validates what it holds: the one place stored data
/// becomes a [`Record`] again.
fn record(row: &SqliteRow) -> Result<Record, StoreError> {
    let id: String = row.try_get("id")?;
    let status = parse_status(&id, &row.try_get::<String, _>("status")?)?;
    let request: Request = serde_json::from_str(&row.try_get::<String, _>("request")?)
        .map_err(|e| corrupt(&id, format!("its request does not decode: {e}")))?;
    let request = ValidRequest::new(request)
        .map_err(|p| corrupt(&id, format!("its request is invalid: {p}")))?;
    let end = match (
        outcome(row, &id, status, &request)?,
        row.try_get("finished_at")?,
    ) {
        (None, _) => None,
        (Some(_), None) => return Err(corrupt(&id, "it ended but has no finish time")),
        (Some(outcome), Some(at)) => {
            let projection = match row.try_get::<Option<String>, _>("projection")? {
                Some(text) => serde_json::from_str::<ToolOutput>(&text)
                    .map_err(|e| corrupt(&id, format!("its projection does not decode: {e}")))?,
                // Finished before projections were stored.
                None => project(&request, &outcome),
            };
            Some(End::stored(outcome, at, projection))
        }
    };
    Ok(Record {
        id: parse_id(&id)?,
        title: row.try_get("title")?,
        agent: row.try_get("agent")?,
        request,
        created_at: row.try_get("created_at")?,
        expires_at: row.try_get("expires_at")?,
        end,
    })
}

/// How a stored ask with this status ended; `None` while pending.
fn outcome(
    row: &SqliteRow,
    id: &str,
    status: AskStatus,
    request: &ValidRequest,
) -> Result<Option<Outcome>, StoreError> {
    Ok(Some(match status {
        AskStatus::Pending => return Ok(None),
        AskStatus::Answered => {
            let items: Vec<AnswerItem> =
                serde_json::from_str(row.try_get::<Option<&str>, _>("answers")?.unwrap_or("null"))
                    .map_err(|e| corrupt(id, format!("its answers do not decode: {e}")))?;
            let valid = request
                .validate_answers(&Answers { answers: items })
                .map_err(|p| corrupt(id, format!("its answers are invalid: {p}")))?;
            Outcome::Answered(valid)
        }
        AskStatus::Declined => Outcome::Declined {
            reason: row.try_get("decline_reason")?,
        },
        AskStatus::Cancelled => Outcome::Cancelled,
        AskStatus::Expired => Outcome::Expired,
    }))
}

fn entry(row: &SqliteRow) -> Result<Entry, StoreError> {
    let id: String = row.try_get("id")?;
    Ok(Entry {
        status: parse_status(&id, &row.try_get::<String, _>("status")?)?,
        title: row.try_get("title")?,
        agent: row.try_get("agent")?,
        created_at: row.try_get("created_at")?,
        expires_at: row.try_get("expires_at")?,
        question_count: usize::try_from(row.try_get::<i64, _>("question_count")?)
            .map_err(|e| corrupt(&id, e))?,
        id: parse_id(&id)?,
    })
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
        let row = sqlx::query(
            "SELECT id, status, title, agent, request, created_at, expires_at, \
             finished_at, answers, decline_reason, projection FROM asks WHERE id = ?",
        )
        .bind(id.as_str())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(record).transpose()
    }

    async fn list(&self, status: Option<AskStatus>, limit: u32) -> Result<Vec<Entry>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, status, title, agent, created_at, expires_at, question_count \
             FROM asks WHERE ?1 IS NULL OR status = ?1 \
             ORDER BY created_at DESC, rowid DESC LIMIT ?2",
        )
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

//! Asks in PostgreSQL, for several askdesk instances acting as one desk.
//! The same rows, statements ([`super::asks`]) and decoding
//! ([`super::rows`]) as SQLite.

use super::migrate;
use crate::{error::StoreError, id::AskId};
use sqlx::{
    postgres::{PgConnectOptions, PgListener, PgPoolOptions},
    PgPool,
};
use std::{str::FromStr, time::Duration};

/// The channel new events are announced on (migration 0005).
const CHANNEL: &str = "askdesk_events";

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

/// What [`Changes::next`] heard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Events were stored, by this instance or another.
    Events,
    /// The connection was lost and is back: events stored meanwhile were
    /// not announced here, so the caller reads what it has not seen.
    Reconnected,
}

/// New events in this schema, heard through `LISTEN`.
pub struct Changes {
    pool: PgPool,
    /// `None` while the connection is lost and not yet made again.
    listener: Option<PgListener>,
    schema: String,
}

impl Changes {
    async fn listen(pool: &PgPool) -> Result<PgListener, sqlx::Error> {
        let mut listener = PgListener::connect_with(pool).await?;
        listener.listen(CHANNEL).await?;
        Ok(listener)
    }

    /// Waits until events may have been stored since the last call. While
    /// the database is unreachable it tries again every half second, and
    /// says [`Change::Reconnected`] once it listens again.
    pub async fn next(&mut self) -> Change {
        loop {
            let Some(listener) = &mut self.listener else {
                match Self::listen(&self.pool).await {
                    Ok(listener) => {
                        tracing::info!("listening for other instances' changes again");
                        self.listener = Some(listener);
                        return Change::Reconnected;
                    }
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(500)).await;
                        continue;
                    }
                }
            };
            match listener.try_recv().await {
                Ok(Some(note)) if note.payload() == self.schema => return Change::Events,
                // Another schema's desk on the same database.
                Ok(Some(_)) => {}
                // Lost, and already listening again on a new connection.
                Ok(None) => return Change::Reconnected,
                Err(e) => {
                    // Whatever state the connection is in, start afresh.
                    tracing::warn!("listening for other instances' changes failed: {e}");
                    self.listener = None;
                }
            }
        }
    }
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://…`) and brings its
    /// schema up to date.
    pub async fn connect(url: &str, settings: PoolSettings) -> Result<Self, StoreError> {
        // Named per instance, so an administrator tells them apart in
        // `pg_stat_activity`.
        let unique = AskId::random().map_err(|e| {
            sqlx::Error::Configuration(format!("no randomness for a name: {e}").into())
        })?;
        let name = format!("askdesk-{}", unique.as_str().get(..12).unwrap_or_default());
        let options = PgConnectOptions::from_str(url)?.application_name(&name);
        let pool = PgPoolOptions::new()
            .max_connections(settings.max_connections)
            .acquire_timeout(settings.acquire_timeout)
            .connect_with(options)
            .await?;
        migrate::upgrade_postgres(&pool, migrate::POSTGRES).await?;
        Ok(Self { pool })
    }

    /// An MCP session's state, as [`PostgresStore::keep_session`] kept it.
    pub async fn session(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT state FROM mcp_sessions WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// Keeps an MCP session's state for every instance.
    pub async fn keep_session(&self, id: &str, state: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO mcp_sessions (id, state, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at",
        )
        .bind(id)
        .bind(state)
        .bind(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Forgets an MCP session that ended.
    pub async fn drop_session(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM mcp_sessions WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Starts listening for the changes other instances make.
    pub async fn changes(&self) -> Result<Changes, StoreError> {
        let schema: String = sqlx::query_scalar("SELECT current_schema()")
            .fetch_one(&self.pool)
            .await?;
        let listener = Changes::listen(&self.pool).await?;
        Ok(Changes {
            pool: self.pool.clone(),
            listener: Some(listener),
            schema,
        })
    }
}

super::asks::sql_store!(PostgresStore, sqlx::Postgres, "seq");
super::people::sql_people!(PostgresStore, sqlx::Postgres);
super::sessions::sql_sessions!(PostgresStore, sqlx::Postgres);
super::outbox::sql_outbox!(PostgresStore, sqlx::Postgres, "FOR UPDATE SKIP LOCKED");
super::retention::sql_retention!(PostgresStore);
super::messages::sql_messages!(PostgresStore);
super::owners::sql_owners!(PostgresStore);
super::grants::sql_grants!(PostgresStore);

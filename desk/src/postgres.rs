//! Asks in PostgreSQL, for several askdesk instances acting as one desk.
//! The same rows, statements ([`crate::sql`]) and decoding
//! ([`crate::stored`]) as SQLite.

use crate::{migrate, store::StoreError, AskId};
use sqlx::{
    migrate::Migrator,
    postgres::{PgConnectOptions, PgListener, PgPoolOptions},
    PgPool,
};
use std::{str::FromStr, time::Duration};

/// The channel every instance's changes are announced on (migration 0003).
const CHANNEL: &str = "askdesk_asks";

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
    /// This instance's connections' `application_name`.
    name: String,
}

/// What another instance did, as [`Changes::next`] tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Another instance created or changed this ask.
    Ask(AskId),
    /// The connection was lost and is back: changes meanwhile were not
    /// heard, so what is being waited on needs reading again.
    Reconnected,
}

/// The changes other instances make, heard through `LISTEN`.
pub struct Changes {
    listener: PgListener,
    schema: String,
    name: String,
}

impl Changes {
    /// The next change another instance made to this schema's asks.
    pub async fn next(&mut self) -> Change {
        loop {
            match self.listener.try_recv().await {
                Ok(Some(note)) => {
                    let mut parts = note.payload().splitn(3, ' ');
                    let (Some(schema), Some(writer), Some(id)) =
                        (parts.next(), parts.next(), parts.next())
                    else {
                        continue;
                    };
                    if schema != self.schema || writer == self.name {
                        continue;
                    }
                    if let Some(id) = AskId::parse(id) {
                        return Change::Ask(id);
                    }
                }
                Ok(None) => return Change::Reconnected,
                Err(e) => {
                    // The next try reconnects; meanwhile, do not spin.
                    tracing::warn!("listening for other instances' changes failed: {e}");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        }
    }
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://…`) and brings its
    /// schema up to date.
    pub async fn connect(url: &str, settings: PoolSettings) -> Result<Self, StoreError> {
        // Named per instance, so that an instance knows its own changes
        // among those it hears.
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
        let applied: Option<i64> = sqlx::query_scalar(migrate::APPLIED)
            .fetch_one(&pool)
            .await
            .unwrap_or(None);
        migrate::POSTGRES.check(applied)?;
        Migrator::new(migrate::POSTGRES).await?.run(&pool).await?;
        Ok(Self { pool, name })
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
        let mut listener = PgListener::connect_with(&self.pool).await?;
        listener.listen(CHANNEL).await?;
        Ok(Changes {
            listener,
            schema,
            name: self.name.clone(),
        })
    }
}

crate::sql::sql_store!(PostgresStore, "seq");

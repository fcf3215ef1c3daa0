//! Asks in PostgreSQL, for several askdesk instances acting as one desk.
//! The same rows, statements ([`crate::sql`]) and decoding
//! ([`crate::stored`]) as SQLite.

use crate::{migrate, store::StoreError};
use sqlx::{migrate::Migrator, postgres::PgPoolOptions, PgPool};
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

crate::sql::sql_store!(PostgresStore, "seq");

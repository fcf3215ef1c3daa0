//! Schemas, compiled in per database so the binary needs no files beside
//! it; the check that refuses a database a newer askdesk has changed; and
//! the upgrade itself, every pending migration in one transaction, so a
//! failed upgrade leaves the schema (and the askdesk that wrote it) as it
//! was.

use crate::error::StoreError;
use sqlx::{migrate::Migration, PgPool, SqlitePool};

/// One database's migrations: version, name and SQL, oldest first.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Migrations(pub(crate) &'static [(i64, &'static str, &'static str)]);

impl Migrations {
    /// The newest schema version this binary knows.
    pub(crate) fn latest(self) -> i64 {
        self.0.last().map_or(0, |(version, _, _)| *version)
    }

    /// Refuses a database whose schema is newer than this binary's: its
    /// data may mean something this askdesk would misread.
    pub(crate) fn check(self, applied: Option<i64>) -> Result<(), StoreError> {
        match applied {
            Some(found) if found > self.latest() => Err(StoreError::TooNew {
                found,
                known: self.latest(),
            }),
            _ => Ok(()),
        }
    }

    /// The migrations not among the `applied` versions, as sqlx would
    /// record them (the same checksums, so every askdesk reads the table
    /// alike). Like sqlx's own runner, a version missing between applied
    /// ones is applied too.
    fn pending(self, applied: &[i64]) -> impl Iterator<Item = Migration> + '_ {
        self.0
            .iter()
            .filter(move |(version, _, _)| !applied.contains(version))
            .map(|(version, name, sql)| {
                Migration::new(
                    *version,
                    (*name).into(),
                    sqlx::migrate::MigrationType::Simple,
                    (*sql).into(),
                    false,
                )
            })
    }
}

/// Brings a pool's schema up to date in one transaction: the table of
/// applied versions (sqlx's, which earlier askdesks wrote), the check
/// against a newer schema, then every pending migration and its row. Any
/// failure rolls all of it back.
macro_rules! upgrade {
    ($pool:expr, $migrations:expr, $begin:expr, $lock:expr, $table:expr, $insert:expr) => {{
        let mut tx = $pool.begin_with($begin).await?;
        if let Some(lock) = $lock {
            sqlx::query(lock).execute(&mut *tx).await?;
        }
        sqlx::raw_sql($table).execute(&mut *tx).await?;
        let dirty: Option<i64> =
            sqlx::query_scalar("SELECT MIN(version) FROM _sqlx_migrations WHERE NOT success")
                .fetch_one(&mut *tx)
                .await?;
        if let Some(version) = dirty {
            return Err(StoreError::Migrate(sqlx::migrate::MigrateError::Dirty(
                version,
            )));
        }
        let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations")
            .fetch_all(&mut *tx)
            .await?;
        $migrations.check(applied.iter().copied().max())?;
        for migration in $migrations.pending(&applied) {
            let started = std::time::Instant::now();
            sqlx::raw_sql(&migration.sql)
                .execute(&mut *tx)
                .await
                .map_err(|e| {
                    StoreError::Migrate(sqlx::migrate::MigrateError::ExecuteMigration(
                        e,
                        migration.version,
                    ))
                })?;
            sqlx::query($insert)
                .bind(migration.version)
                .bind(&*migration.description)
                .bind(&*migration.checksum)
                .bind(i64::try_from(started.elapsed().as_nanos()).unwrap_or(i64::MAX))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }};
}

/// Brings a SQLite database up to date (see [`upgrade!`]).
pub(crate) async fn upgrade_sqlite(
    pool: &SqlitePool,
    migrations: Migrations,
) -> Result<(), StoreError> {
    upgrade!(
        pool,
        migrations,
        // Two processes opening one file at once: the second waits here
        // (busy timeout) rather than failing when it would start to write.
        "BEGIN IMMEDIATE",
        None::<&str>,
        "CREATE TABLE IF NOT EXISTS _sqlx_migrations (
            version BIGINT PRIMARY KEY,
            description TEXT NOT NULL,
            installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
            success BOOLEAN NOT NULL,
            checksum BLOB NOT NULL,
            execution_time BIGINT NOT NULL
        )",
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
         VALUES (?, ?, TRUE, ?, ?)"
    )
}

/// Brings a PostgreSQL schema up to date (see [`upgrade!`]); instances
/// starting together take turns on a lock that ends with the transaction.
pub(crate) async fn upgrade_postgres(
    pool: &PgPool,
    migrations: Migrations,
) -> Result<(), StoreError> {
    upgrade!(
        pool,
        migrations,
        "BEGIN",
        Some("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.askdesk migrations'))"),
        "CREATE TABLE IF NOT EXISTS _sqlx_migrations (
            version BIGINT PRIMARY KEY,
            description TEXT NOT NULL,
            installed_on TIMESTAMPTZ NOT NULL DEFAULT now(),
            success BOOLEAN NOT NULL,
            checksum BYTEA NOT NULL,
            execution_time BIGINT NOT NULL
        )",
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
         VALUES ($1, $2, TRUE, $3, $4)"
    )
}

/// SQLite's schema.
pub(crate) const SQLITE: Migrations = Migrations(&[
    (
        1,
        "asks",
        include_str!("../../migrations/sqlite/0001_asks.sql"),
    ),
    (
        2,
        "projection",
        include_str!("../../migrations/sqlite/0002_projection.sql"),
    ),
    (
        3,
        "idempotency",
        include_str!("../../migrations/sqlite/0003_idempotency.sql"),
    ),
    (
        4,
        "events",
        include_str!("../../migrations/sqlite/0004_events.sql"),
    ),
    (
        5,
        "outbox",
        include_str!("../../migrations/sqlite/0005_outbox.sql"),
    ),
    (
        6,
        "keys",
        include_str!("../../migrations/sqlite/0006_keys.sql"),
    ),
    (
        7,
        "push",
        include_str!("../../migrations/sqlite/0007_push.sql"),
    ),
    (
        8,
        "search",
        include_str!("../../migrations/sqlite/0008_search.sql"),
    ),
    (
        9,
        "people",
        include_str!("../../migrations/sqlite/0009_people.sql"),
    ),
    (
        10,
        "sign-in links",
        include_str!("../../migrations/sqlite/0010_sign_in_links.sql"),
    ),
    (
        11,
        "retention",
        include_str!("../../migrations/sqlite/0011_retention.sql"),
    ),
    (
        12,
        "default answers",
        include_str!("../../migrations/sqlite/0012_default_answers.sql"),
    ),
    (
        13,
        "relays",
        include_str!("../../migrations/sqlite/0013_relays.sql"),
    ),
    (
        14,
        "messages",
        include_str!("../../migrations/sqlite/0014_messages.sql"),
    ),
    (
        15,
        "email",
        include_str!("../../migrations/sqlite/0015_email.sql"),
    ),
    (
        16,
        "owners",
        include_str!("../../migrations/sqlite/0016_owners.sql"),
    ),
    (
        17,
        "grants",
        include_str!("../../migrations/sqlite/0017_grants.sql"),
    ),
]);

/// PostgreSQL's schema.
pub(crate) const POSTGRES: Migrations = Migrations(&[
    (
        1,
        "asks",
        include_str!("../../migrations/postgres/0001_asks.sql"),
    ),
    (
        2,
        "idempotency",
        include_str!("../../migrations/postgres/0002_idempotency.sql"),
    ),
    (
        3,
        "notify",
        include_str!("../../migrations/postgres/0003_notify.sql"),
    ),
    (
        4,
        "mcp sessions",
        include_str!("../../migrations/postgres/0004_mcp_sessions.sql"),
    ),
    (
        5,
        "events",
        include_str!("../../migrations/postgres/0005_events.sql"),
    ),
    (
        6,
        "outbox",
        include_str!("../../migrations/postgres/0006_outbox.sql"),
    ),
    (
        7,
        "keys",
        include_str!("../../migrations/postgres/0007_keys.sql"),
    ),
    (
        8,
        "push",
        include_str!("../../migrations/postgres/0008_push.sql"),
    ),
    (
        9,
        "search",
        include_str!("../../migrations/postgres/0009_search.sql"),
    ),
    (
        10,
        "people",
        include_str!("../../migrations/postgres/0010_people.sql"),
    ),
    (
        11,
        "sign-in links",
        include_str!("../../migrations/postgres/0011_sign_in_links.sql"),
    ),
    (
        12,
        "retention",
        include_str!("../../migrations/postgres/0012_retention.sql"),
    ),
    (
        13,
        "default answers",
        include_str!("../../migrations/postgres/0013_default_answers.sql"),
    ),
    (
        14,
        "relays",
        include_str!("../../migrations/postgres/0014_relays.sql"),
    ),
    (
        15,
        "messages",
        include_str!("../../migrations/postgres/0015_messages.sql"),
    ),
    (
        16,
        "email",
        include_str!("../../migrations/postgres/0016_email.sql"),
    ),
    (
        17,
        "owners",
        include_str!("../../migrations/postgres/0017_owners.sql"),
    ),
    (
        18,
        "grants",
        include_str!("../../migrations/postgres/0018_grants.sql"),
    ),
]);

#[cfg(test)]
mod tests;

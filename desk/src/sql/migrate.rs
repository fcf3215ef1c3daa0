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
]);

#[cfg(test)]
mod tests {
    use super::*;

    /// The newest applied version.
    const APPLIED: &str = "SELECT MAX(version) FROM _sqlx_migrations";

    /// The first `n` migrations of `all` (an older askdesk), then the next
    /// one and a broken one after it (a newer askdesk whose upgrade fails
    /// part-way).
    fn older_and_failing(all: Migrations, n: usize) -> (Migrations, Migrations) {
        let old = Migrations(&all.0[..n]);
        let mut newer = all.0[..=n].to_vec();
        newer.push((
            all.0[n].0 + 1,
            "broken",
            "CREATE TABLE half_done (x INTEGER); THIS IS NOT SQL;",
        ));
        (old, Migrations(Box::leak(newer.into_boxed_slice())))
    }

    async fn sqlite_file(dir: &tempfile::TempDir) -> SqlitePool {
        let options = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(dir.path().join("desk.db"))
            .create_if_missing(true);
        SqlitePool::connect_with(options).await.expect("sqlite")
    }

    async fn tables_sqlite(pool: &SqlitePool) -> Vec<String> {
        sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .fetch_all(pool)
            .await
            .expect("tables")
    }

    #[tokio::test]
    async fn a_failed_sqlite_upgrade_leaves_the_old_schema_and_the_old_askdesk_runs_on_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let pool = sqlite_file(&dir).await;
        let (old, newer) = older_and_failing(SQLITE, 5);
        upgrade_sqlite(&pool, old)
            .await
            .expect("the old askdesk migrates");
        let before = tables_sqlite(&pool).await;

        let failed = upgrade_sqlite(&pool, newer).await;
        assert!(matches!(failed, Err(StoreError::Migrate(_))), "{failed:?}");
        assert_eq!(
            tables_sqlite(&pool).await,
            before,
            "nothing of the upgrade stayed"
        );
        let applied: Option<i64> = sqlx::query_scalar(APPLIED)
            .fetch_one(&pool)
            .await
            .expect("applied");
        assert_eq!(applied, Some(old.latest()));

        upgrade_sqlite(&pool, old)
            .await
            .expect("the old askdesk still opens it");
        upgrade_sqlite(&pool, SQLITE)
            .await
            .expect("a good upgrade then goes through");
        let applied: Option<i64> = sqlx::query_scalar(APPLIED)
            .fetch_one(&pool)
            .await
            .expect("applied");
        assert_eq!(applied, Some(SQLITE.latest()));
    }

    #[tokio::test]
    async fn a_newer_schema_is_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        let pool = sqlite_file(&dir).await;
        upgrade_sqlite(&pool, SQLITE).await.expect("migrates");
        let older = Migrations(&SQLITE.0[..3]);
        let refused = upgrade_sqlite(&pool, older).await;
        assert!(
            matches!(refused, Err(StoreError::TooNew { found, known: 3 }) if found == SQLITE.latest()),
            "{refused:?}"
        );
    }

    #[tokio::test]
    async fn a_failed_postgres_upgrade_leaves_the_old_schema_and_the_old_askdesk_runs_on_it() {
        use sqlx::Connection;
        let url = std::env::var("ASKDESK_TEST_POSTGRES").unwrap_or_else(|_| {
            panic!("ASKDESK_TEST_POSTGRES is not set: run `scripts/dev.sh test unit`")
        });
        let schema = format!(
            "migrate_{}",
            crate::id::AskId::random().expect("random").as_str()
        );
        let mut admin = sqlx::PgConnection::connect(&url).await.expect("connect");
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&mut admin)
            .await
            .expect("schema");
        let pool = PgPool::connect(&format!("{url}?options=-c%20search_path%3D{schema}"))
            .await
            .expect("pool");
        let tables = || async {
            sqlx::query_scalar::<_, String>(
                "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1",
            )
            .fetch_all(&pool)
            .await
            .expect("tables")
        };
        let (old, newer) = older_and_failing(POSTGRES, 5);
        upgrade_postgres(&pool, old)
            .await
            .expect("the old askdesk migrates");
        let before = tables().await;

        let failed = upgrade_postgres(&pool, newer).await;
        assert!(matches!(failed, Err(StoreError::Migrate(_))), "{failed:?}");
        assert_eq!(tables().await, before, "nothing of the upgrade stayed");

        upgrade_postgres(&pool, old)
            .await
            .expect("the old askdesk still opens it");
        upgrade_postgres(&pool, POSTGRES)
            .await
            .expect("a good upgrade then goes through");
        let applied: Option<i64> = sqlx::query_scalar(APPLIED)
            .fetch_one(&pool)
            .await
            .expect("applied");
        assert_eq!(applied, Some(POSTGRES.latest()));
        sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
            .execute(&mut admin)
            .await
            .expect("drop");
    }
}

//! Schemas, compiled in per database so the binary needs no files beside
//! it, and the check that refuses a database a newer askdesk has changed.

use crate::error::StoreError;
use sqlx::{
    error::BoxDynError,
    migrate::{Migration, MigrationSource, MigrationType},
};
use std::{future::Future, pin::Pin};

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
}

impl MigrationSource<'static> for Migrations {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async move {
            Ok(self
                .0
                .iter()
                .map(|(version, name, sql)| {
                    Migration::new(
                        *version,
                        (*name).into(),
                        MigrationType::Simple,
                        (*sql).into(),
                        false,
                    )
                })
                .collect())
        })
    }
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
]);

/// The query that reads the newest applied version, the same in both
/// databases; it fails on a database no askdesk has touched yet.
pub(crate) const APPLIED: &str = "SELECT MAX(version) FROM _sqlx_migrations";

//! The stores askdesk has, SQLite and PostgreSQL: each opens its own kind
//! of database, and both run the same statements and read rows the same
//! way, so they cannot drift apart.

mod asks;
mod backup;
mod claim;
pub(crate) mod grants;
mod messages;
mod migrate;
mod outbox;
mod owners;
mod people;
mod postgres;
mod retention;
mod rows;
mod sessions;
mod sqlite;

pub use backup::BackupError;
pub use claim::{Claim, ClaimError};
pub use postgres::{Change, Changes, PoolSettings, PostgresStore};
pub use sqlite::{Contents, SqliteStore};

//! The desk's tests, one binary: the store conformance suite on every kind
//! of store, and what only SQLite files do.

mod common;
mod conformance;
mod defaults;
mod messages;
mod owners;
mod postgres;
mod retention;
mod sessions;
mod sqlite;

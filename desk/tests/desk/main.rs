//! The desk's tests, one binary: the store conformance suite on every kind
//! of store, and what only SQLite files do.

// The 100-line rule is `src/`'s: a scenario reads best as one story.
#![allow(clippy::too_many_lines)]

mod common;
mod conformance;
mod defaults;
mod grants;
mod messages;
mod owners;
mod postgres;
mod retention;
mod sessions;
mod sqlite;

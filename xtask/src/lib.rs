//! The workspace's own program (rust-analyzer's `xtask`, in shape): the
//! build of the site and the server, the test suites and their summary,
//! the watch, and the checks ARCHITECTURE.md promises ([`tidy`]).
//! `scripts/dev.sh` installs the toolchain and the tools a command needs
//! and hands over to this program with the environment they make
//! ([`settings`]).

pub mod budget;
pub mod cleanup;
pub mod junit;
pub mod postgres;
pub mod process;
pub mod runner;
pub mod serve;
pub mod server;
pub mod settings;
pub mod site;
pub mod suites;
pub mod summary;
pub mod tally;
mod tidy;
pub mod tools;
pub mod watch;

use std::path::{Path, PathBuf};

pub use tidy::{tidy, MAX_FILE_LINES};

/// The workspace this crate is in.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

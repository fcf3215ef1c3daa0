//! The workspace's own program (rust-analyzer's `xtask`, in shape): the
//! build of the site and the server, and the checks ARCHITECTURE.md
//! promises ([`tidy`]).
//! `scripts/dev.sh` installs the toolchain and the tools a command needs
//! and hands over to `cargo xtask` with the environment they make
//! ([`settings`]).

pub mod budget;
pub mod process;
pub mod server;
pub mod settings;
pub mod site;
mod tidy;

use std::path::{Path, PathBuf};

pub use tidy::{tidy, MAX_FILE_LINES};

/// The workspace this crate is in.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

//! The workspace's own program (rust-analyzer's `xtask`, in shape): the
//! checks ARCHITECTURE.md promises ([`tidy`]).

mod tidy;

use std::path::{Path, PathBuf};

pub use tidy::{tidy, MAX_FILE_LINES};

/// The workspace this crate is in.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

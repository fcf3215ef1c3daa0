//! `askdesk backup FILE`: a consistent copy of a SQLite desk, taken while
//! it serves, written under a temporary name and renamed into place only
//! when whole.

use super::sqlite::{Contents, SqliteStore};
use std::path::{Path, PathBuf};

/// Why a backup was not made (nothing is left behind).
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// There is no file to copy.
    #[error("there is no desk at {0}; give its --database")]
    NoDesk(PathBuf),
    /// A backup never overwrites a file.
    #[error("{0} exists already; a backup never overwrites a file")]
    Exists(PathBuf),
    /// The copy's name is not UTF-8, which SQLite's `VACUUM INTO` takes.
    #[error("{0}: a backup's file name must be UTF-8")]
    NotUtf8(PathBuf),
    /// The database, the copy or the file system failed.
    #[error("cannot {what} {}: {why}", path.display())]
    Failed {
        /// What failed.
        what: &'static str,
        /// Where.
        path: PathBuf,
        /// Why.
        why: String,
    },
}

fn failed(what: &'static str, path: &Path, why: impl ToString) -> BackupError {
    BackupError::Failed {
        what,
        path: path.to_owned(),
        why: why.to_string(),
    }
}

impl SqliteStore {
    /// Copies the desk at `source` to `file`, which must not exist: what
    /// the copy holds.
    pub async fn back_up(source: &Path, file: &Path) -> Result<Contents, BackupError> {
        if !source.is_file() {
            return Err(BackupError::NoDesk(source.to_owned()));
        }
        if file.exists() {
            return Err(BackupError::Exists(file.to_owned()));
        }
        // `FILE.partial`, beside `file`, so the rename stays on one file
        // system.
        let mut partial = file.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        let Some(partial_text) = partial.to_str() else {
            return Err(BackupError::NotUtf8(file.to_owned()));
        };
        // Left behind by a backup that was interrupted: never a whole copy.
        remove_if_there(&partial)?;
        let store = SqliteStore::open(source)
            .await
            .map_err(|e| failed("open the database", source, e))?;
        if let Err(e) = store.back_up_into(partial_text).await {
            remove_if_there(&partial)?;
            return Err(failed("back up", source, e));
        }
        std::fs::rename(&partial, file).map_err(|e| failed("move the copy to", file, e))?;
        SqliteStore::contents_of(file)
            .await
            .map_err(|e| failed("read the copy at", file, e))
    }
}

fn remove_if_there(path: &Path) -> Result<(), BackupError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(failed("remove", path, e)),
    }
}

//! One server per SQLite file: a second would not hear of the first's
//! changes (its waiters would learn of answers only when their wait ran
//! out), so it refuses, naming the first.

use std::path::{Path, PathBuf};

/// A SQLite file this process serves: an exclusive lock on `<file>.lock`,
/// which holds the address of the server using it, until dropped.
pub struct Claim {
    file: std::fs::File,
}

/// Why a SQLite file could not be claimed.
#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    /// Another server serves it.
    #[error(
        "the database {} is in use by {holder}: two servers on one SQLite file would not see \
         each other's changes. Use that server (ASKDESK_URL), another --database, or \
         PostgreSQL (--database postgres://…) for several instances",
        path.display()
    )]
    InUse {
        /// The database file.
        path: PathBuf,
        /// Who has it, as its lock file says.
        holder: String,
    },
    /// The lock file could not be made or locked.
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        /// What failed.
        what: &'static str,
        /// Where.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl Claim {
    /// Claims the SQLite file at `path` for this process, or says who has
    /// it.
    pub fn take(path: &Path) -> Result<Self, ClaimError> {
        let lock = PathBuf::from(format!("{}.lock", path.display()));
        if let Some(parent) = lock.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| ClaimError::Io {
                what: "create the database folder",
                path: parent.to_owned(),
                source,
            })?;
        }
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock)
            .map_err(|source| ClaimError::Io {
                what: "open",
                path: lock.clone(),
                source,
            })?;
        match file.try_lock() {
            Ok(()) => Ok(Claim { file }),
            Err(std::fs::TryLockError::WouldBlock) => {
                let holder = std::fs::read_to_string(&lock).unwrap_or_default();
                let holder = match holder.trim() {
                    "" => "another askdesk (still starting)".to_owned(),
                    holder => format!("the askdesk at {holder}"),
                };
                Err(ClaimError::InUse {
                    path: path.to_owned(),
                    holder,
                })
            }
            Err(std::fs::TryLockError::Error(source)) => Err(ClaimError::Io {
                what: "lock",
                path: lock,
                source,
            }),
        }
    }

    /// Writes where the server using the file answers, for a second one
    /// to name when it refuses.
    pub fn announce(&mut self, url: &str) {
        use std::io::{Seek, Write};
        let written = self
            .file
            .set_len(0)
            .and_then(|()| self.file.rewind())
            .and_then(|()| writeln!(self.file, "{url} (pid {})", std::process::id()));
        if let Err(e) = written {
            tracing::debug!("could not note the address in the lock file: {e}");
        }
    }
}

//! One server per SQLite file: a second would not hear of the first's
//! changes (its waiters would learn of answers only when their wait ran
//! out), so it refuses, naming the first.

use super::StartError;
use anyhow::{anyhow, Context};
use std::path::{Path, PathBuf};

/// A SQLite file this process serves: an exclusive lock on `<file>.lock`,
/// which holds the address of the server using it, until dropped.
pub struct Claim {
    file: std::fs::File,
}

impl Claim {
    /// Writes where the server using the file answers, for a second one
    /// to name when it refuses.
    pub(super) fn announce(&mut self, url: &str) {
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

/// Claims the SQLite file at `path` for this process, or says who has it.
pub fn claim(path: &Path) -> Result<Claim, StartError> {
    let lock = PathBuf::from(format!("{}.lock", path.display()));
    if let Some(parent) = lock.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create the database folder {}", parent.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock)
        .with_context(|| format!("cannot open {}", lock.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(Claim { file }),
        Err(std::fs::TryLockError::WouldBlock) => {
            let holder = std::fs::read_to_string(&lock).unwrap_or_default();
            let holder = match holder.trim() {
                "" => "another askdesk (still starting)".to_owned(),
                holder => format!("the askdesk at {holder}"),
            };
            Err(anyhow!(
                "the database {} is in use by {holder}: two servers on one SQLite file would \
                 not see each other's changes. Use that server (ASKDESK_URL), another \
                 --database, or PostgreSQL (--database postgres://…) for several instances",
                path.display()
            ))
        }
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {}", lock.display()))
        }
    }
}

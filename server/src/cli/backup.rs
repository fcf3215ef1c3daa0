//! `askdesk backup FILE`: a consistent copy of a SQLite desk, taken while
//! it serves, written under a temporary name and renamed into place only
//! when whole.

use crate::cli::{
    config::{Database, DatabaseArgs},
    run::StartError,
};
use anyhow::{anyhow, Context};
use desk::SqliteStore;
use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

/// Copies the desk on `database` (or `outer`, a `--database` given before
/// the command's name) to `file`, then says what the copy holds.
pub async fn run(
    file: PathBuf,
    mut database: DatabaseArgs,
    outer: Option<String>,
) -> Result<ExitCode, StartError> {
    database.database = database.database.or(outer);
    let source = match database.database()? {
        Database::File(path) => path,
        Database::Memory => {
            return Err(anyhow!(
                "a :memory: desk lives only inside its server; there is nothing to back up"
            ))
        }
        Database::Postgres(_) => {
            return Err(anyhow!(
                "a PostgreSQL desk is backed up with PostgreSQL's own tools: \
                 pg_dump --format=custom --file=askdesk.dump \"$ASKDESK_DATABASE\" \
                 (the README has the restore recipe)"
            ))
        }
    };
    if !source.is_file() {
        return Err(anyhow!(
            "there is no desk at {}; give its --database",
            source.display()
        ));
    }
    if file.exists() {
        return Err(anyhow!(
            "{} exists already; a backup never overwrites a file",
            file.display()
        ));
    }
    let partial = partial_name(&file);
    let Some(partial_text) = partial.to_str() else {
        return Err(anyhow!(
            "{}: a backup's file name must be UTF-8",
            file.display()
        ));
    };
    // Left behind by a backup that was interrupted: never a whole copy.
    remove_if_there(&partial)?;
    let store = SqliteStore::open(&source)
        .await
        .with_context(|| format!("cannot open the database {}", source.display()))?;
    let copied = store.back_up_into(partial_text).await;
    if let Err(e) = copied {
        remove_if_there(&partial)?;
        return Err(anyhow!("cannot back up {}: {e}", source.display()));
    }
    std::fs::rename(&partial, &file)
        .with_context(|| format!("cannot move the copy to {}", file.display()))?;
    let contents = SqliteStore::contents_of(&file)
        .await
        .with_context(|| format!("the copy at {} cannot be read", file.display()))?;
    let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    println!(
        "backed up {} to {} ({bytes} bytes): {contents}",
        source.display(),
        file.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `FILE.partial`, beside `file`, so the rename stays on one file system.
fn partial_name(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

fn remove_if_there(path: &Path) -> Result<(), StartError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(anyhow!("cannot remove {}: {e}", path.display())),
    }
}

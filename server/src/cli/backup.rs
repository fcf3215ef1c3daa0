//! `askdesk backup FILE`: which desks askdesk backs up itself (a SQLite
//! file; the copy is `desk::SqliteStore::back_up`'s), and what it says of
//! the copy.

use crate::cli::{
    config::{Database, DatabaseArgs},
    run::StartError,
};
use anyhow::anyhow;
use desk::SqliteStore;
use std::{path::PathBuf, process::ExitCode};

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
    let contents = SqliteStore::back_up(&source, &file).await?;
    let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    println!(
        "backed up {} to {} ({bytes} bytes): {contents}",
        source.display(),
        file.display()
    );
    Ok(ExitCode::SUCCESS)
}

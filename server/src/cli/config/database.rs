//! Where the asks are: `--database` read as a SQLite file (by default in
//! askdesk's data folder), `:memory:` or a PostgreSQL URL, named in logs
//! and messages without its password.

use super::{ConfigError, DatabaseArgs};
use axum::http::Uri;
use std::{
    fmt,
    path::{Path, PathBuf},
};

/// askdesk's folder in the user's data folder (`$XDG_DATA_HOME/askdesk`,
/// else `~/.local/share/askdesk`): the default database, and the log of a
/// desk `askdesk mcp` started.
pub fn data_folder() -> Result<PathBuf, ConfigError> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/share")))
        .ok_or_else(|| {
            ConfigError(
                "cannot find a data folder (neither XDG_DATA_HOME nor HOME is set); \
                 pass --database <file>"
                    .to_owned(),
            )
        })?;
    Ok(base.join("askdesk"))
}

/// Where `--database` (given or not) says asks are stored.
pub fn database_at(database: Option<&str>) -> Result<Database, ConfigError> {
    match database {
        Some(":memory:") => Ok(Database::Memory),
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            Ok(Database::Postgres(url.to_owned()))
        }
        Some(url) if url.contains("://") => {
            let scheme = url.split("://").next().unwrap_or_default();
            Err(ConfigError(format!(
                "--database: {scheme}:// is not a database askdesk knows; give a SQLite \
                 file path (e.g. /var/lib/askdesk/askdesk.db), :memory:, or a \
                 postgres:// URL"
            )))
        }
        Some(path) => Ok(Database::File(PathBuf::from(path))),
        None => Ok(Database::File(data_folder()?.join("askdesk.db"))),
    }
}

impl DatabaseArgs {
    /// Where the asks are.
    pub fn database(&self) -> Result<Database, ConfigError> {
        database_at(self.database.as_deref())
    }
}

/// Where asks are stored.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file.
    File(PathBuf),
    /// A private in-memory SQLite database.
    Memory,
    /// A PostgreSQL database, by its URL (which may hold a password).
    Postgres(String),
}

impl fmt::Display for Database {
    /// Where the asks are, for logs and messages: never a password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::File(path) => write!(f, "{}", path.display()),
            Self::Memory => f.write_str(":memory:"),
            Self::Postgres(url) => match url.parse::<Uri>() {
                Ok(uri) => write!(
                    f,
                    "{}://{}{}",
                    uri.scheme_str().unwrap_or("postgres"),
                    uri.host().unwrap_or_default(),
                    uri.port().map(|p| format!(":{p}")).unwrap_or_default()
                )
                .and_then(|()| f.write_str(uri.path())),
                Err(_) => f.write_str("postgres://…"),
            },
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Database({self})")
    }
}

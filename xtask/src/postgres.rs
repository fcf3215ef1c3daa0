//! PostgreSQL for the tests that claim it: a throwaway cluster of Debian's
//! `postgresql` (which `scripts/dev.sh` installs) under `target/` on a
//! free port, stopped when its guard is dropped or a signal ends xtask.
//! It skips fsync, unless `ASKDESK_PG_DURABLE=1` (benchmarks). PostgreSQL
//! refuses to run as root, so as root it runs as `postgres`.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use crate::{
    cleanup::Guard,
    process::{at, remove_dir, run, step, Error, Result, TempDir},
    serve::free_port,
};

/// A running throwaway cluster; stopped when dropped.
pub struct Cluster {
    url: String,
    _stop: Guard,
}

impl Cluster {
    /// Its URL, for `ASKDESK_TEST_POSTGRES`.
    pub fn url(&self) -> &str {
        &self.url
    }
}

/// The newest PostgreSQL's programs: `/usr/lib/postgresql/<version>/bin`.
fn programs() -> Result<PathBuf> {
    let versions = fs::read_dir("/usr/lib/postgresql").map_err(|_| {
        Error::new("no PostgreSQL in /usr/lib/postgresql (scripts/dev.sh installs postgresql)")
    })?;
    let newest = versions
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.join("bin").is_dir())
        .max_by_key(|path| version(path))
        .ok_or_else(|| Error::new("no PostgreSQL version in /usr/lib/postgresql"))?;
    Ok(newest.join("bin"))
}

/// `16` of `/usr/lib/postgresql/16`, as numbers (`sort -V`).
fn version(path: &Path) -> Vec<u64> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    name.split('.').map(|n| n.parse().unwrap_or(0)).collect()
}

/// Whether this process runs as root.
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

/// A command run as the cluster's owner: `postgres` when this is root.
fn as_owner(as_postgres: bool, program: &Path) -> Command {
    if as_postgres {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

/// The folder the cluster lives in: `target/postgres`, made anew, owned
/// by `postgres` when it runs as that; a folder under `/tmp` when the
/// clone sits where `postgres` cannot reach (a private home).
fn folder(root: &Path, as_postgres: bool) -> Result<PathBuf> {
    let dir = root.join("target/postgres");
    remove_dir(&dir)?;
    fs::create_dir_all(&dir).map_err(at(&dir))?;
    if !as_postgres {
        return Ok(dir);
    }
    run(Command::new("chown").arg("postgres").arg(&dir))?;
    let writable = as_owner(true, Path::new("test"))
        .arg("-w")
        .arg(&dir)
        .status()
        .is_ok_and(|s| s.success());
    if writable {
        return Ok(dir);
    }
    remove_dir(&dir)?;
    let dir = TempDir::new(Path::new("/tmp"), "askdesk-postgres.")?.keep();
    run(Command::new("chown").arg("postgres").arg(&dir))?;
    Ok(dir)
}

/// Starts a throwaway cluster for the workspace at `root`.
pub fn start(root: &Path, durable: bool) -> Result<Cluster> {
    let bin = programs()?;
    let as_postgres = is_root();
    let dir = folder(root, as_postgres)?;
    let port = free_port()?;
    step(&format!("PostgreSQL (throwaway, port {port})"));
    let data = dir.join("data");
    let initdb_log = dir.join("initdb.log");
    let log = fs::File::create(&initdb_log).map_err(at(&initdb_log))?;
    let initdb = as_owner(as_postgres, &bin.join("initdb"))
        .arg("-D")
        .arg(&data)
        .args(["-A", "trust", "-U", "postgres", "--no-sync"])
        .stdout(log.try_clone()?)
        .stderr(log)
        .status()?;
    if !initdb.success() {
        eprint!("{}", fs::read_to_string(&initdb_log).unwrap_or_default());
        return Err(Error::new("initdb failed"));
    }
    let fsync = if durable { "on" } else { "off" };
    let pg_ctl = bin.join("pg_ctl");
    let options = format!(
        "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync={fsync} -c max_connections=300",
        dir.display()
    );
    let started = as_owner(as_postgres, &pg_ctl)
        .arg("-D")
        .arg(&data)
        .arg("-w")
        .arg("-l")
        .arg(dir.join("server.log"))
        .args(["-o", &options, "start"])
        .stdout(std::io::stderr())
        .status()?;
    if !started.success() {
        eprint!(
            "{}",
            fs::read_to_string(dir.join("server.log")).unwrap_or_default()
        );
        return Err(Error::new("PostgreSQL did not start"));
    }
    let stop = Guard::new(move || {
        let _ = as_owner(as_postgres, &pg_ctl)
            .arg("-D")
            .arg(&data)
            .args(["-m", "immediate", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    });
    Ok(Cluster {
        url: format!("postgres://postgres@127.0.0.1:{port}/postgres"),
        _stop: stop,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_version_is_by_number_not_by_text() {
        let newest = ["/p/9.6", "/p/16", "/p/10"]
            .iter()
            .map(Path::new)
            .max_by_key(|p| version(p));
        assert_eq!(newest, Some(Path::new("/p/16")));
    }
}

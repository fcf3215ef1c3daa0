//! Running the tools the build is made of: one error type for whatever
//! fails, the heading each step prints, a command that must succeed, and
//! the folders a step makes for a while.

use std::{
    fmt, fs, io,
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus},
    sync::atomic::{AtomicU32, Ordering},
};

/// Why a command of xtask stopped: said once, to the person running it.
#[derive(Debug)]
pub struct Error(String);

impl Error {
    pub fn new(why: impl Into<String>) -> Error {
        Error(why.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<io::Error> for Error {
    fn from(error: io::Error) -> Error {
        Error(error.to_string())
    }
}

pub type Result<T = ()> = std::result::Result<T, Error>;

/// An error about `path`, naming it.
pub fn at(path: &Path) -> impl FnOnce(io::Error) -> Error + '_ {
    move |error| Error(format!("{}: {error}", path.display()))
}

/// The heading of a step, in bold, on standard error.
pub fn step(what: &str) {
    eprintln!("\n\x1b[1m=== {what}\x1b[0m");
}

/// The command as a person would type it, for messages.
pub fn shown(command: &Command) -> String {
    let mut words = vec![command.get_program().to_string_lossy().into_owned()];
    words.extend(command.get_args().map(|a| a.to_string_lossy().into_owned()));
    words.join(" ")
}

/// Runs `command` to its end; anything but success is an error naming it.
pub fn run(command: &mut Command) -> Result {
    let status = command
        .status()
        .map_err(|e| Error(format!("{}: {e}", shown(command))))?;
    succeeded(command, status)
}

/// `status` as a result: an error naming `command` unless it succeeded.
pub fn succeeded(command: &Command, status: ExitStatus) -> Result {
    if status.success() {
        Ok(())
    } else {
        Err(Error(format!("`{}` failed ({status})", shown(command))))
    }
}

/// Asks the process `pid` to stop (SIGTERM, as `kill` sends it: the
/// servers stop gracefully on it), without waiting for it.
pub fn terminate(pid: u32) {
    let _ = Command::new("kill")
        .arg(pid.to_string())
        .stderr(std::process::Stdio::null())
        .status();
}

/// Stops `child` (SIGTERM) and waits for it.
pub fn stop(child: &mut Child) {
    if matches!(child.try_wait(), Ok(None)) {
        terminate(child.id());
    }
    let _ = child.wait();
}

/// Whether `a` was modified after `b`, or `a` exists and `b` does not
/// (the shell's `a -nt b`).
pub fn newer(a: &Path, b: &Path) -> bool {
    let modified = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
    match (modified(a), modified(b)) {
        (Some(a), Some(b)) => a > b,
        (Some(_), None) => true,
        (None, _) => false,
    }
}

/// Whether `made` is missing or older than one of `sources`.
pub fn stale(made: &Path, sources: &[&Path]) -> bool {
    !made.exists() || sources.iter().any(|source| newer(source, made))
}

/// Removes the folder `dir` and what is in it, if it is there.
pub fn remove_dir(dir: &Path) -> Result {
    match fs::remove_dir_all(dir) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(at(dir)(e)),
        _ => Ok(()),
    }
}

/// A folder made for a while under `parent`, named `prefix` and a suffix
/// no other has (`mktemp -d`); removed when dropped, unless kept.
pub struct TempDir {
    path: PathBuf,
    keep: bool,
}

impl TempDir {
    pub fn new(parent: &Path, prefix: &str) -> Result<TempDir> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        loop {
            let path = parent.join(format!(
                "{prefix}{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::SeqCst)
            ));
            match fs::create_dir(&path) {
                Ok(()) => return Ok(TempDir { path, keep: false }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(at(&path)(e)),
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The folder, left in place after this.
    pub fn keep(mut self) -> PathBuf {
        self.keep = true;
        self.path.clone()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !self.keep {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_stale_when_missing_or_older_than_a_source() {
        let dir = TempDir::new(&std::env::temp_dir(), "xtask-stale-").expect("a folder");
        let (source, made) = (dir.path().join("source"), dir.path().join("made"));
        fs::write(&source, "a").expect("written");
        assert!(stale(&made, &[&source]), "missing");
        fs::write(&made, "b").expect("written");
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
        fs::File::options()
            .write(true)
            .open(&made)
            .and_then(|f| f.set_modified(later))
            .expect("set");
        assert!(!stale(&made, &[&source]), "newer than its source");
        assert!(
            !stale(&made, &[&dir.path().join("gone")]),
            "a source not there"
        );
        assert!(newer(&source, &dir.path().join("gone")));
        let kept = dir.keep();
        assert!(kept.exists());
        fs::remove_dir_all(kept).expect("removed");
    }
}

//! wasm-bindgen-cli, which must equal the `wasm-bindgen` crate the bundles
//! are built with (`=X.Y.Z` in the workspace's Cargo.toml). `cargo install`
//! builds it into the tools' folder when it is missing or another version.
//! That takes minutes and needs nothing the build makes, so it runs in the
//! background ([`start`]) while the bundles (or the suites before the wasm
//! one) compile, and is waited for where it is first used ([`ready`]).
//!
//! A lock file in the tools' folder is held for each install: a suite run
//! as its own process, or a second checkout sharing the tools, waits for
//! the install under way instead of starting another.

use std::{
    fs::{self, File},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    thread::JoinHandle,
};

use crate::{
    process::{at, shown, succeeded, Error, Result},
    settings::Settings,
};

/// The version the workspace pins, from its Cargo.toml.
fn wanted(settings: &Settings) -> Result<String> {
    let manifest = settings.root.join("Cargo.toml");
    let text = fs::read_to_string(&manifest).map_err(at(&manifest))?;
    text.lines()
        .find_map(|line| {
            let rest = line.trim().strip_prefix("wasm-bindgen = \"=")?;
            Some(rest.split('"').next()?.to_owned())
        })
        .ok_or_else(|| Error::new("Cargo.toml pins no wasm-bindgen (`wasm-bindgen = \"=X.Y.Z\"`)"))
}

/// The installed wasm-bindgen in the tools' folder.
fn binary(settings: &Settings) -> PathBuf {
    settings.tools.join("bin/wasm-bindgen")
}

/// Whether the tools hold wasm-bindgen `version`.
fn installed(settings: &Settings, version: &str) -> bool {
    Command::new(binary(settings))
        .arg("--version")
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|out| {
            String::from_utf8_lossy(&out.stdout).trim() == format!("wasm-bindgen {version}")
        })
}

/// The lock every install holds, taken (waiting for one under way).
fn lock(settings: &Settings) -> Result<File> {
    fs::create_dir_all(&settings.tools).map_err(at(&settings.tools))?;
    let path = settings.tools.join("wasm-bindgen.lock");
    let file = File::create(&path).map_err(at(&path))?;
    file.lock().map_err(at(&path))?;
    Ok(file)
}

/// Installs wasm-bindgen-cli `version` unless it is there by the time the
/// lock is held, its output in `log`.
fn install(settings: &Settings, version: &str, log: &Path) -> Result {
    let _held = lock(settings)?;
    if installed(settings, version) {
        return Ok(());
    }
    let output = File::create(log).map_err(at(log))?;
    let mut cargo = Command::new("cargo");
    // Not --locked: its lockfile pins a webpki-roots the registry may not
    // serve. Optimised once over rather than thrice: its compile is about
    // a fifth of a first run's work, and it then spends seconds on each
    // bundle.
    cargo
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1")
        .args([
            "install",
            "wasm-bindgen-cli",
            "--version",
            version,
            "--force",
        ])
        .arg("--root")
        .arg(&settings.tools)
        .stdout(output.try_clone()?)
        .stderr(output);
    let status = cargo
        .status()
        .map_err(|e| Error::new(format!("{}: {e}", shown(&cargo))))?;
    succeeded(&cargo, status).map_err(|e| {
        let text = fs::read_to_string(log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        Error::new(format!(
            "{e}; the end of {}:\n{}",
            log.display(),
            tail.join("\n")
        ))
    })
}

/// Where an install's output goes.
fn log_path(settings: &Settings) -> PathBuf {
    settings.tools.join("wasm-bindgen-install.log")
}

/// An install under way in the background; [`Installing::finish`] says how
/// it ended.
pub struct Installing(Option<JoinHandle<Result>>);

impl Installing {
    /// Waits for the install, if one was started.
    pub fn finish(self) -> Result {
        match self.0 {
            Some(thread) => thread
                .join()
                .unwrap_or_else(|_| Err(Error::new("the wasm-bindgen install panicked"))),
            None => Ok(()),
        }
    }
}

/// Starts installing wasm-bindgen-cli in the background when the tools do
/// not hold the pinned version.
pub fn start(settings: &Settings) -> Result<Installing> {
    let version = wanted(settings)?;
    if installed(settings, &version) {
        return Ok(Installing(None));
    }
    let log = log_path(settings);
    eprintln!(
        "wasm-bindgen-cli {version}: installing in the background (cargo install, its output in {})",
        log.display()
    );
    let settings = settings.clone();
    Ok(Installing(Some(std::thread::spawn(move || {
        install(&settings, &version, &log)
    }))))
}

/// wasm-bindgen-cli as pinned, waiting for an install under way (in this
/// process or another), or installing it now.
pub fn ready(settings: &Settings) -> Result {
    let version = wanted(settings)?;
    if installed(settings, &version) {
        return Ok(());
    }
    install(settings, &version, &log_path(settings))?;
    if installed(settings, &version) {
        Ok(())
    } else {
        Err(Error::new(format!(
            "{} is not wasm-bindgen {version} after its install",
            binary(settings).display()
        )))
    }
}

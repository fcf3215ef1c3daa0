//! `cargo xtask COMMAND`: the workspace's build, tests and checks (see the
//! library). `scripts/dev.sh COMMAND` installs what a command needs and
//! runs it here.

use std::{
    ffi::OsString,
    os::unix::process::CommandExt,
    path::PathBuf,
    process::{Command, ExitCode},
};

use xtask::{
    process::{step, Error, Result},
    server,
    settings::{check_environment, Settings},
    site,
};

const USAGE: &str = "\
usage: cargo xtask COMMAND (through scripts/dev.sh, which installs what it needs)
  run [ARGS…]             build the release server and the site, then serve (askdesk ARGS)
  build                   build the debug server and the site
  build-site              build only the site
  build-release           build the release server and the site
  env                     print the toolchain and the wasm build's arguments
  tidy [WORKSPACE]        check the rules ARCHITECTURE.md promises";

fn main() -> ExitCode {
    forget_cargo_run();
    let mut args = std::env::args_os().skip(1);
    let command = args.next().map(|c| c.to_string_lossy().into_owned());
    let rest: Vec<OsString> = args.collect();
    let root = xtask::workspace();
    if let Err(e) = std::env::set_current_dir(&root) {
        eprintln!("cargo xtask: {}: {e}", root.display());
        return ExitCode::FAILURE;
    }
    let settings = Settings::from_env(&root);
    match dispatch(command.as_deref(), &rest, &settings) {
        Ok(code) => code,
        Err(why) => {
            eprintln!("cargo xtask: {why}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo run` tells the program it runs which package it is
/// (`CARGO_PKG_NAME`, `CARGO_MANIFEST_DIR`, …); the builds, servers and
/// test runners started here get the environment `scripts/dev.sh` made,
/// as they did when it started them itself.
fn forget_cargo_run() {
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("CARGO_PKG_")
            || [
                "CARGO_MANIFEST_DIR",
                "CARGO_MANIFEST_PATH",
                "CARGO_PRIMARY_PACKAGE",
            ]
            .contains(&name.as_ref())
        {
            std::env::remove_var(name.as_ref());
        }
    }
}

fn dispatch(command: Option<&str>, args: &[OsString], settings: &Settings) -> Result<ExitCode> {
    let done = Ok(ExitCode::SUCCESS);
    match command {
        Some("tidy") => Ok(tidy(args.first().map(PathBuf::from))),
        Some("env") => env(settings),
        Some(build) if ["build", "build-site", "build-release", "run"].contains(&build) => {
            check_environment()?;
            if build == "build" {
                server::build(false)?;
            }
            // The site first: the release binary embeds it.
            site::build(settings)?;
            if build == "build-release" || build == "run" {
                server::build(true)?;
            }
            if build == "run" {
                step("askdesk");
                let error = Command::new(settings.askdesk(true)).args(args).exec();
                return Err(Error::new(format!("target/release/askdesk: {error}")));
            }
            done
        }
        _ => {
            eprintln!("{USAGE}");
            Ok(ExitCode::from(2))
        }
    }
}

fn tidy(other: Option<PathBuf>) -> ExitCode {
    // Another checkout's, when one is named.
    let root = other.unwrap_or_else(xtask::workspace);
    let problems = xtask::tidy(&root);
    for problem in &problems {
        eprintln!("{problem}");
    }
    if problems.is_empty() {
        println!("tidy: the workspace keeps ARCHITECTURE.md's rules");
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// What `scripts/dev.sh env` prints: the toolchain it chose and how the
/// wasm is built.
fn env(settings: &Settings) -> Result<ExitCode> {
    let cargo = Command::new("cargo").arg("--version").output()?;
    println!(
        "toolchain: {} ({})",
        settings.toolchain,
        String::from_utf8_lossy(&cargo.stdout).trim()
    );
    println!("wasm build: cargo build {}", settings.wasm_args.join(" "));
    println!(
        "RUSTC_BOOTSTRAP={}",
        std::env::var("RUSTC_BOOTSTRAP").unwrap_or_default()
    );
    println!("tools: {}", settings.tools.display());
    Ok(ExitCode::SUCCESS)
}

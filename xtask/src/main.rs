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
    cleanup, postgres,
    process::{step, Error, Result},
    runner, server,
    settings::{check_environment, Settings},
    site, tools, watch,
};

/// The commands, and what each does.
const COMMANDS: &[(&str, &str)] = &[
    (
        "run [ARGS…]",
        "build the release server and the site, then serve (askdesk ARGS)",
    ),
    (
        "test [SUITE…]",
        "run every suite, or the named ones, and sum them up",
    ),
    ("suite SUITE", "run one suite, without the summary"),
    (
        "watch [ARGS…]",
        "serve a debug build; rebuild, restart and reload on every save",
    ),
    ("build", "build the debug server and the site"),
    ("build-site", "build only the site"),
    ("build-release", "build the release server and the site"),
    (
        "tools",
        "install wasm-bindgen-cli as the workspace pins it, if missing",
    ),
    (
        "with-postgres CMD…",
        "run CMD with ASKDESK_TEST_POSTGRES set (a throwaway cluster)",
    ),
    ("env", "print the toolchain and the wasm build's arguments"),
    (
        "tidy [WORKSPACE]",
        "check the rules ARCHITECTURE.md promises",
    ),
];

/// How to call this program: a line for each command.
fn usage() -> String {
    let mut text =
        "usage: cargo xtask COMMAND (through scripts/dev.sh, which installs what it needs)"
            .to_owned();
    for (command, what) in COMMANDS {
        text.push_str(&format!("\n  {command:<24}{what}"));
    }
    text
}

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let command = args.next().map(|c| c.to_string_lossy().into_owned());
    let rest: Vec<OsString> = args.collect();
    if command.as_deref() == Some("tidy") {
        // Another checkout's, when one is named (from where this runs).
        return tidy(rest.first().map(PathBuf::from));
    }
    let root = xtask::workspace();
    if let Err(e) = std::env::set_current_dir(&root) {
        eprintln!("xtask: {}: {e}", root.display());
        return ExitCode::FAILURE;
    }
    let settings = Settings::from_env(&root);
    match dispatch(command.as_deref(), &rest, &settings) {
        Ok(code) => code,
        Err(why) => {
            eprintln!("xtask: {why}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(command: Option<&str>, args: &[OsString], settings: &Settings) -> Result<ExitCode> {
    let done = Ok(ExitCode::SUCCESS);
    match command {
        Some("env") => env(settings),
        Some("tools") => tools::ready(settings).and(done),
        Some("with-postgres") => with_postgres(settings, args),
        Some(build) if ["build", "build-site", "build-release", "run"].contains(&build) => {
            check_environment()?;
            // Needed only once the first bundle has compiled.
            let installing = tools::start(settings)?;
            if build == "build" {
                server::build(false)?;
            }
            let release = build == "build-release" || build == "run";
            // The site first: the release binary embeds it; its library
            // does not, and builds beside it.
            std::thread::scope(|scope| {
                let library = release.then(|| scope.spawn(server::build_library));
                let site = site::build(settings);
                let library = library.map_or(Ok(()), |thread| {
                    thread
                        .join()
                        .unwrap_or_else(|_| Err(Error::new("the library's build panicked")))
                });
                site.and(library)
            })?;
            installing.finish()?;
            if release {
                server::build(true)?;
            }
            if build == "run" {
                step("askdesk");
                let error = Command::new(settings.askdesk(true)).args(args).exec();
                return Err(Error::new(format!("target/release/askdesk: {error}")));
            }
            done
        }
        Some(suites) if ["test", "suite", "watch"].contains(&suites) => {
            check_environment()?;
            cleanup::on_signals()?;
            let names: Vec<String> = args
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            match suites {
                "test" => {
                    // Installing beside the suites before the wasm one,
                    // which waits for it (its own process: by the lock).
                    let installing = tools::start(settings)?;
                    let passed = runner::test(settings, &names)?;
                    installing.finish()?;
                    Ok(if passed {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::FAILURE
                    })
                }
                "suite" => runner::one(settings, names.first().map(String::as_str)).and(done),
                _ => watch::watch(settings, args).and(done),
            }
        }
        _ => {
            eprintln!("{}", usage());
            Ok(ExitCode::from(2))
        }
    }
}

fn tidy(other: Option<PathBuf>) -> ExitCode {
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

/// Runs CMD with `ASKDESK_TEST_POSTGRES` set: the one named already, or a
/// throwaway cluster, stopped when CMD ends. Exits as CMD does.
fn with_postgres(settings: &Settings, args: &[OsString]) -> Result<ExitCode> {
    let (program, rest) = args
        .split_first()
        .ok_or_else(|| Error::new("usage: cargo xtask with-postgres CMD [ARGS…]"))?;
    cleanup::on_signals()?;
    let cluster = match &settings.test_postgres {
        Some(_) => None,
        None => Some(postgres::start(&settings.root, settings.durable_postgres)?),
    };
    let mut command = Command::new(program);
    command.args(rest);
    if let Some(cluster) = &cluster {
        command.env("ASKDESK_TEST_POSTGRES", cluster.url());
    }
    let status = command
        .status()
        .map_err(|e| Error::new(format!("{}: {e}", program.to_string_lossy())))?;
    Ok(ExitCode::from(
        status.code().map_or(1, |c| u8::try_from(c).unwrap_or(1)),
    ))
}

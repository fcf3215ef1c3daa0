//! The test suites, by name, and what each runs. `cargo xtask test` runs
//! each in a process of its own (its `suite NAME`,
//! [`crate::runner`]); a suite's runners write their JUnit reports to
//! `target/test-logs/<suite>.xml`.

mod libtest;
mod servers;

use std::{path::PathBuf, process::Command};

use crate::{
    process::{run, Error, Result},
    settings::Settings,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    Fmt,
    Clippy,
    Unit,
    Wasm,
    E2e,
    Mcp,
    Multi,
    Contract,
    Tui,
}

/// Every suite, in the order `test` runs them.
pub const ALL: [Suite; 9] = [
    Suite::Fmt,
    Suite::Clippy,
    Suite::Unit,
    Suite::Wasm,
    Suite::E2e,
    Suite::Mcp,
    Suite::Multi,
    Suite::Contract,
    Suite::Tui,
];

/// Where a suite's counts come from.
pub enum Report {
    /// Its runners' JUnit XML, `target/test-logs/<suite>.xml`.
    Junit,
    /// libtest's console lines in its log: wasm-bindgen-test-runner
    /// writes no JUnit.
    Console,
    /// Nowhere: a check, not tests (fmt, clippy).
    None,
}

impl Suite {
    pub fn name(self) -> &'static str {
        match self {
            Suite::Fmt => "fmt",
            Suite::Clippy => "clippy",
            Suite::Unit => "unit",
            Suite::Wasm => "wasm",
            Suite::E2e => "e2e",
            Suite::Mcp => "mcp",
            Suite::Multi => "multi",
            Suite::Contract => "contract",
            Suite::Tui => "tui",
        }
    }

    /// The suite called `name`.
    pub fn parse(name: &str) -> Result<Suite> {
        ALL.into_iter().find(|s| s.name() == name).ok_or_else(|| {
            let names: Vec<&str> = ALL.iter().map(|s| s.name()).collect();
            Error::new(format!("unknown suite '{name}' ({})", names.join(" ")))
        })
    }

    /// The suites `names` names, in that order; every suite for none.
    pub fn parse_all(names: &[String]) -> Result<Vec<Suite>> {
        if names.is_empty() {
            return Ok(ALL.to_vec());
        }
        names.iter().map(|n| Suite::parse(n)).collect()
    }

    /// Whether its tests claim PostgreSQL (`ASKDESK_TEST_POSTGRES`): the
    /// desk on every store, two MCP instances on one database, and three
    /// servers on one.
    pub fn needs_postgres(self) -> bool {
        matches!(self, Suite::Unit | Suite::Mcp | Suite::Multi)
    }

    pub fn report(self) -> Report {
        match self {
            Suite::Fmt | Suite::Clippy => Report::None,
            Suite::Wasm => Report::Console,
            _ => Report::Junit,
        }
    }

    /// Its JUnit report, in `logs`.
    pub fn junit(self, settings: &Settings) -> PathBuf {
        settings.logs().join(format!("{}.xml", self.name()))
    }

    /// Runs the suite here, in this process.
    pub fn run(self, settings: &Settings) -> Result {
        match self {
            Suite::Fmt => run(Command::new("cargo").args(["fmt", "--all", "--check"])),
            Suite::Clippy => clippy(settings),
            Suite::Unit => unit(settings),
            Suite::Wasm => wasm(settings),
            Suite::E2e => servers::e2e(settings),
            Suite::Mcp => servers::mcp(settings),
            Suite::Multi => servers::multi(settings),
            Suite::Contract => servers::contract(settings),
            Suite::Tui => tui(settings),
        }
    }
}

fn clippy(settings: &Settings) -> Result {
    run(Command::new("cargo")
        .args([
            "clippy",
            "--workspace",
            "--exclude",
            "frontend",
            "--all-targets",
        ])
        .args(["--", "-D", "warnings"]))?;
    // The browser half: the entry crate with both pages' islands and the
    // hosted form.
    run(Command::new("cargo")
        .args([
            "clippy",
            "-p",
            "frontend",
            "-p",
            "askform",
            "-p",
            "app",
            "--features",
        ])
        .arg("frontend/ask,frontend/desk,frontend/hosted")
        .args(["--profile", "wasm-release"])
        .args(&settings.wasm_args)
        .args(["--", "-D", "warnings"]))
}

/// The vocabulary, the desk on every store (PostgreSQL included), the
/// router in-process; zsh and fish check the completion scripts
/// themselves.
fn unit(settings: &Settings) -> Result {
    let mut cargo = Command::new("cargo");
    cargo.args(["test", "--workspace", "--exclude", "frontend"]);
    libtest::junit(&mut cargo, &Suite::Unit.junit(settings))
}

/// `app`'s components in headless Chromium: wasm-bindgen-test-runner
/// drives it through ChromeDriver. Built with the ask island's features,
/// as the ask bundle builds them, so the dependencies are compiled once
/// for both.
fn wasm(settings: &Settings) -> Result {
    crate::tools::ready(settings)?;
    run(Command::new("cargo")
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
            "wasm-bindgen-test-runner",
        )
        .env("CHROMEDRIVER", &settings.chromedriver)
        .env(
            "WASM_BINDGEN_TEST_WEBDRIVER_JSON",
            settings.root.join("end2end/webdriver.json"),
        )
        .args([
            "test",
            "-p",
            "app",
            "--features",
            "ask-island",
            "--test",
            "browser",
        ])
        .args(["--profile", "wasm-release"])
        .args(&settings.wasm_args)
        // A test build would otherwise compile a second, unwinding std
        // beside the profile's one, and rustc sees two `core`s
        // ("duplicate lang item"); -Zpanic-abort-tests keeps one.
        .arg("-Zpanic-abort-tests"))
}

/// `askdesk tui` and `askdesk answer` in a real terminal: tmux sends keys
/// and reads the screen, keyless and connected to a real server. The tmux
/// tests are the ignored ones of the tui crate's one test binary.
fn tui(settings: &Settings) -> Result {
    crate::server::build(false)?;
    let mut cargo = Command::new("cargo");
    cargo.env("ASKDESK_BIN", settings.askdesk(false)).args([
        "test",
        "-p",
        "tui",
        "--test",
        "tui",
        "--",
        "--ignored",
    ]);
    libtest::junit(&mut cargo, &Suite::Tui.junit(settings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_are_parsed_by_name_in_the_order_given() {
        let names = ["e2e".to_owned(), "unit".to_owned()];
        assert_eq!(
            Suite::parse_all(&names).expect("known"),
            [Suite::E2e, Suite::Unit]
        );
        assert_eq!(Suite::parse_all(&[]).expect("all"), ALL);
        for suite in ALL {
            assert_eq!(Suite::parse(suite.name()).expect("its own name"), suite);
        }
    }

    #[test]
    fn an_unknown_suite_is_refused_with_the_valid_names() {
        let why = Suite::parse_all(&["unit".into(), "e2e2".into()])
            .expect_err("unknown")
            .to_string();
        assert_eq!(
            why,
            "unknown suite 'e2e2' (fmt clippy unit wasm e2e mcp multi contract tui)"
        );
    }
}

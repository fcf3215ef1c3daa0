//! The suites that test real servers from outside: Playwright in
//! Chromium, the Python MCP SDK, three instances on one PostgreSQL, and
//! schemathesis against the OpenAPI document.

use std::process::Command;

use super::Suite;
use crate::{
    budget,
    process::{run, TempDir},
    serve::{free_port, Output, Server},
    server,
    settings::Settings,
    site,
};

/// Playwright (`end2end/`) against a debug server with a fresh database,
/// after the bundle budget check.
pub fn e2e(settings: &Settings) -> crate::process::Result {
    server::build(false)?;
    site::build(settings)?;
    budget::check(settings)?;
    let dir = TempDir::new(&std::env::temp_dir(), "askdesk-e2e.")?;
    let (bin, site, logs) = (settings.askdesk(false), &settings.site, settings.logs());
    // The embedding tests serve host pages on two more loopback ports (a
    // real local origin: Chromium blocks public pages from framing
    // loopback ones); both may frame askdesk, only the first is told of
    // the outcome.
    let (host_port, other_port) = (free_port()?, free_port()?);
    let host = format!("http://127.0.0.1:{host_port}");
    let other = format!("http://127.0.0.1:{other_port}");
    let open = Server::start(
        Command::new(&bin)
            .args(["--addr", "127.0.0.1:0", "--database"])
            .arg(dir.path().join("askdesk.db"))
            .arg("--site-root")
            .arg(site)
            .args(["--frame-ancestors", &format!("'self' {host} {other}")])
            .args(["--embed-origin", &host])
            .args(["--web-push", "mailto:e2e@askdesk.test"]),
        Output::Dropped,
        Some(&logs.join("e2e-server.log")),
    )?;
    // A second desk, with a token: where a phone signs in by the desk's
    // one-time link (phone.spec.ts).
    let token = "e2e-desk-token-e2e-desk-token";
    let with_token = Server::start(
        Command::new(&bin)
            .args(["--addr", "127.0.0.1:0", "--database"])
            .arg(dir.path().join("token.db"))
            .arg("--site-root")
            .arg(site)
            .args(["--token", token]),
        Output::Dropped,
        Some(&logs.join("e2e-token-server.log")),
    )?;
    // oidc.spec.ts starts desks of its own (ASKDESK_BIN, SITE_ROOT) beside
    // a real OpenID provider (end2end/oidc/provider.mjs).
    run(Command::new("npx")
        .current_dir("end2end")
        .env("BASE_URL", open.url())
        .env("HOST_PORT", host_port.to_string())
        .env("OTHER_PORT", other_port.to_string())
        .env("CHROMIUM", &settings.chromium)
        .env("TOKEN_URL", with_token.url())
        .env("DESK_TOKEN", token)
        .env("ASKDESK_BIN", &bin)
        .env("SITE_ROOT", site)
        // The config's list reporter on the console, and JUnit for the
        // summary.
        .env("PLAYWRIGHT_JUNIT_OUTPUT_FILE", Suite::E2e.junit(settings))
        .args(["playwright", "test", "--reporter=list,junit"]))
}

/// pytest on `folder` with the tools' Python, its JUnit report in
/// `report`, and `extra` arguments.
fn pytest(settings: &Settings, suite: Suite, folder: &str, extra: &[&str]) -> Command {
    let mut pytest = Command::new(&settings.python);
    pytest
        .env("ASKDESK_BIN", settings.askdesk(false))
        .args(["-m", "pytest", folder, "-q", "-p", "no:cacheprovider"])
        .args(extra)
        .arg(format!("--junitxml={}", suite.junit(settings).display()));
    pytest
}

/// ask_user through the official Python MCP SDK, over HTTP and stdio,
/// against the debug server and the site (both built already by e2e when
/// both run); and one session across two instances on the test
/// PostgreSQL (the test makes its own schema).
pub fn mcp(settings: &Settings) -> crate::process::Result {
    server::build(false)?;
    // The servers the tests start serve it.
    site::build(settings)?;
    run(pytest(settings, Suite::Mcp, "end2end/mcp", &[]).env("ASKDESK_SITE_ROOT", &settings.site))
}

/// Three real askdesk processes on one PostgreSQL (the test makes its own
/// schema) acting as one desk while they are SIGKILLed, and restarted one
/// after another behind HAProxy.
pub fn multi(settings: &Settings) -> crate::process::Result {
    server::build(false)?;
    run(&mut pytest(
        settings,
        Suite::Multi,
        "end2end/multi",
        &["--durations=0"],
    ))
}

/// schemathesis against the API's own OpenAPI document, on the debug
/// server with a token: examples, coverage and a fuzzing phase bounded by
/// examples per operation (`end2end/contract/schemathesis.toml`). A fixed
/// seed keeps a run reproducible; `schemathesis … --seed <n>` replays
/// another.
pub fn contract(settings: &Settings) -> crate::process::Result {
    server::build(false)?;
    let token = "contract-token-0123456789";
    let server = Server::start(
        Command::new(settings.askdesk(false))
            .env("ASKDESK_TOKEN", token)
            .args(["--addr", "127.0.0.1:0", "--database", ":memory:"]),
        Output::Dropped,
        Some(&settings.logs().join("contract-server.log")),
    )?;
    let schemathesis = settings.python.with_file_name("schemathesis");
    run(Command::new(schemathesis)
        .env("ASKDESK_TOKEN", token)
        .args(["--config-file", "end2end/contract/schemathesis.toml", "run"])
        .arg(format!("{}/api/v1/openapi.json", server.url()))
        .args([
            "--seed",
            "20261130",
            "--report",
            "junit",
            "--report-junit-path",
        ])
        .arg(Suite::Contract.junit(settings)))
}

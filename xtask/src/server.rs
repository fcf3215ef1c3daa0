//! The `askdesk` binary, built by cargo: the debug one the suites and the
//! watch run, the release one `run` serves and the benchmarks measure
//! (which embeds the site, so the site is built first).

use std::process::Command;

use crate::process::{run, step, Result};

/// Builds `target/debug/askdesk`, or `target/release/askdesk`.
pub fn build(release: bool) -> Result {
    step(&format!(
        "server ({})",
        if release { "release" } else { "dev" }
    ));
    let mut cargo = Command::new("cargo");
    cargo.args(["build", "-p", "server", "--bin", "askdesk"]);
    if release {
        cargo.arg("--release");
    }
    run(&mut cargo)
}

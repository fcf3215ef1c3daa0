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

/// The release server's library and everything it depends on: all of the
/// release build but the binary, which embeds the site. It needs nothing
/// the site's build makes and takes another lock (cargo's release folder),
/// so it runs beside that build, filling the cores the bundles' link-time
/// optimisation and wasm-opt leave idle.
pub fn build_library() -> Result {
    step("server library (release), beside the site");
    run(Command::new("cargo").args(["build", "-p", "server", "--lib", "--release"]))
}

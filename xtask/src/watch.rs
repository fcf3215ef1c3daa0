//! `cargo xtask watch [ARGS…]`: serves a debug server and the watch's
//! site, rebuilds both when a watched file is saved, restarts the server
//! on the new build, and then tells every open page to reload (Leptos'
//! `<AutoReload>`, over `scripts/reload.mjs`). A build that fails leaves
//! the last server running and says why.

use std::{ffi::OsString, process::Command};

use crate::{
    cleanup::Guard,
    process::{run, shown, step, stop, terminate, Error, Result},
    serve::{Output, Server},
    server,
    settings::Settings,
    site,
};

/// What a save in these rebuilds: everything the server and the bundles
/// are made of.
const WATCHED: [&str; 14] = [
    "app",
    "askform",
    "client",
    "desk",
    "frontend",
    "interaction",
    "server/src",
    "agents/src",
    "notify/src",
    "style",
    "public",
    "scripts/wasm-module.mjs",
    "scripts/wasm-dead-exports.mjs",
    "Cargo.toml",
];

/// Watches until Ctrl-C (or a server that does not start).
pub fn watch(settings: &Settings, args: &[OsString]) -> Result {
    let port = &settings.reload_port;
    let mut reload = Command::new("node")
        .env("NODE_PATH", settings.node_modules())
        .arg("scripts/reload.mjs")
        .arg(port)
        .spawn()
        .map_err(|e| Error::new(format!("node scripts/reload.mjs: {e}")))?;
    let reload_pid = reload.id();
    let reload_guard = Guard::new(move || terminate(reload_pid));
    let site = settings.root.join("target/site-watch");
    let mut serving: Option<Server> = None;
    loop {
        let built = server::build(false).and_then(|()| site::build_for_watch(settings, &site));
        if let Err(why) = built {
            eprintln!("{why}");
            step("the build failed; still serving the last one");
        } else {
            // The last server goes before the new one takes its address.
            drop(serving.take());
            // LEPTOS_WATCH for the server alone: Leptos reads it at
            // compile time too, and builds with and without it would
            // rebuild each other.
            let mut askdesk = Command::new(settings.askdesk(false));
            askdesk
                .env("LEPTOS_WATCH", "1")
                .env("LEPTOS_RELOAD_PORT", port)
                .arg("--site-root")
                .arg(&site)
                .args(args);
            serving = Some(Server::start(&mut askdesk, Output::Shown, None)?);
            run(Command::new("kill").args(["-HUP", &reload_pid.to_string()]))?;
            step("serving; watching for changes (Ctrl-C stops)");
        }
        let mut wait = Command::new("inotifywait");
        wait.args(["-qq", "-r", "-e", "close_write,create,delete,move"])
            .args(WATCHED);
        if !wait.status().is_ok_and(|s| s.success()) {
            drop(serving);
            stop(&mut reload);
            reload_guard.disarm();
            return Err(Error::new(format!("`{}` stopped", shown(&wait))));
        }
    }
}

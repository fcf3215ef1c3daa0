//! Command line and environment configuration.

use clap::{Args, Parser, Subcommand};
use leptos::prelude::LeptosOptions;
use std::{net::SocketAddr, path::PathBuf};

/// askdesk: a desk where AI agents ask a human structured questions.
#[derive(Debug, Parser)]
#[command(name = "askdesk", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of `serve`, which also runs when no subcommand is given.
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// What askdesk should do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web pages and the API (the default).
    Serve(ServeArgs),
}

/// Options of the web server.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "ASKDESK_ADDR", default_value = "127.0.0.1:3000")]
    pub addr: SocketAddr,
    /// Folder holding the compiled site (the `pkg/` bundle, CSS and assets).
    #[arg(long, env = "ASKDESK_SITE_ROOT", default_value = "target/site")]
    pub site_root: PathBuf,
}

impl ServeArgs {
    /// The Leptos options these settings describe.
    pub fn leptos_options(&self) -> LeptosOptions {
        LeptosOptions::builder()
            // The hydration script links `/pkg/<output name>.js`; the name is
            // fixed at compile time by `.cargo/config.toml`.
            .output_name(env!("LEPTOS_OUTPUT_NAME"))
            .site_root(self.site_root.to_string_lossy().into_owned())
            .site_pkg_dir("pkg")
            .site_addr(self.addr)
            .build()
    }
}

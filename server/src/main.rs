use clap::Parser;
use desk::{Desk, SqliteStore};
use server::{
    app,
    config::{Cli, Command, Database, ServeArgs},
    AppState,
};
use std::{error::Error, process::ExitCode, sync::Arc};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Serve(args)) => serve(args).await,
        None => serve(cli.serve).await,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("askdesk: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(args: ServeArgs) -> Result<(), Box<dyn Error>> {
    // Check what can be checked before binding, so a refused setup never
    // listens, not even for a moment.
    args.security(args.addr)?;
    let database = args.database()?;
    let store = match &database {
        Database::Memory => SqliteStore::in_memory().await?,
        Database::File(path) => {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| {
                    format!(
                        "cannot create the database folder {}: {e}",
                        parent.display()
                    )
                })?;
            }
            SqliteStore::open(path)
                .await
                .map_err(|e| format!("cannot open the database {}: {e}", path.display()))?
        }
    };
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
    let addr = listener.local_addr()?;
    let security = args.security(addr)?;
    let state = AppState {
        leptos_options: args.leptos_options(),
        desk: Desk::new(store, security.public_url()),
        security: Arc::new(security),
    };
    match &database {
        Database::Memory => tracing::warn!("asks are kept in memory and lost when askdesk stops"),
        Database::File(path) => tracing::info!(database = %path.display(), "asks are stored"),
    }
    // The one line on stdout: scripts and people read the URL from it.
    println!("askdesk is serving on http://{addr}");
    if state.security.public_url() != format!("http://{addr}") {
        tracing::info!(
            public_url = state.security.public_url(),
            "links to asks use the public URL"
        );
    }
    axum::serve(listener, app(state))
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {},
            _ = term.recv() => {},
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

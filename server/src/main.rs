use clap::Parser;
use server::{
    config::{Cli, Command, ServeArgs},
    mcp,
    run::{self, StartError},
};
use std::process::ExitCode;
use tokio_util::sync::CancellationToken;
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
        Some(Command::Mcp(args)) => mcp::stdio::run(args).await,
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

async fn serve(args: ServeArgs) -> Result<(), StartError> {
    let shutdown = CancellationToken::new();
    let started = run::start(&args, shutdown.clone()).await?;
    // The one line on stdout: scripts and people read the URL from it.
    println!("askdesk is serving on http://{}", started.addr);
    let mut task = started.task;
    tokio::select! {
        () = shutdown_signal() => {
            shutdown.cancel();
            task.await??;
        }
        // The server stopped by itself: an error to report.
        result = &mut task => result??,
    }
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

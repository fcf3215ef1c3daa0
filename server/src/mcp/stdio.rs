//! `askdesk mcp`: MCP over stdin/stdout for clients that launch a process.
//!
//! It uses the askdesk server at `--url` (`ASKDESK_URL`); if nothing
//! answers there and the address is on this machine, it starts a server
//! in-process on that address, so a first-time user needs nothing else.
//! Only protocol messages go to stdout; logs go to stderr.

use super::{AskDesk, Backend};
use crate::{config::McpArgs, run};
use axum::http::Uri;
use rmcp::ServiceExt;
use std::net::{SocketAddr, ToSocketAddrs};
use tokio_util::sync::CancellationToken;

/// The desk at `args.url`, or, when nothing answers there and the address
/// is on this machine, one started in this process until `shutdown`.
pub async fn find_desk(
    args: &McpArgs,
    shutdown: CancellationToken,
) -> Result<Backend, run::StartError> {
    let remote = client::Client::builder(&args.url)
        .token(args.serve.token.clone())
        .ca_cert(args.ca_cert.clone())
        .build()
        .map_err(|e| format!("--url {}: {e}", args.url))?;
    if remote.is_up().await {
        tracing::info!(url = %args.url, "using the askdesk server there");
        return Ok(Backend::Remote(remote));
    }
    let mut serve = args.serve.clone();
    serve.addr = loopback_addr(&args.url)?;
    let started = run::start(&serve, shutdown).await?;
    tracing::info!(
        "no askdesk answered at {}; serving one here on http://{}",
        args.url,
        started.addr
    );
    Ok(Backend::Local(started.desk))
}

/// Serves MCP on stdio until the client closes stdin.
pub async fn run(args: McpArgs) -> Result<(), run::StartError> {
    let shutdown = CancellationToken::new();
    let backend = find_desk(&args, shutdown.clone()).await?;
    let handler = AskDesk::new(backend, args.serve.mcp_default_timeout);
    let service = handler
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| format!("MCP on stdio failed to start: {e}"))?;
    let quit = service.waiting().await;
    shutdown.cancel();
    tracing::info!("MCP client left: {quit:?}");
    Ok(())
}

/// The socket address of `url`, which must be on this machine: askdesk
/// starts its own server only where nobody else can reach it.
fn loopback_addr(url: &str) -> Result<SocketAddr, run::StartError> {
    let uri: Uri = url
        .parse()
        .map_err(|e| format!("ASKDESK_URL {url:?} is not a URL: {e}"))?;
    // A server of our own speaks plain HTTP: it cannot stand in for https.
    if uri.scheme_str() == Some("https") {
        return Err(format!(
            "nothing answers at {url}, and askdesk cannot start a server of its own there \
             (it would speak http, not https); start askdesk there or fix ASKDESK_URL"
        )
        .into());
    }
    let host = uri.host().unwrap_or_default().trim_matches(['[', ']']);
    let port = uri.port_u16().unwrap_or(80);
    let addr = (host, port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut addrs| addrs.find(|a| a.ip().is_loopback()))
        .ok_or_else(|| {
            format!(
                "nothing answers at {url}, and askdesk only starts a server of its own on this \
                 machine (127.0.0.1 or localhost); start askdesk there or fix ASKDESK_URL"
            )
        })?;
    Ok(addr)
}

//! `askdesk mcp`: MCP over stdin/stdout for clients that launch a process.
//!
//! It uses the askdesk server at `--url` (`ASKDESK_URL`); if nothing
//! answers there and the address is on this machine, it starts one there
//! (`agents::detached`), which keeps serving after this client leaves, so
//! a first-time user needs nothing else. Only protocol messages go to
//! stdout; logs go to stderr.

use crate::cli::{
    config::{DeskArgs, Site},
    run,
};
use agents::{
    detached,
    mcp::{hosted, AskDesk},
};
use anyhow::Context;
use rmcp::ServiceExt;

/// Serves MCP on stdio until the client closes stdin.
pub async fn run(args: DeskArgs) -> Result<(), run::StartError> {
    let backend = detached::find_desk(&args.place()).await?;
    // The form's document for hosts that show MCP Apps, from this binary's
    // own site (or --site-root), read when a host first asks for it.
    let site = Site::at(args.serve.site_root.clone());
    let view = hosted::View::reading(move || match site.open() {
        Ok(assets) => Some(std::sync::Arc::new(assets) as std::sync::Arc<dyn hosted::SiteFiles>),
        Err(e) => {
            tracing::warn!("no form for hosts that show MCP Apps: {e}");
            None
        }
    });
    let handler = AskDesk::new(backend, args.serve.mcp_default_timeout)
        .eliciting(args.serve.elicit)
        .showing(view)
        // Claude Code's channel: its permission prompts at the desk too.
        .channeling()
        .context("no randomness for the session's name")?;
    let service = handler
        .serve(rmcp::transport::stdio())
        .await
        .context("MCP on stdio failed to start")?;
    let quit = service.waiting().await;
    tracing::info!("MCP client left: {quit:?}");
    Ok(())
}

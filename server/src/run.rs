//! Starting a server: open the store, check the settings, bind, serve until
//! told to stop. `askdesk serve` and `askdesk mcp` (when it has to start a
//! server of its own) both go through [`start`].

use crate::{
    app,
    config::{Database, ServeArgs},
    AppState,
};
use axum::serve::ListenerExt;
use desk::{Desk, PoolSettings, PostgresStore, SqliteStore, Store};
use std::{error::Error, net::SocketAddr, sync::Arc};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// Why a server could not start.
pub type StartError = Box<dyn Error + Send + Sync>;

/// A server that is serving.
pub struct Started {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Its asks, for in-process callers.
    pub desk: Desk,
    /// Ends when the server has stopped.
    pub task: JoinHandle<std::io::Result<()>>,
}

/// Opens the store the settings name.
pub async fn open_store(args: &ServeArgs) -> Result<(Arc<dyn Store>, Database), StartError> {
    let database = args.database()?;
    let store: Arc<dyn Store> = match &database {
        Database::Memory => Arc::new(SqliteStore::in_memory().await?),
        Database::File(path) => {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| {
                    format!(
                        "cannot create the database folder {}: {e}",
                        parent.display()
                    )
                })?;
            }
            Arc::new(
                SqliteStore::open(path)
                    .await
                    .map_err(|e| format!("cannot open the database {}: {e}", path.display()))?,
            )
        }
        Database::Postgres(url) => {
            let settings = PoolSettings {
                max_connections: args.database_connections.max(1),
                acquire_timeout: std::time::Duration::from_secs(args.database_timeout.max(1)),
            };
            Arc::new(
                PostgresStore::connect(url, settings)
                    .await
                    .map_err(|e| format!("cannot open the database {database}: {e}"))?,
            )
        }
    };
    Ok((store, database))
}

/// Prepares an accepted connection. Without `TCP_NODELAY`, a response
/// written in pieces on a kept-alive connection waits for the client's
/// delayed ACK (Nagle's algorithm): about 40 ms for every asset after the
/// first.
pub fn accepted(tcp: &mut tokio::net::TcpStream) {
    if let Err(e) = tcp.set_nodelay(true) {
        tracing::debug!("TCP_NODELAY not set on a connection: {e}");
    }
}

/// Checks the settings, opens the store, binds and serves until `shutdown`
/// is cancelled. Nothing listens if a check fails.
pub async fn start(args: &ServeArgs, shutdown: CancellationToken) -> Result<Started, StartError> {
    args.security(args.addr)?;
    let assets = args.assets()?;
    if assets.is_empty() {
        tracing::warn!(
            "this askdesk was built without its site: pages work, but without JavaScript \
             (build with scripts/dev.sh, or pass --site-root)"
        );
    }
    let page = args.page_config(&assets)?;
    let (store, database) = open_store(args).await?;
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
    let addr = listener.local_addr()?;
    let security = args.security(addr)?;
    let desk = Desk::new(store, security.public_url());
    let state = AppState {
        leptos_options: args.leptos_options(assets.bundle()),
        assets: Arc::new(assets),
        desk: desk.clone(),
        security: Arc::new(security),
        mcp_default_timeout: args.mcp_default_timeout,
        shutdown: shutdown.clone(),
        page,
    };
    match &database {
        Database::Memory => tracing::warn!("asks are kept in memory and lost when askdesk stops"),
        Database::File(_) | Database::Postgres(_) => {
            tracing::info!(database = %database, "asks are stored")
        }
    }
    if state.security.public_url() != format!("http://{addr}") {
        tracing::info!(
            public_url = state.security.public_url(),
            "links to asks use the public URL"
        );
    }
    // Asks expire when their time is up, not when someone next looks:
    // waiting pages and agents hear of it at once.
    let sweeper = desk.clone();
    let stop = shutdown.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                _ = tick.tick() => {
                    if let Err(e) = sweeper.expire_due().await {
                        tracing::warn!("expiring asks failed: {e}");
                    }
                }
            }
        }
    });
    let task = tokio::spawn(async move {
        axum::serve(listener.tap_io(accepted), app(state))
            .with_graceful_shutdown(async move { shutdown.cancelled().await })
            .await
    });
    Ok(Started { addr, desk, task })
}

//! Starting a server: open the store, check the settings, bind, serve until
//! told to stop. `askdesk serve` and `askdesk mcp` (when it has to start a
//! server of its own) both go through [`start`].

use crate::{
    app,
    cli::config::{Database, ServeSettings},
    http::tls::{Certificates, Tls},
    AppState, Shared,
};
use anyhow::{anyhow, Context};
use desk::{Desk, PoolSettings, PostgresStore, SqliteStore, Store};
use std::{net::SocketAddr, sync::Arc};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// Why a server (or another command) could not start: a message with
/// its causes, printed as `{:#}` ("cannot open …: permission denied").
pub type StartError = anyhow::Error;

/// A server that is serving.
pub struct Started {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Its asks, for in-process callers.
    pub desk: Desk,
    /// Ends when the server has stopped.
    pub task: JoinHandle<()>,
    /// The certificate it serves, when it serves https.
    pub tls: Option<Arc<Certificates>>,
    /// What each client address holds of it now (connections, waits).
    pub limits: crate::http::crowding::Limits,
    /// Cancel to say the server is about to stop (`/readyz` 503).
    pub draining: CancellationToken,
}

impl Started {
    /// Where it answers on its own address: `https://…` or `http://…`.
    pub fn url(&self) -> String {
        let scheme = if self.tls.is_some() { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }
}

/// The store the settings name, opened.
pub struct Opened {
    /// Where asks are kept.
    pub store: Arc<dyn Store>,
    /// Which database it is.
    pub database: Database,
    /// PostgreSQL's store again, to hear other instances' changes through.
    pub shared: Option<PostgresStore>,
}

/// Opens `database` (without claiming a SQLite file: `askdesk people` works
/// beside the server using it).
pub async fn open_database(
    database: Database,
    settings: PoolSettings,
) -> Result<Opened, StartError> {
    let mut shared = None;
    let store: Arc<dyn Store> = match &database {
        Database::Memory => Arc::new(SqliteStore::in_memory().await?),
        Database::File(path) => {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).with_context(|| {
                    format!("cannot create the database folder {}", parent.display())
                })?;
            }
            Arc::new(
                SqliteStore::open(path)
                    .await
                    .with_context(|| format!("cannot open the database {}", path.display()))?,
            )
        }
        Database::Postgres(url) => {
            let store = PostgresStore::connect(url, settings)
                .await
                .with_context(|| format!("cannot open the database {database}"))?;
            shared = Some(store.clone());
            Arc::new(store)
        }
    };
    Ok(Opened {
        store,
        database,
        shared,
    })
}

/// Opens the store, binds and serves with `settings` until `shutdown` is
/// cancelled. Nothing listens if a step fails. The steps: the site,
/// certificate and database opened, the listener bound, the desk opened
/// on it, the workers spawned, and the server serving.
pub async fn start(
    settings: ServeSettings,
    shutdown: CancellationToken,
) -> Result<Started, StartError> {
    let tls = settings.tls.clone().map(Tls::open).transpose()?;
    let assets = site(&settings)?;
    let mut page = settings.page.config(&assets);
    // One server per SQLite file (`claim`).
    let mut claim = match &settings.database {
        Database::File(path) => Some(desk::Claim::take(path)?),
        Database::Memory | Database::Postgres(_) => None,
    };
    let opened = open_database(settings.database.clone(), settings.pool).await?;
    let changes = listen(&opened).await?;
    let listener = tokio::net::TcpListener::bind(settings.addr)
        .await
        .with_context(|| format!("cannot listen on {}", settings.addr))?;
    let addr = listener.local_addr()?;
    if let Some(claim) = &mut claim {
        claim.announce(&settings.own_url(addr));
    }
    let security = settings.security(addr);
    let desk = open_desk(&settings, &opened, security.public_url()).await?;
    let push = match &settings.web_push {
        Some(contact) => Some(Arc::new(
            notify::webpush::WebPush::open(&desk, contact)
                .await
                .context("--web-push")?
                .with_code(page.bundle(app::Bundle::Ask)),
        )),
        None => None,
    };
    let oidc =
        crate::oidc::Oidc::open(settings.oidc.as_ref(), security.public_url(), &desk).await?;
    page.sign_in_with = oidc.as_ref().map(|oidc| oidc.name().to_owned());
    let oauth = settings.oauth.server(security.public_url());
    // Cancelled with `shutdown`, or before it by the stop signal.
    let draining = shutdown.child_token();
    let state = AppState::new(Shared {
        leptos_options: settings.leptos_options(),
        assets: Arc::new(assets),
        desk: desk.clone(),
        security: Arc::new(security),
        mcp_default_timeout: settings.mcp_default_timeout,
        mcp_elicit: settings.elicit,
        instances: opened.shared,
        shutdown: shutdown.clone(),
        draining: draining.clone(),
        page,
        slack_signing_secret: settings.slack_signing_secret.clone(),
        push,
        create_limit: settings
            .create_limit
            .map(|n| Arc::new(crate::http::limit::CreateLimit::new(n))),
        oidc: oidc.map(Arc::new),
        oauth,
        connector_call_limit: settings.oauth.call_limit,
    });
    if state.security.public_url() != settings.own_url(addr) {
        tracing::info!(
            public_url = state.security.public_url(),
            "links to asks use the public URL"
        );
    }
    serve_metrics(&settings, &desk, &shutdown).await?;
    let limits = settings.limits.clone();
    spawn_workers(&desk, settings, state.push.clone(), changes, &shutdown);
    raise_open_files();
    let acceptor = tls.as_ref().map(Tls::acceptor);
    let certificates = tls.as_ref().map(Tls::certificates);
    if let Some(tls) = tls {
        tokio::spawn(tls.follow_renewals(shutdown.clone()));
    }
    let served_limits = limits.clone();
    let task = tokio::spawn(async move {
        crate::http::serving::serve(listener, app(state), acceptor, served_limits, shutdown).await;
        // The file is free for another server once this one has stopped.
        drop(claim);
    });
    Ok(Started {
        addr,
        desk,
        task,
        tls: certificates,
        limits,
        draining,
    })
}

/// `/metrics` on `--metrics-addr` too, without a token, and the metrics'
/// upkeep. It answers to the hosts the main address does, and to its own
/// address.
async fn serve_metrics(
    settings: &ServeSettings,
    desk: &Desk,
    shutdown: &CancellationToken,
) -> Result<(), StartError> {
    tokio::spawn(crate::metrics::upkeep(shutdown.clone()));
    if let Some(addr) = settings.metrics_addr {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("--metrics-addr: cannot listen on {addr}"))?;
        let bound = listener.local_addr()?;
        let security = Arc::new(settings.security(bound));
        let router = crate::metrics::open_routes(desk.clone(), security);
        crate::metrics::serve_open(listener, router, shutdown.clone());
        tracing::info!(addr = %bound, "/metrics is served here without a token");
    }
    Ok(())
}

/// The site's files, with a warning when this build has none.
fn site(settings: &ServeSettings) -> Result<crate::http::assets::Assets, StartError> {
    let assets = settings.site.open()?;
    if assets.is_empty() {
        tracing::warn!(
            "this askdesk was built without its site: pages work, but without JavaScript \
             (build with scripts/dev.sh, or pass --site-root)"
        );
    }
    Ok(assets)
}

/// What other instances create and finish, heard through PostgreSQL:
/// several instances on one database are one desk.
async fn listen(opened: &Opened) -> Result<Option<desk::Changes>, StartError> {
    let Some(shared) = &opened.shared else {
        return Ok(None);
    };
    let changes = shared
        .changes()
        .await
        .with_context(|| format!("cannot listen to the database {}", opened.database))?;
    Ok(Some(changes))
}

/// The desk on the opened store, with the settings' rules, after checking
/// that someone could answer on it; says where asks are kept and who may
/// answer.
async fn open_desk(
    settings: &ServeSettings,
    opened: &Opened,
    public_url: &str,
) -> Result<Desk, StartError> {
    let database = &opened.database;
    let unreadable = || format!("cannot read the database {database}");
    let desk = Desk::open(opened.store.clone(), public_url)
        .await
        .with_context(unreadable)?
        .notifying(settings.channels.names())
        .reminding(settings.channels.reminders())
        .answering_by_link(settings.link_answers)
        .keeping_finished(settings.keep_finished);
    if settings.sign_in_needs_people && !desk.has_people_lately().await.with_context(unreadable)? {
        return Err(anyhow!(
            "--answer-requires-sign-in: nobody could sign in to answer; set --token, \
             or add people first (askdesk people add NAME)"
        ));
    }
    announce_link_rule(&desk).await.with_context(unreadable)?;
    match database {
        Database::Memory => tracing::warn!("asks are kept in memory and lost when askdesk stops"),
        Database::File(_) | Database::Postgres(_) => {
            tracing::info!(database = %database, "asks are stored")
        }
    }
    Ok(if settings.channels.pushes() {
        desk.pushing(notify::WEB_PUSH)
    } else {
        desk
    })
}

/// The server's own tasks, each until `shutdown`: following other
/// instances' changes, delivering notifications, expiring asks and
/// forgetting old events every second, and `--keep-finished`'s retention.
fn spawn_workers(
    desk: &Desk,
    settings: ServeSettings,
    push: Option<Arc<notify::webpush::WebPush>>,
    changes: Option<desk::Changes>,
    shutdown: &CancellationToken,
) {
    if let Some(changes) = changes {
        let follower = desk.clone();
        let stop = shutdown.clone();
        tokio::spawn(async move {
            tokio::select! {
                () = stop.cancelled() => {}
                () = follower.follow(changes) => {}
            }
        });
    }
    let channels = settings.channels;
    if !channels.is_empty() {
        tracing::info!(channels = ?channels.names(), "notifications go to these channels");
        tokio::spawn(notify::run(
            desk.clone(),
            channels.with_push(push),
            shutdown.clone(),
        ));
    }
    // Asks expire when their time is up, not when someone next looks:
    // waiting pages and agents hear of it at once.
    // Events beyond the newest `keep_events` are forgotten as they age out.
    let sweeper = desk.clone();
    let keep_events = settings.keep_events;
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
                    if let Err(e) = sweeper.prune_events(keep_events).await {
                        tracing::warn!("forgetting old events failed: {e}");
                    }
                }
            }
        }
    });
    if let Some(keep) = settings.keep_finished {
        tokio::spawn(
            desk.clone()
                .keep_removing_old(keep, shutdown.clone().cancelled_owned()),
        );
    }
}

/// Says in the log who may answer on this desk, and why (README, "Who
/// may answer").
async fn announce_link_rule(desk: &Desk) -> Result<(), desk::DeskError> {
    match desk.link_answers() {
        desk::LinkAnswers::Never => {
            tracing::info!("only signed-in people and admins answer (--answer-requires-sign-in)")
        }
        desk::LinkAnswers::Always => {
            tracing::info!("an ask's link answers it, also with people (--answer-by-link)")
        }
        desk::LinkAnswers::WithoutPeople if desk.has_people_lately().await? => tracing::info!(
            "this desk has people: signed-in people and notifications' buttons answer, an \
             ask's link alone does not (--answer-by-link changes that)"
        ),
        desk::LinkAnswers::WithoutPeople => {
            tracing::info!("this desk has no people: an ask's link answers it")
        }
    }
    Ok(())
}

/// Raises the process's open-file limit to its hard limit: each
/// connection (and each waiting request) holds a descriptor, and the soft
/// limit is often far below what the system allows; what one address may
/// hold is `--max-connections-per-address`'s to bound.
fn raise_open_files() {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
        let limit = getrlimit(Resource::Nofile);
        if limit.current < limit.maximum {
            let raised = Rlimit {
                current: limit.maximum,
                maximum: limit.maximum,
            };
            if let Err(e) = setrlimit(Resource::Nofile, raised) {
                tracing::debug!("the open-file limit stays {:?}: {e}", limit.current);
            }
        }
    }
}

#[cfg(test)]
mod tests;

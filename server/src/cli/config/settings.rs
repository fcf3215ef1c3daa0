//! `serve`'s settings: every flag checked once, before anything is read,
//! opened or bound, into the [`ServeSettings`] that [`start`] runs with.
//! The pure step between the command line and the server (ripgrep's
//! `LowArgs` → `HiArgs`), tested without either: nothing after it reads a
//! flag.
//!
//! [`start`]: crate::cli::run::start

mod access;

pub use access::Access;

use super::{database_at, ConfigError, Database, OidcArgs, ServeArgs};
use crate::http::{assets::Assets, crowding::Limits, security::Security, tls::TlsFiles};
use desk::{LinkAnswers, PoolSettings};
use leptos::prelude::LeptosOptions;
use notify::{ChannelSettings, Channels};
use std::{net::SocketAddr, path::PathBuf, sync::Arc, time::Duration};

/// Leptos' live-reload port when `LEPTOS_RELOAD_PORT` names none.
const DEFAULT_RELOAD_PORT: u32 = 3001;

/// What `serve` runs with, checked.
pub struct ServeSettings {
    /// Where to listen (`--addr`).
    pub addr: SocketAddr,
    /// The certificate and key to serve https with (read when opened).
    pub tls: Option<TlsFiles>,
    /// Where asks are stored.
    pub database: Database,
    /// The database's connections.
    pub pool: PoolSettings,
    /// Where notifications go.
    pub channels: Channels,
    /// When an ask's link alone answers.
    pub link_answers: LinkAnswers,
    /// What one client address may hold of the server.
    pub limits: Limits,
    /// `--answer-requires-sign-in` without a token: the desk starts only
    /// if it has people to sign in (asked once the database is open).
    pub sign_in_needs_people: bool,
    /// Where the site's files come from.
    pub site: Site,
    /// What the pages are told of these settings.
    pub page: PageSettings,
    /// `--web-push`'s contact: the server pushes to browsers as it.
    pub web_push: Option<String>,
    /// The identity provider people sign in with (`--oidc-issuer`).
    pub oidc: Option<crate::oidc::Provider>,
    /// askdesk as the OAuth authorization server of `/mcp`.
    pub oauth: super::OAuthSettings,
    /// How long MCP asks without their own timeout wait, in seconds.
    pub mcp_default_timeout: Option<u64>,
    /// Whether `ask_user` also asks in the MCP client's own UI.
    pub elicit: bool,
    /// Slack's signing secret, when one is set.
    pub slack_signing_secret: Option<Arc<str>>,
    /// How many asks each agent may create a minute.
    pub create_limit: Option<u32>,
    /// Where `/metrics` is also served, without a token.
    pub metrics_addr: Option<SocketAddr>,
    /// How many of the newest events the database keeps.
    pub keep_events: u64,
    /// How long finished asks are kept (`None`: for ever).
    pub keep_finished: Option<Duration>,
    /// How long `/readyz` says 503 before a stop.
    pub shutdown_grace: Duration,
    access: Access,
}

/// Where the site's files come from: the copy built into the binary, or
/// `--site-root`'s folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Site {
    /// The files built in (none in a build without its site).
    Built,
    /// A folder laid out as `target/site`.
    Folder(PathBuf),
}

/// What the pages need of the settings, checked.
pub struct PageSettings {
    /// `--frame-ancestors`: CSP sources separated by spaces.
    frame_ancestors: String,
    embed_origin: Option<String>,
    web_push: bool,
    live_reload: Option<u16>,
}

impl ServeSettings {
    /// The settings `args` describe, or the first flag that cannot be.
    pub fn check(args: ServeArgs) -> Result<Self, ConfigError> {
        Ok(Self {
            tls: tls(&args)?,
            database: database_at(args.database.as_deref())?,
            pool: pool(&args),
            channels: channels(&args)?,
            link_answers: link_answers(&args),
            limits: Limits::new(
                Duration::from_secs(args.header_timeout),
                args.max_connections_per_address,
                args.max_waits_per_address,
            ),
            sign_in_needs_people: args.answer_requires_sign_in && args.token.is_none(),
            access: Access::check(&args)?,
            site: Site::at(args.site_root.clone()),
            page: PageSettings::check(&args)?,
            oidc: oidc(&args.oidc)?,
            oauth: super::OAuthSettings::check(&args.oauth)?,
            addr: args.addr,
            web_push: args.web_push,
            mcp_default_timeout: args.mcp_default_timeout,
            elicit: args.elicit,
            slack_signing_secret: args
                .slack_signing_secret
                .filter(|s| !s.is_empty())
                .map(Arc::from),
            create_limit: args.create_limit,
            metrics_addr: args.metrics_addr,
            keep_events: args.keep_events,
            keep_finished: args.keep_finished,
            shutdown_grace: Duration::from_secs(args.shutdown_grace),
        })
    }

    /// Where a server bound to `bound` answers on its own address.
    pub fn own_url(&self, bound: SocketAddr) -> String {
        self.access.own_url(bound)
    }

    /// The security of a server bound to `bound` (its port may differ from
    /// `--addr`'s when that asked for port 0).
    pub fn security(&self, bound: SocketAddr) -> Security {
        self.access.security(bound)
    }

    /// The Leptos options of a server on `--addr`.
    pub fn leptos_options(&self) -> LeptosOptions {
        LeptosOptions::builder()
            .output_name(env!("LEPTOS_OUTPUT_NAME"))
            .site_pkg_dir("pkg")
            .site_addr(self.addr)
            .reload_port(self.page.live_reload.map_or(DEFAULT_RELOAD_PORT, u32::from))
            .build()
    }
}

impl Site {
    /// `--site-root`'s folder, or the files built in.
    pub fn at(root: Option<PathBuf>) -> Self {
        root.map_or(Self::Built, Self::Folder)
    }

    /// The site's files, read.
    pub fn open(&self) -> Result<Assets, ConfigError> {
        match self {
            Self::Folder(root) => Assets::from_dir(root).map_err(|e| {
                ConfigError::new(format!(
                    "--site-root {}: cannot read the site: {e}",
                    root.display()
                ))
            }),
            Self::Built => Ok(Assets::embedded()),
        }
    }
}

impl PageSettings {
    fn check(args: &ServeArgs) -> Result<Self, ConfigError> {
        let unsafe_source = args
            .frame_ancestors
            .split_whitespace()
            .any(|s| s.contains(';') || s.contains(','));
        if unsafe_source || args.frame_ancestors.trim().is_empty() {
            return Err(ConfigError::new(format!(
                "--frame-ancestors {:?}: give CSP sources separated by spaces, e.g. \
                 \"'self' https://dashboard.example.com\"",
                args.frame_ancestors
            )));
        }
        Ok(Self {
            frame_ancestors: args.frame_ancestors.trim().to_owned(),
            embed_origin: args.embed_origin.clone(),
            web_push: args.web_push.is_some(),
            live_reload: live_reload().and_then(|port| u16::try_from(port).ok()),
        })
    }

    /// What the pages are told, with the names `assets` serves its
    /// stylesheet and bundles by.
    pub fn config(&self, assets: &Assets) -> app::PageConfig {
        let mut config = app::PageConfig {
            frame_ancestors: self.frame_ancestors.clone(),
            embed_origin: self.embed_origin.clone(),
            web_push: self.web_push,
            live_reload: self.live_reload,
            ..app::PageConfig::default()
        };
        if let Some(stylesheet) = assets.stylesheet() {
            config.stylesheet = stylesheet.to_owned();
        }
        // A watch reloads the linked stylesheet in place.
        if self.live_reload.is_none() {
            config.inline_style = assets.inline_style().cloned();
        }
        for bundle in app::Bundle::ALL {
            if let Some(path) = assets.bundle(bundle) {
                config.bundles[bundle as usize] = path.to_owned();
            }
        }
        if assets.is_cargo_leptos() {
            config.loader = app::Loader::Leptos;
        }
        config
    }
}

/// The live-reload port while a watch runs this server: cargo-leptos and
/// `cargo xtask watch` set `LEPTOS_WATCH` (and `LEPTOS_RELOAD_PORT`),
/// and Leptos' `<AutoReload>` reads the first itself.
fn live_reload() -> Option<u32> {
    std::env::var_os("LEPTOS_WATCH")?;
    Some(
        std::env::var("LEPTOS_RELOAD_PORT")
            .ok()
            .and_then(|port| port.parse().ok())
            .unwrap_or(DEFAULT_RELOAD_PORT),
    )
}

/// The channels `--notify` names, refusing a value askdesk cannot use
/// (naming it, without its path or query) or a webhook without
/// `--notify-secret`.
pub fn channels(args: &ServeArgs) -> Result<Channels, ConfigError> {
    Channels::from_settings(&ChannelSettings {
        notify: &args.notify,
        notify_secret: args.notify_secret.as_deref(),
        web_push: args.web_push.as_deref(),
        slack_signing_secret: args.slack_signing_secret.as_deref(),
        remind_after: args.remind_after,
        remind_max: args.remind_max,
        escalate_after: args.escalate_after,
        escalate: args.escalate.as_deref(),
        notify_give_up: args.notify_give_up,
    })
    .map_err(|e| ConfigError::new(e.to_string()))
}

/// When an ask's link alone answers: `--answer-by-link`,
/// `--answer-requires-sign-in`, or the default (while the desk has no
/// people).
fn link_answers(args: &ServeArgs) -> LinkAnswers {
    match (args.answer_by_link, args.answer_requires_sign_in) {
        (_, true) => LinkAnswers::Never,
        (true, false) => LinkAnswers::Always,
        (false, false) => LinkAnswers::WithoutPeople,
    }
}

/// The database's connections: at least one, waited for at least a
/// second.
fn pool(args: &ServeArgs) -> PoolSettings {
    PoolSettings {
        max_connections: args.database_connections.max(1),
        acquire_timeout: Duration::from_secs(args.database_timeout.max(1)),
    }
}

/// The certificate and key to serve https with, when both are given; one
/// without the other is refused.
fn tls(args: &ServeArgs) -> Result<Option<TlsFiles>, ConfigError> {
    match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Ok(Some(TlsFiles {
            cert: cert.clone(),
            key: key.clone(),
        })),
        (None, None) => Ok(None),
        (Some(_), None) => Err(ConfigError::new(
            "--tls-cert needs --tls-key (ASKDESK_TLS_KEY): the certificate's private key, PEM"
                .to_owned(),
        )),
        (None, Some(_)) => Err(ConfigError::new(
            "--tls-key needs --tls-cert (ASKDESK_TLS_CERT): the certificate it is the key of, PEM"
                .to_owned(),
        )),
    }
}

/// The identity provider `--oidc-issuer` and its client name, with the
/// client's secret read.
fn oidc(args: &OidcArgs) -> Result<Option<crate::oidc::Provider>, ConfigError> {
    args.provider()
        .map_err(|e| ConfigError::new(format!("{e:#}")))
}

#[cfg(test)]
mod tests;

//! What the server's settings make: the site's files and the page's
//! settings, the database, the security checks, and the command line that
//! starts another process with the same settings (a detached desk).

use super::{database_at, ConfigError, Database, ServeArgs};
use crate::http::{assets::Assets, security::Security, tls::TlsFiles};
use leptos::prelude::LeptosOptions;
use notify::{ChannelSettings, Channels};
use std::net::SocketAddr;

/// Leptos' live-reload port when `LEPTOS_RELOAD_PORT` names none.
const DEFAULT_RELOAD_PORT: u32 = 3001;

/// The live-reload port while a watch runs this server: cargo-leptos and
/// `scripts/dev.sh watch` set `LEPTOS_WATCH` (and `LEPTOS_RELOAD_PORT`),
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

impl ServeArgs {
    /// The channels `--notify` names, refusing a value askdesk cannot use
    /// (naming it, without its path or query) or a webhook without
    /// `--notify-secret`.
    pub fn channels(&self) -> Result<Channels, ConfigError> {
        Channels::from_settings(&ChannelSettings {
            notify: &self.notify,
            notify_secret: self.notify_secret.as_deref(),
            web_push: self.web_push.as_deref(),
            slack_signing_secret: self.slack_signing_secret.as_deref(),
            remind_after: self.remind_after,
            remind_max: self.remind_max,
            escalate_after: self.escalate_after,
            escalate: self.escalate.as_deref(),
            notify_give_up: self.notify_give_up,
        })
        .map_err(|e| ConfigError::new(e.to_string()))
    }

    /// The Leptos options these settings describe.
    pub fn leptos_options(&self) -> LeptosOptions {
        LeptosOptions::builder()
            .output_name(env!("LEPTOS_OUTPUT_NAME"))
            .site_pkg_dir("pkg")
            .site_addr(self.addr)
            .reload_port(live_reload().unwrap_or(DEFAULT_RELOAD_PORT))
            .build()
    }

    /// The site's files: the folder of --site-root, or the copy built in.
    pub fn assets(&self) -> Result<Assets, ConfigError> {
        match &self.site_root {
            Some(root) => Assets::from_dir(root).map_err(|e| {
                ConfigError(format!(
                    "--site-root {}: cannot read the site: {e}",
                    root.display()
                ))
            }),
            None => Ok(Assets::embedded()),
        }
    }

    /// What the pages need to know of these settings.
    pub fn page_config(&self, assets: &Assets) -> Result<app::PageConfig, ConfigError> {
        let unsafe_source = self
            .frame_ancestors
            .split_whitespace()
            .any(|s| s.contains(';') || s.contains(','));
        if unsafe_source || self.frame_ancestors.trim().is_empty() {
            return Err(ConfigError(format!(
                "--frame-ancestors {:?}: give CSP sources separated by spaces, e.g. \
                 \"'self' https://dashboard.example.com\"",
                self.frame_ancestors
            )));
        }
        let mut config = app::PageConfig {
            frame_ancestors: self.frame_ancestors.trim().to_owned(),
            embed_origin: self.embed_origin.clone(),
            web_push: self.web_push.is_some(),
            live_reload: live_reload().and_then(|port| u16::try_from(port).ok()),
            ..app::PageConfig::default()
        };
        if let Some(stylesheet) = assets.stylesheet() {
            config.stylesheet = stylesheet.to_owned();
        }
        for bundle in app::Bundle::ALL {
            if let Some(path) = assets.bundle(bundle) {
                config.bundles[bundle as usize] = path.to_owned();
            }
        }
        if assets.is_cargo_leptos() {
            config.loader = app::Loader::Leptos;
        }
        Ok(config)
    }

    /// Where asks are stored.
    pub fn database(&self) -> Result<Database, ConfigError> {
        database_at(self.database.as_deref())
    }

    /// The command-line flags and environment that give another askdesk
    /// process these settings: every setting, the secrets (the token, a
    /// database URL that may hold a password) in the environment, where
    /// other users' `ps` cannot read them.
    pub fn to_command(&self) -> (Vec<String>, Vec<(&'static str, String)>) {
        let mut flags = vec![
            format!("--addr={}", self.addr),
            format!("--database-connections={}", self.database_connections),
            format!("--database-timeout={}", self.database_timeout),
            format!("--keep-events={}", self.keep_events),
            format!("--notify-give-up={}", self.notify_give_up),
            format!("--remind-max={}", self.remind_max),
            format!("--frame-ancestors={}", self.frame_ancestors),
            format!("--header-timeout={}", self.header_timeout),
            format!(
                "--max-connections-per-address={}",
                self.max_connections_per_address
            ),
            format!("--max-waits-per-address={}", self.max_waits_per_address),
            format!("--shutdown-grace={}", self.shutdown_grace),
        ];
        let optional = [
            ("--public-url", self.public_url.clone()),
            ("--embed-origin", self.embed_origin.clone()),
            (
                "--mcp-default-timeout",
                self.mcp_default_timeout.map(|t| t.to_string()),
            ),
            (
                "--site-root",
                self.site_root.as_ref().map(|p| p.display().to_string()),
            ),
            (
                "--tls-cert",
                self.tls_cert.as_ref().map(|p| p.display().to_string()),
            ),
            (
                "--tls-key",
                self.tls_key.as_ref().map(|p| p.display().to_string()),
            ),
            ("--web-push", self.web_push.clone()),
            ("--create-limit", self.create_limit.map(|n| n.to_string())),
            ("--metrics-addr", self.metrics_addr.map(|a| a.to_string())),
            (
                "--remind-after",
                self.remind_after.map(|d| format!("{}s", d.as_secs())),
            ),
            (
                "--keep-finished",
                self.keep_finished.map(|d| format!("{}s", d.as_secs())),
            ),
            (
                "--escalate-after",
                self.escalate_after.map(|d| format!("{}s", d.as_secs())),
            ),
        ];
        for (flag, value) in optional {
            if let Some(value) = value {
                flags.push(format!("{flag}={value}"));
            }
        }
        if self.elicit {
            flags.push("--elicit".to_owned());
        }
        if self.answer_requires_sign_in {
            flags.push("--answer-requires-sign-in".to_owned());
        }
        if self.answer_by_link {
            flags.push("--answer-by-link".to_owned());
        }
        for host in &self.allowed_hosts {
            flags.push(format!("--allowed-host={host}"));
        }
        let mut env = Vec::new();
        if let Some(database) = &self.database {
            env.push(("ASKDESK_DATABASE", database.clone()));
        }
        if let Some(token) = &self.token {
            env.push(("ASKDESK_TOKEN", token.clone()));
        }
        // A channel's URL may be its secret (an incoming-webhook URL).
        if !self.notify.is_empty() {
            env.push(("ASKDESK_NOTIFY", self.notify.join(" ")));
        }
        if let Some(secret) = &self.notify_secret {
            env.push(("ASKDESK_NOTIFY_SECRET", secret.clone()));
        }
        if let Some(secret) = &self.slack_signing_secret {
            env.push(("ASKDESK_SLACK_SIGNING_SECRET", secret.clone()));
        }
        if let Some(escalate) = &self.escalate {
            env.push(("ASKDESK_ESCALATE", escalate.clone()));
        }
        self.oidc.to_command(&mut flags, &mut env);
        (flags, env)
    }

    /// When an ask's link alone answers: `--answer-by-link`,
    /// `--answer-requires-sign-in`, or the default (while the desk has no
    /// people).
    pub fn link_answers(&self) -> desk::LinkAnswers {
        match (self.answer_by_link, self.answer_requires_sign_in) {
            (_, true) => desk::LinkAnswers::Never,
            (true, false) => desk::LinkAnswers::Always,
            (false, false) => desk::LinkAnswers::WithoutPeople,
        }
    }

    /// What one client address may hold of the server, and how long it may
    /// take to send a request's head.
    pub fn limits(&self) -> crate::http::crowding::Limits {
        crate::http::crowding::Limits::new(
            std::time::Duration::from_secs(self.header_timeout),
            self.max_connections_per_address,
            self.max_waits_per_address,
        )
    }

    /// The security settings, checked as `serve` checks them
    /// ([`Access`](crate::cli::run::Access)), for in-process servers and
    /// tests. `bound` is the address actually bound.
    pub fn security(&self, bound: SocketAddr) -> Result<Security, ConfigError> {
        Ok(crate::cli::run::Access::check(self)?.security(bound))
    }

    /// The database's connections: at least one, waited for at least a
    /// second.
    pub fn pool(&self) -> desk::PoolSettings {
        desk::PoolSettings {
            max_connections: self.database_connections.max(1),
            acquire_timeout: std::time::Duration::from_secs(self.database_timeout.max(1)),
        }
    }

    /// The certificate and key to serve https with, when both are given;
    /// one without the other is refused.
    pub fn tls(&self) -> Result<Option<TlsFiles>, ConfigError> {
        match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Ok(Some(TlsFiles {
                cert: cert.clone(),
                key: key.clone(),
            })),
            (None, None) => Ok(None),
            (Some(_), None) => Err(ConfigError(
                "--tls-cert needs --tls-key (ASKDESK_TLS_KEY): the certificate's private key, PEM"
                    .to_owned(),
            )),
            (None, Some(_)) => Err(ConfigError(
                "--tls-key needs --tls-cert (ASKDESK_TLS_CERT): the certificate it is the key of, \
                 PEM"
                .to_owned(),
            )),
        }
    }

    /// How this server is reached on its own address: `https` when it
    /// serves TLS itself.
    pub fn scheme(&self) -> &'static str {
        if self.tls_cert.is_some() && self.tls_key.is_some() {
            "https"
        } else {
            "http"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use std::path::PathBuf;

    #[derive(Parser)]
    struct Serve {
        #[command(flatten)]
        args: ServeArgs,
    }

    /// A detached desk is started from these: a setting left out would
    /// make it a different desk from the one asked for.
    #[test]
    fn another_process_gets_every_setting_and_secrets_stay_off_its_command_line() {
        let args = ServeArgs {
            addr: "127.0.0.1:4123".parse().expect("addr"),
            database: Some("postgres://desk:hunter2@db.internal/desk".to_owned()),
            database_connections: 3,
            database_timeout: 9,
            keep_events: 77,
            keep_finished: Some(std::time::Duration::from_secs(90 * 86_400)),
            public_url: Some("https://desk.example.com".to_owned()),
            tls_cert: Some(PathBuf::from("/etc/askdesk/desk cert.pem")),
            tls_key: Some(PathBuf::from("/etc/askdesk/desk.key")),
            token: Some("s3cret-token".to_owned()),
            allowed_hosts: vec!["a.example".to_owned(), "b.example".to_owned()],
            mcp_default_timeout: Some(600),
            elicit: true,
            answer_requires_sign_in: true,
            answer_by_link: false,
            create_limit: Some(30),
            frame_ancestors: "'self' https://dash.example".to_owned(),
            embed_origin: Some("https://dash.example".to_owned()),
            site_root: Some(PathBuf::from("/srv/askdesk site")),
            notify: vec![
                "webhook+https://hooks.example/a?key=k3y".to_owned(),
                "webhook+http://127.0.0.1:9/b".to_owned(),
            ],
            notify_secret: Some("sh4red".to_owned()),
            slack_signing_secret: Some("sl4ck".to_owned()),
            web_push: Some("mailto:desk@example.com".to_owned()),
            remind_after: Some(std::time::Duration::from_secs(1800)),
            remind_max: 5,
            escalate_after: Some(std::time::Duration::from_secs(7200)),
            escalate: Some("webhook+https://pager.example/esc4l8".to_owned()),
            notify_give_up: 3600,
            header_timeout: 12,
            max_connections_per_address: 40,
            max_waits_per_address: 0,
            shutdown_grace: 7,
            metrics_addr: Some("127.0.0.1:9464".parse().expect("addr")),
            oidc: crate::cli::config::OidcArgs {
                oidc_issuer: Some("https://id.example".to_owned()),
                oidc_client_id: Some("askdesk".to_owned()),
                oidc_client_secret: Some("0idc-s3cret".to_owned()),
                oidc_client_secret_file: None,
            },
        };
        let (flags, env) = args.to_command();
        for flag in &flags {
            assert!(
                !flag.contains("hunter2")
                    && !flag.contains("s3cret")
                    && !flag.contains("k3y")
                    && !flag.contains("sh4red")
                    && !flag.contains("sl4ck")
                    && !flag.contains("esc4l8"),
                "{flag}"
            );
        }
        // The OIDC secret's variable stands in for a flag clap requires with
        // the issuer, so it is given as that flag; the rest are set after.
        let required_from_env = env
            .iter()
            .filter(|(name, _)| *name == "ASKDESK_OIDC_CLIENT_SECRET")
            .map(|(_, value)| format!("--oidc-client-secret={value}"));
        let argv = std::iter::once("askdesk".to_owned())
            .chain(flags)
            .chain(required_from_env);
        let mut parsed = Serve::try_parse_from(argv).expect("flags parse").args;
        for (name, value) in env {
            match name {
                "ASKDESK_DATABASE" => parsed.database = Some(value),
                "ASKDESK_TOKEN" => parsed.token = Some(value),
                "ASKDESK_NOTIFY" => parsed.notify = value.split(' ').map(str::to_owned).collect(),
                "ASKDESK_NOTIFY_SECRET" => parsed.notify_secret = Some(value),
                "ASKDESK_SLACK_SIGNING_SECRET" => parsed.slack_signing_secret = Some(value),
                "ASKDESK_ESCALATE" => parsed.escalate = Some(value),
                "ASKDESK_OIDC_CLIENT_SECRET" => parsed.oidc.oidc_client_secret = Some(value),
                other => panic!("unexpected variable {other}"),
            }
        }
        assert!(parsed == args, "{parsed:?} != {args:?}");
    }
}

//! `serve`'s settings: every flag checked once, before anything is read,
//! opened or bound. The pure step between the command line and the
//! server (ripgrep's shape: the flags as parsed in, settings that hold
//! together out), tested without either.

use crate::{
    cli::config::{ConfigError, Database, ServeArgs, MIN_TOKEN_CHARS},
    http::{crowding::Limits, security::Security, tls::TlsFiles},
};
use axum::http::Uri;
use desk::{LinkAnswers, PoolSettings};
use notify::Channels;

use std::net::SocketAddr;

/// What `serve` runs with, checked.
pub struct Settings {
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
    access: Access,
}

/// Who may come in, and by which names.
pub struct Access {
    token: Option<String>,
    /// `--public-url`, checked, without a trailing slash.
    public_url: Option<String>,
    allowed_hosts: Vec<String>,
    scheme: &'static str,
}

impl Settings {
    /// The settings `args` describe, or the first flag that cannot be.
    pub fn check(args: &ServeArgs) -> Result<Self, ConfigError> {
        Ok(Self {
            tls: args.tls()?,
            database: args.database()?,
            pool: args.pool(),
            channels: args.channels()?,
            link_answers: args.link_answers(),
            limits: args.limits(),
            sign_in_needs_people: args.answer_requires_sign_in && args.token.is_none(),
            access: Access::check(args)?,
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
}

impl Access {
    /// Refuses a listener other machines can reach without a token, a
    /// short token, a public URL that is not one, and `--elicit` beside
    /// `--answer-requires-sign-in`.
    pub fn check(args: &ServeArgs) -> Result<Self, ConfigError> {
        if args.elicit && args.answer_requires_sign_in {
            return Err(ConfigError::new(
                "--elicit lets the agent's own client answer, which --answer-requires-sign-in \
                 forbids: choose one"
                    .to_owned(),
            ));
        }
        if let Some(token) = &args.token {
            let chars = token.chars().count();
            if chars < MIN_TOKEN_CHARS {
                return Err(ConfigError::new(format!(
                    "the token has {chars} characters; use at least {MIN_TOKEN_CHARS} random ones \
                     (for example the output of `openssl rand -hex 32`)"
                )));
            }
        } else if !args.addr.ip().is_loopback() {
            return Err(ConfigError::new(format!(
                "refusing to listen on {} without a token: other machines could read and answer \
                 every ask. Set --token (or ASKDESK_TOKEN), or listen on 127.0.0.1",
                args.addr
            )));
        }
        Ok(Self {
            token: args.token.clone(),
            public_url: args.public_url.as_deref().map(public_url).transpose()?,
            allowed_hosts: args
                .allowed_hosts
                .iter()
                .map(|h| h.trim().to_ascii_lowercase())
                .filter(|h| !h.is_empty())
                .collect(),
            scheme: args.scheme(),
        })
    }

    fn own_url(&self, bound: SocketAddr) -> String {
        format!("{}://{bound}", self.scheme)
    }

    /// The security of a server bound to `bound`.
    pub fn security(&self, bound: SocketAddr) -> Security {
        let public_url = self
            .public_url
            .clone()
            .unwrap_or_else(|| self.own_url(bound));
        let mut hosts = self.allowed_hosts.clone();
        if !bound.ip().is_unspecified() {
            hosts.push(bound.ip().to_string());
        }
        Security::new(self.token.clone(), public_url, hosts)
    }
}

/// `--public-url`, checked, without a trailing slash.
fn public_url(url: &str) -> Result<String, ConfigError> {
    let url = url.trim_end_matches('/');
    let uri: Uri = url
        .parse()
        .map_err(|e| ConfigError::new(format!("--public-url {url:?} is not a URL: {e}")))?;
    let scheme_ok = matches!(uri.scheme_str(), Some("http" | "https"));
    let path_ok = uri.path_and_query().is_none_or(|p| p.as_str() == "/");
    if !scheme_ok || uri.host().is_none() || !path_ok {
        return Err(ConfigError::new(format!(
            "--public-url {url:?} must look like https://host[:port], without a path"
        )));
    }
    Ok(url.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::config::Cli;
    use clap::Parser;

    fn check(flags: &[&str]) -> Result<Settings, String> {
        let cli = Cli::try_parse_from(["askdesk"].iter().chain(flags)).expect("flags");
        Settings::check(&cli.serve).map_err(|e| e.to_string())
    }

    fn refusal(flags: &[&str]) -> String {
        check(flags)
            .err()
            .unwrap_or_else(|| panic!("{flags:?} refused"))
    }

    #[test]
    fn a_listener_other_machines_reach_needs_a_long_token() {
        assert!(refusal(&["--addr=0.0.0.0:3000"]).contains("without a token"));
        assert!(refusal(&["--addr=0.0.0.0:3000", "--token=short"]).contains("has 5 characters"));
        let token = "t".repeat(MIN_TOKEN_CHARS);
        assert!(check(&["--addr=0.0.0.0:3000", &format!("--token={token}")]).is_ok());
        assert!(check(&["--addr=127.0.0.1:0"]).is_ok());
    }

    #[test]
    fn a_public_url_is_a_bare_origin_and_names_the_links() {
        assert!(refusal(&["--public-url=ftp://desk.example"]).contains("must look like"));
        assert!(refusal(&["--public-url=https://desk.example/asks"]).contains("without a path"));
        let settings = check(&["--public-url=https://desk.example/"]).expect("checked");
        let bound = "127.0.0.1:4000".parse().expect("address");
        assert_eq!(
            settings.security(bound).public_url(),
            "https://desk.example"
        );
        let settings = check(&["--addr=127.0.0.1:0"]).expect("checked");
        assert_eq!(
            settings.security(bound).public_url(),
            "http://127.0.0.1:4000"
        );
    }

    #[test]
    fn settings_that_contradict_each_other_are_refused() {
        assert!(refusal(&["--elicit", "--answer-requires-sign-in"]).contains("choose one"));
        assert!(refusal(&["--tls-cert=desk.crt"]).contains("--tls-cert needs --tls-key"));
        let unsigned = refusal(&["--notify=webhook+https://hooks.example/x"]);
        assert!(unsigned.contains("--notify-secret"), "{unsigned}");
    }

    #[test]
    fn sign_in_needs_people_only_without_a_token() {
        let settings = check(&["--answer-requires-sign-in"]).expect("checked");
        assert!(settings.sign_in_needs_people);
        assert_eq!(settings.link_answers, LinkAnswers::Never);
        let token = format!("--token={}", "t".repeat(MIN_TOKEN_CHARS));
        let settings = check(&["--answer-requires-sign-in", &token]).expect("checked");
        assert!(!settings.sign_in_needs_people);
    }
}

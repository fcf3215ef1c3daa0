//! Who may come in, and by which names: the token, the public URL and
//! the hosts, checked against the address listened on.

use crate::{
    cli::config::{ConfigError, ServeArgs, MIN_TOKEN_CHARS},
    http::security::Security,
};
use axum::http::Uri;
use std::net::SocketAddr;

/// Who may come in, and by which names.
pub struct Access {
    token: Option<String>,
    /// `--public-url`, checked, without a trailing slash.
    public_url: Option<String>,
    allowed_hosts: Vec<String>,
    scheme: &'static str,
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
            // https when it serves TLS itself.
            scheme: if args.tls_cert.is_some() && args.tls_key.is_some() {
                "https"
            } else {
                "http"
            },
        })
    }

    pub(super) fn own_url(&self, bound: SocketAddr) -> String {
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

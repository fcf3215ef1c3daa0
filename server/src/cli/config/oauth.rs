//! `serve`'s flags of askdesk as the OAuth authorization server of its
//! MCP endpoint (claude.ai, Claude's apps and ChatGPT connect so), and
//! the settings they make.

use super::ConfigError;
use clap::Args;
use std::{path::PathBuf, sync::Arc, time::Duration};

/// The flags of the authorization server.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct OAuthArgs {
    /// How many clients may register themselves (OAuth dynamic client
    /// registration, as Cursor and other editors do) in all; clients known
    /// by a metadata document URL (claude.ai, ChatGPT) do not count.
    #[arg(
        long,
        env = "ASKDESK_OAUTH_REGISTRATIONS",
        value_name = "N",
        default_value_t = 1000
    )]
    pub oauth_registrations: u64,
    /// Fetch clients' metadata documents from loopback and private
    /// addresses too (a desk whose OAuth clients run on its own network).
    /// Without it, a client_id URL that resolves to such an address is
    /// refused.
    #[arg(long, env = "ASKDESK_OAUTH_PRIVATE_CLIENTS")]
    pub oauth_private_clients: bool,
    /// Trust this CA certificate (PEM) too when fetching clients' metadata
    /// documents (an internal CA).
    #[arg(long, env = "ASKDESK_OAUTH_CLIENT_CA", value_name = "FILE")]
    pub oauth_client_ca: Option<PathBuf>,
    /// How long `ask_user` and `await_answer` wait over a connector (a
    /// client that connected by OAuth) before they return the ask's id for
    /// the model to wait on with `await_answer`: claude.ai and Claude's
    /// apps end a tool call after 300 seconds.
    #[arg(
        long,
        env = "ASKDESK_OAUTH_CALL_SECONDS",
        value_name = "SECONDS",
        default_value_t = 240,
        value_parser = clap::value_parser!(u64).range(1..=3600)
    )]
    pub oauth_call_seconds: u64,
}

impl Default for OAuthArgs {
    fn default() -> Self {
        Self {
            oauth_registrations: 1000,
            oauth_private_clients: false,
            oauth_client_ca: None,
            oauth_call_seconds: 240,
        }
    }
}

/// The authorization server's settings, checked.
#[derive(Debug, Clone)]
pub struct OAuthSettings {
    registrations: u64,
    documents: oauth::cimd::Documents,
    /// How long a connector's tool call waits for its answer.
    pub call_limit: Duration,
}

impl OAuthSettings {
    /// The settings `args` describe; the CA file is read now.
    pub fn check(args: &OAuthArgs) -> Result<Self, ConfigError> {
        let extra_root = match &args.oauth_client_ca {
            Some(path) => Some(std::fs::read(path).map_err(|e| {
                ConfigError::new(format!(
                    "--oauth-client-ca: cannot read {}: {e}",
                    path.display()
                ))
            })?),
            None => None,
        };
        let documents = oauth::cimd::Documents::new(oauth::cimd::Fetching {
            private_addresses: args.oauth_private_clients,
            extra_root,
        })
        .map_err(|e| ConfigError::new(format!("--oauth-client-ca: {e}")))?;
        Ok(Self {
            registrations: args.oauth_registrations,
            documents,
            call_limit: Duration::from_secs(args.oauth_call_seconds),
        })
    }

    /// The authorization server of the desk at `public_url`.
    pub fn server(&self, public_url: &str) -> Arc<oauth::AuthServer> {
        Arc::new(oauth::AuthServer::new(
            public_url,
            self.registrations,
            self.documents.clone(),
        ))
    }
}

impl OAuthArgs {
    /// The flags that give another process these settings.
    pub fn to_command(&self, flags: &mut Vec<String>) {
        flags.push(format!(
            "--oauth-registrations={}",
            self.oauth_registrations
        ));
        if self.oauth_private_clients {
            flags.push("--oauth-private-clients".to_owned());
        }
        if let Some(ca) = &self.oauth_client_ca {
            flags.push(format!("--oauth-client-ca={}", ca.display()));
        }
        flags.push(format!("--oauth-call-seconds={}", self.oauth_call_seconds));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ca_that_cannot_be_read_or_is_no_certificate_is_refused_at_start() {
        let missing = OAuthArgs {
            oauth_client_ca: Some(PathBuf::from("/nonexistent/ca.pem")),
            ..OAuthArgs::default()
        };
        let refusal = OAuthSettings::check(&missing).expect_err("refused");
        assert!(
            refusal.to_string().contains("--oauth-client-ca"),
            "{refusal}"
        );
        let file = tempfile::NamedTempFile::new().expect("file");
        std::fs::write(file.path(), "not a certificate").expect("written");
        let garbage = OAuthArgs {
            oauth_client_ca: Some(file.path().to_owned()),
            ..OAuthArgs::default()
        };
        assert!(OAuthSettings::check(&garbage).is_err());
        let settings = OAuthSettings::check(&OAuthArgs::default()).expect("settings");
        assert_eq!(settings.call_limit, Duration::from_secs(240));
    }
}

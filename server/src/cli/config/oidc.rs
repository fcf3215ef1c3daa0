//! `serve`'s sign-in with the company's identity provider (OpenID
//! Connect): the issuer, the client askdesk is there, and its secret.

use clap::Args;
use std::{fmt, path::PathBuf};

/// The flags of sign-in with an OpenID Connect provider. Each needs its
/// partners; clap refuses one without them, naming the flag.
#[derive(Clone, Default, PartialEq, Eq, Args)]
pub struct OidcArgs {
    /// Let people sign in with this OpenID Connect provider (its issuer
    /// URL, e.g. https://accounts.google.com): discovered at start, which
    /// fails when it cannot be. People are matched by the verified email
    /// of `askdesk people add NAME --email ADDRESS`; the provider sends
    /// them back to <public URL>/signin/oidc/callback. Needs
    /// --oidc-client-id and a client secret.
    #[arg(
        long,
        env = "ASKDESK_OIDC_ISSUER",
        value_name = "URL",
        requires_all = ["oidc_client_id", "oidc_client_secret_given"]
    )]
    pub oidc_issuer: Option<String>,
    /// askdesk's client id at the --oidc-issuer.
    #[arg(
        long,
        env = "ASKDESK_OIDC_CLIENT_ID",
        value_name = "ID",
        requires = "oidc_issuer"
    )]
    pub oidc_client_id: Option<String>,
    /// The client's secret at the --oidc-issuer.
    #[arg(
        long,
        env = "ASKDESK_OIDC_CLIENT_SECRET",
        hide_env_values = true,
        value_name = "SECRET",
        group = "oidc_client_secret_given",
        requires = "oidc_issuer"
    )]
    pub oidc_client_secret: Option<String>,
    /// The client's secret, read from this file (its first line), instead
    /// of --oidc-client-secret.
    #[arg(
        long,
        env = "ASKDESK_OIDC_CLIENT_SECRET_FILE",
        value_name = "FILE",
        group = "oidc_client_secret_given",
        requires = "oidc_issuer"
    )]
    pub oidc_client_secret_file: Option<PathBuf>,
}

impl OidcArgs {
    /// The flags and environment that give another process these settings;
    /// the secret in the environment.
    pub fn to_command(&self, flags: &mut Vec<String>, env: &mut Vec<(&'static str, String)>) {
        if let Some(issuer) = &self.oidc_issuer {
            flags.push(format!("--oidc-issuer={issuer}"));
        }
        if let Some(id) = &self.oidc_client_id {
            flags.push(format!("--oidc-client-id={id}"));
        }
        if let Some(file) = &self.oidc_client_secret_file {
            flags.push(format!("--oidc-client-secret-file={}", file.display()));
        }
        if let Some(secret) = &self.oidc_client_secret {
            env.push(("ASKDESK_OIDC_CLIENT_SECRET", secret.clone()));
        }
    }
}

impl fmt::Debug for OidcArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OidcArgs")
            .field("oidc_issuer", &self.oidc_issuer)
            .field("oidc_client_id", &self.oidc_client_id)
            .field(
                "oidc_client_secret",
                &self.oidc_client_secret.as_ref().map(|_| "<set>"),
            )
            .field("oidc_client_secret_file", &self.oidc_client_secret_file)
            .finish()
    }
}

//! `serve`'s sign-in with the company's identity provider (OpenID
//! Connect): the issuer, the client askdesk is there, and its secret.

use anyhow::Context;
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
    /// Take the --oidc-issuer's email addresses in this domain as verified
    /// when it says nothing either way (Microsoft Entra ID sends no
    /// `email_verified`). Trust only a domain whose addresses the provider
    /// itself assigns: anyone who can set their email there to an address
    /// of the domain signs in as its person. An address the provider says
    /// is unverified stays refused. Repeat for more domains.
    #[arg(
        long = "oidc-trust-email-domain",
        env = "ASKDESK_OIDC_TRUST_EMAIL_DOMAINS",
        value_name = "DOMAIN",
        value_delimiter = ',',
        requires = "oidc_issuer"
    )]
    pub oidc_trust_email_domains: Vec<String>,
}

impl OidcArgs {
    /// The provider these flags name, checked, its secret read; `None`
    /// without `--oidc-issuer`. clap has held each flag to its partners.
    pub fn provider(&self) -> anyhow::Result<Option<crate::oidc::Provider>> {
        let Some(issuer) = &self.oidc_issuer else {
            return Ok(None);
        };
        let client_id = self
            .oidc_client_id
            .clone()
            .context("--oidc-issuer needs --oidc-client-id")?;
        Ok(Some(crate::oidc::Provider {
            issuer: issuer.clone(),
            client_id,
            secret: client_secret(self)?,
            trusted_domains: trusted_domains(&self.oidc_trust_email_domains)?,
        }))
    }

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
        for domain in &self.oidc_trust_email_domains {
            flags.push(format!("--oidc-trust-email-domain={domain}"));
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
            .field("oidc_trust_email_domains", &self.oidc_trust_email_domains)
            .finish()
    }
}

/// `--oidc-trust-email-domain`'s domains, lower case: each a bare domain
/// name (`example.com`), never an address or a pattern.
fn trusted_domains(given: &[String]) -> anyhow::Result<Vec<String>> {
    given
        .iter()
        .map(|domain| {
            let domain = domain.trim().trim_start_matches('@').to_ascii_lowercase();
            let label_ok = |label: &str| {
                !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            };
            anyhow::ensure!(
                domain.contains('.') && domain.split('.').all(label_ok),
                "--oidc-trust-email-domain {domain:?}: give a domain name, e.g. example.com"
            );
            Ok(domain)
        })
        .collect()
}

/// The client secret of `args`: given, or read from its file.
fn client_secret(args: &OidcArgs) -> anyhow::Result<String> {
    let secret = match (&args.oidc_client_secret, &args.oidc_client_secret_file) {
        (Some(secret), _) => secret.trim().to_owned(),
        (None, Some(file)) => std::fs::read_to_string(file)
            .with_context(|| format!("--oidc-client-secret-file {}", file.display()))?
            .lines()
            .next()
            .unwrap_or_default()
            .trim()
            .to_owned(),
        (None, None) => {
            anyhow::bail!("--oidc-issuer needs --oidc-client-secret or --oidc-client-secret-file")
        }
    };
    anyhow::ensure!(
        !secret.is_empty(),
        "--oidc-client-secret is empty; give the secret the identity provider issued for askdesk"
    );
    Ok(secret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_secret_comes_from_its_flag_or_the_first_line_of_its_file() {
        let mut args = OidcArgs {
            oidc_issuer: Some("https://id.example".to_owned()),
            oidc_client_id: Some("askdesk".to_owned()),
            oidc_client_secret: Some(" s3cret ".to_owned()),
            oidc_client_secret_file: None,
            oidc_trust_email_domains: Vec::new(),
        };
        assert_eq!(client_secret(&args).expect("given"), "s3cret");
        let file = tempfile::NamedTempFile::new().expect("file");
        std::fs::write(file.path(), "fr0m-file\nanything else\n").expect("written");
        args.oidc_client_secret = None;
        args.oidc_client_secret_file = Some(file.path().to_owned());
        assert_eq!(client_secret(&args).expect("read"), "fr0m-file");
        std::fs::write(file.path(), "\n").expect("written");
        let empty = client_secret(&args).expect_err("empty").to_string();
        assert!(empty.contains("empty"), "{empty}");
        args.oidc_client_secret_file = Some("/no/such/file".into());
        let missing = format!("{:#}", client_secret(&args).expect_err("missing"));
        assert!(
            missing.contains("--oidc-client-secret-file /no/such/file"),
            "{missing}"
        );
    }

    #[test]
    fn trusted_email_domains_are_bare_domain_names() {
        let domains = ["Example.COM".to_owned(), "@corp.example".to_owned()];
        assert_eq!(
            trusted_domains(&domains).expect("domains"),
            ["example.com", "corp.example"]
        );
        for refused in [
            "*.example.com",
            "alice@example.com",
            "localhost",
            "a..b",
            "",
        ] {
            let error = trusted_domains(&[refused.to_owned()]).expect_err(refused);
            assert!(error.to_string().contains("domain name"), "{error}");
        }
    }
}

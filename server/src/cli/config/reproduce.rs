//! The flags and environment that give another askdesk process the same
//! settings: how `askdesk mcp` starts a detached desk that is the desk
//! asked for.

use super::ServeArgs;

impl ServeArgs {
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
        self.oauth.to_command(&mut flags);
        (flags, env)
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
                oidc_trust_email_domains: vec!["example.com".to_owned(), "corp.example".to_owned()],
            },
            oauth: crate::cli::config::OAuthArgs {
                oauth_registrations: 7,
                oauth_private_clients: true,
                oauth_client_ca: Some(PathBuf::from("/etc/askdesk/clients ca.pem")),
                oauth_call_seconds: 100,
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

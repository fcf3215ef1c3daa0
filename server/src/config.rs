//! Command line and environment configuration, and the checks that refuse
//! an unsafe or unusable setup before anything listens.

use crate::{assets::Assets, security::Security};
use axum::http::Uri;
use clap::{Args, Parser, Subcommand};
use leptos::prelude::LeptosOptions;
use std::{
    fmt,
    net::SocketAddr,
    path::{Path, PathBuf},
};

/// askdesk: a desk where AI agents ask a human structured questions.
#[derive(Debug, Parser)]
#[command(name = "askdesk", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of `serve`, which also runs when no subcommand is given.
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// What askdesk should do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web pages and the API (the default).
    Serve(ServeArgs),
    /// The people with tokens of their own, and their roles: `add`, `list`,
    /// `remove`. Works on the server's database (the same --database and
    /// environment) while it runs; a removal takes effect on every
    /// instance at its next request.
    #[command(subcommand)]
    People(PeopleCommand),
    /// Speak MCP on stdin/stdout for a client that launches askdesk: one
    /// tool, `ask_user`. Uses the server at --url, or starts one there.
    Mcp(McpArgs),
    /// Answer a server's asks in the terminal: its queue, live.
    Tui(tui::TuiArgs),
    /// Hooks for agents' own question tools: their questions go to the desk.
    #[command(subcommand)]
    Hook(Hook),
    /// Answer a request file (or `-` for stdin) in the terminal, with no
    /// server. Exit codes: 0 answered (the answers JSON on stdout), 3
    /// declined, 130 interrupted, 1 the request is invalid.
    Answer(tui::AnswerArgs),
    /// Stop the desk `askdesk mcp` or the hook started at --url when none
    /// answered there. Exit codes: 0 stopped, or none was running; 1 it
    /// would not stop.
    Stop(StopArgs),
}

/// Options of `askdesk stop`.
#[derive(Debug, Clone, Args)]
pub struct StopArgs {
    /// The address of the desk to stop, as `askdesk mcp` was given it.
    #[arg(long, env = "ASKDESK_URL", default_value = "http://127.0.0.1:3000")]
    pub url: String,
}

/// What `askdesk people` does.
#[derive(Debug, Subcommand)]
pub enum PeopleCommand {
    /// Add a person and print their new token, once (it is kept only as a
    /// digest): `askd_` and 160 random bits.
    Add {
        /// Their name: 1–64 characters of A-Z a-z 0-9 . _ -, starting with
        /// a letter or digit.
        name: String,
        /// What they may do: `agent` creates, reads, waits on and cancels
        /// asks; `person` reads, answers and declines; `admin` does all.
        #[arg(long, default_value = "person", value_parser = parse_role)]
        role: interaction::Role,
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// List the people and their roles (never their tokens).
    List {
        /// One JSON object per person instead of a table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// Remove a person: their token and signed-in browsers stop working at
    /// once.
    Remove {
        /// Their name.
        name: String,
        #[command(flatten)]
        database: DatabaseArgs,
    },
}

/// Which database `askdesk people` works on.
#[derive(Debug, Clone, Args)]
pub struct DatabaseArgs {
    /// The server's database, as `askdesk serve --database` takes it (the
    /// same default and environment).
    #[arg(long, env = "ASKDESK_DATABASE", hide_env_values = true)]
    pub database: Option<String>,
}

fn parse_role(text: &str) -> Result<interaction::Role, String> {
    interaction::Role::parse(text)
        .ok_or_else(|| format!("{text:?} is not a role; use agent, person or admin"))
}

/// The agents askdesk has a hook for.
#[derive(Debug, Subcommand)]
pub enum Hook {
    /// A Claude Code `PreToolUse` hook for `AskUserQuestion`: reads the
    /// hook's JSON on stdin, puts the questions to the desk at --url (or
    /// one it starts, as `askdesk mcp` does), waits for the answer and
    /// prints the hook's decision. Without a desk it prints nothing, and
    /// Claude Code asks in its terminal as usual.
    ClaudeCode(McpArgs),
}

/// Options of `askdesk mcp`.
#[derive(Debug, Clone, Args)]
pub struct McpArgs {
    /// The askdesk server whose desk the questions go to. If nothing answers
    /// there, askdesk starts one on that (loopback) address with the serve
    /// options below; it keeps serving after this client leaves, until
    /// `askdesk stop`.
    #[arg(long, env = "ASKDESK_URL", default_value = "http://127.0.0.1:3000")]
    pub url: String,
    /// A PEM file with the CA certificate that signed the server's TLS
    /// certificate at --url, when no system-wide CA did.
    #[arg(long, env = "ASKDESK_CA_CERT")]
    pub ca_cert: Option<PathBuf>,
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// Options of the web server.
#[derive(Clone, PartialEq, Args)]
pub struct ServeArgs {
    /// Address to listen on. Anything but a loopback address needs --token.
    #[arg(long, env = "ASKDESK_ADDR", default_value = "127.0.0.1:3000")]
    pub addr: SocketAddr,
    /// Where asks are stored: a SQLite file (created if missing),
    /// `:memory:` for a throwaway desk, or a PostgreSQL URL
    /// (`postgres://user:password@host/db`) for several instances acting as
    /// one desk. Default: askdesk/askdesk.db in the user's data folder.
    #[arg(long, env = "ASKDESK_DATABASE", hide_env_values = true)]
    pub database: Option<String>,
    /// PostgreSQL: the most connections this instance keeps open.
    #[arg(long, env = "ASKDESK_DATABASE_CONNECTIONS", default_value_t = 10)]
    pub database_connections: u32,
    /// PostgreSQL: seconds a request waits for a connection before it is
    /// refused with 503.
    #[arg(long, env = "ASKDESK_DATABASE_TIMEOUT", default_value_t = 5)]
    pub database_timeout: u64,
    /// How many of the newest events the database keeps, so that event
    /// streams resume (`Last-Event-ID`) without loss; a stream further
    /// behind is told to re-read the asks.
    #[arg(long, env = "ASKDESK_KEEP_EVENTS", default_value_t = desk::KEEP_EVENTS)]
    pub keep_events: u64,
    /// The URL people and agents reach this server at, e.g.
    /// `https://desk.example.com`. Links to asks start with it, and its host
    /// is accepted in `Host` and `Origin`. Default: `http://<addr>`.
    #[arg(long, env = "ASKDESK_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// A secret that API clients send as `Authorization: Bearer <token>`
    /// and people enter once to use the desk's pages. Ask pages stay
    /// reachable by their unguessable link.
    #[arg(long, env = "ASKDESK_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// More host names to answer to (comma-separated); requests naming any
    /// other host are refused, which defeats DNS rebinding.
    #[arg(
        long = "allowed-host",
        env = "ASKDESK_ALLOWED_HOSTS",
        value_delimiter = ','
    )]
    pub allowed_hosts: Vec<String>,
    /// How long an ask made through MCP waits, in seconds, when the agent
    /// sets no `timeoutSeconds`. Default: until the human acts.
    #[arg(long, env = "ASKDESK_MCP_TIMEOUT")]
    pub mcp_default_timeout: Option<u64>,
    /// Only signed-in people may answer and decline (their own token, or
    /// the shared one): an ask's link alone no longer does, an agent's
    /// token never does, notifications carry no answer buttons, and a
    /// person answers only the asks for them (`to`) or for anyone. Needs
    /// --token or people (`askdesk people add`).
    #[arg(long, env = "ASKDESK_ANSWER_REQUIRES_SIGN_IN")]
    pub answer_requires_sign_in: bool,
    /// How many asks each agent may create a minute (each person's token
    /// counts apart; the shared token, or an open desk, counts as one);
    /// more get 429 with Retry-After. Counted per instance. Default: no
    /// limit.
    #[arg(long, env = "ASKDESK_CREATE_LIMIT", value_parser = clap::value_parser!(u32).range(1..))]
    pub create_limit: Option<u32>,
    /// Also put each `ask_user` to the MCP client's own UI (elicitation),
    /// when the client offers it: whoever answers first, there, on the page
    /// or in the terminal, answers. A call may choose with `answerIn`.
    #[arg(long, env = "ASKDESK_ELICIT")]
    pub elicit: bool,
    /// Who may show askdesk's pages in an iframe: CSP `frame-ancestors`
    /// sources, e.g. `'self' https://dashboard.example.com`.
    #[arg(long, env = "ASKDESK_FRAME_ANCESTORS", default_value = "'self'")]
    pub frame_ancestors: String,
    /// The origin an embedded ask page (`/asks/{id}?embed=1`) tells when the
    /// ask finishes, with `postMessage`; `*` tells any. Default: nobody.
    #[arg(long, env = "ASKDESK_EMBED_ORIGIN")]
    pub embed_origin: Option<String>,
    /// Serve the site (the `pkg/` bundle, CSS and public files) from this
    /// folder instead of the copy built into the binary; for development.
    #[arg(long, env = "ASKDESK_SITE_ROOT")]
    pub site_root: Option<PathBuf>,
    /// Tell a channel of every ask created and finished (repeatable; the
    /// environment takes several, space-separated). The prefix names the
    /// channel: `webhook+https://host/path` (or `webhook+http://`) POSTs
    /// signed JSON there; `ntfy+https://host/topic` publishes to an ntfy
    /// topic, with buttons that answer a one-question single-select ask;
    /// `slack+https://hooks.slack.com/services/…` posts a Block Kit message
    /// to a Slack incoming webhook.
    /// Deliveries are kept in the database and retried until they succeed
    /// or --notify-give-up passes.
    #[arg(
        long = "notify",
        env = "ASKDESK_NOTIFY",
        value_delimiter = ' ',
        hide_env_values = true
    )]
    pub notify: Vec<String>,
    /// The key of the `X-Askdesk-Signature` HMAC-SHA256 every webhook
    /// delivery carries; needed with a webhook channel.
    #[arg(long, env = "ASKDESK_NOTIFY_SECRET", hide_env_values = true)]
    pub notify_secret: Option<String>,
    /// Push each ask to the browsers that chose "Notify this device" on the
    /// desk (Web Push), naming this contact (`mailto:you@example.com` or an
    /// https:// URL) to their push services.
    #[arg(long, env = "ASKDESK_WEB_PUSH")]
    pub web_push: Option<String>,
    /// Slack's signing secret (the app's Basic Information): with it, the
    /// buttons of a `slack+` channel's messages answer one-question
    /// single-select asks inside Slack, through
    /// `POST /integrations/slack/actions`, which checks every request's
    /// signature.
    #[arg(long, env = "ASKDESK_SLACK_SIGNING_SECRET", hide_env_values = true)]
    pub slack_signing_secret: Option<String>,
    /// Remind the --notify channels of an ask still waiting after this long
    /// (e.g. `30m`, `2h`, `90s`; a bare number is seconds), and again each
    /// time as long, at most --remind-max times.
    #[arg(long, env = "ASKDESK_REMIND_AFTER", value_parser = parse_duration)]
    pub remind_after: Option<std::time::Duration>,
    /// How many reminders an ask gets at most.
    #[arg(long, env = "ASKDESK_REMIND_MAX", default_value_t = 3)]
    pub remind_max: u32,
    /// Tell the --escalate channel of an ask still waiting after this long
    /// (e.g. `4h`).
    #[arg(long, env = "ASKDESK_ESCALATE_AFTER", value_parser = parse_duration)]
    pub escalate_after: Option<std::time::Duration>,
    /// A second channel (written as for --notify) told once of an ask that
    /// waited --escalate-after.
    #[arg(long, env = "ASKDESK_ESCALATE", hide_env_values = true)]
    pub escalate: Option<String>,
    /// Seconds after which a notification that could not be delivered is
    /// given up (retries back off exponentially, with jitter, up to an
    /// hour apart).
    #[arg(long, env = "ASKDESK_NOTIFY_GIVE_UP", default_value_t = 86_400)]
    pub notify_give_up: u64,
}

/// A duration as people write it: `90s`, `30m`, `2h`, `1d`, or a number of
/// seconds.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale = match unit.trim() {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        other => {
            return Err(format!(
                "{other:?} is not a unit askdesk knows; write e.g. 90s, 30m, 2h or 1d"
            ))
        }
    };
    let n: u64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration; write e.g. 90s, 30m, 2h or 1d"))?;
    if n == 0 {
        return Err("a duration of 0 means nothing here; write e.g. 30m".to_owned());
    }
    Ok(std::time::Duration::from_secs(n.saturating_mul(scale)))
}

/// askdesk's folder in the user's data folder (`$XDG_DATA_HOME/askdesk`,
/// else `~/.local/share/askdesk`): the default database, and the log of a
/// desk `askdesk mcp` started.
pub fn data_folder() -> Result<PathBuf, ConfigError> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/share")))
        .ok_or_else(|| {
            ConfigError(
                "cannot find a data folder (neither XDG_DATA_HOME nor HOME is set); \
                 pass --database <file>"
                    .to_owned(),
            )
        })?;
    Ok(base.join("askdesk"))
}

impl fmt::Debug for ServeArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServeArgs")
            .field("addr", &self.addr)
            .field("database", &self.database().map(|d| d.to_string()).ok())
            .field("database_connections", &self.database_connections)
            .field("database_timeout", &self.database_timeout)
            .field("keep_events", &self.keep_events)
            .field("public_url", &self.public_url)
            .field("token", &self.token.as_ref().map(|_| "<set>"))
            .field("allowed_hosts", &self.allowed_hosts)
            .field("mcp_default_timeout", &self.mcp_default_timeout)
            .field("elicit", &self.elicit)
            .field("answer_requires_sign_in", &self.answer_requires_sign_in)
            .field("create_limit", &self.create_limit)
            .field("frame_ancestors", &self.frame_ancestors)
            .field("embed_origin", &self.embed_origin)
            .field("site_root", &self.site_root)
            .field("notify", &self.channels().map(|c| c.names()).ok())
            .field(
                "notify_secret",
                &self.notify_secret.as_ref().map(|_| "<set>"),
            )
            .field("notify_give_up", &self.notify_give_up)
            .field("web_push", &self.web_push)
            .field("remind_after", &self.remind_after)
            .field("remind_max", &self.remind_max)
            .field("escalate_after", &self.escalate_after)
            .field("escalate", &self.escalate.as_ref().map(|_| "<set>"))
            .finish()
    }
}

/// Where `--database` (given or not) says asks are stored.
pub fn database_at(database: Option<&str>) -> Result<Database, ConfigError> {
    match database {
        Some(":memory:") => Ok(Database::Memory),
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
            Ok(Database::Postgres(url.to_owned()))
        }
        Some(url) if url.contains("://") => {
            let scheme = url.split("://").next().unwrap_or_default();
            Err(ConfigError(format!(
                "--database: {scheme}:// is not a database askdesk knows; give a SQLite \
                 file path (e.g. /var/lib/askdesk/askdesk.db), :memory:, or a \
                 postgres:// URL"
            )))
        }
        Some(path) => Ok(Database::File(PathBuf::from(path))),
        None => Ok(Database::File(data_folder()?.join("askdesk.db"))),
    }
}

impl DatabaseArgs {
    /// Where the asks are.
    pub fn database(&self) -> Result<Database, ConfigError> {
        database_at(self.database.as_deref())
    }
}

/// Where asks are stored.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file.
    File(PathBuf),
    /// A private in-memory SQLite database.
    Memory,
    /// A PostgreSQL database, by its URL (which may hold a password).
    Postgres(String),
}

impl fmt::Display for Database {
    /// Where the asks are, for logs and messages: never a password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::File(path) => write!(f, "{}", path.display()),
            Self::Memory => f.write_str(":memory:"),
            Self::Postgres(url) => match url.parse::<Uri>() {
                Ok(uri) => write!(
                    f,
                    "{}://{}{}",
                    uri.scheme_str().unwrap_or("postgres"),
                    uri.host().unwrap_or_default(),
                    uri.port().map(|p| format!(":{p}")).unwrap_or_default()
                )
                .and_then(|()| f.write_str(uri.path())),
                Err(_) => f.write_str("postgres://…"),
            },
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Database({self})")
    }
}

/// A setting that cannot work, with what to do instead.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(String);

impl ConfigError {
    /// A refusal saying `message`.
    pub(crate) fn new(message: String) -> Self {
        Self(message)
    }
}

/// The shortest token accepted.
pub const MIN_TOKEN_CHARS: usize = 16;

impl ServeArgs {
    /// The Leptos options these settings describe, for a site whose bundle
    /// is named `bundle` (`/pkg/<bundle>.js`).
    pub fn leptos_options(&self, bundle: Option<&str>) -> LeptosOptions {
        LeptosOptions::builder()
            .output_name(bundle.unwrap_or(env!("LEPTOS_OUTPUT_NAME")))
            .site_pkg_dir("pkg")
            .site_addr(self.addr)
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
            ..app::PageConfig::default()
        };
        if let Some(stylesheet) = assets.stylesheet() {
            config.stylesheet = stylesheet.to_owned();
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
            ("--web-push", self.web_push.clone()),
            ("--create-limit", self.create_limit.map(|n| n.to_string())),
            (
                "--remind-after",
                self.remind_after.map(|d| format!("{}s", d.as_secs())),
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
        (flags, env)
    }

    /// The security settings, refusing a listener other machines can reach
    /// without a token. `bound` is the address actually bound (its port
    /// may differ from `addr` when that asked for port 0).
    pub fn security(&self, bound: SocketAddr) -> Result<Security, ConfigError> {
        if self.elicit && self.answer_requires_sign_in {
            return Err(ConfigError(
                "--elicit lets the agent's own client answer, which --answer-requires-sign-in                  forbids: choose one"
                    .to_owned(),
            ));
        }
        if let Some(token) = &self.token {
            let chars = token.chars().count();
            if chars < MIN_TOKEN_CHARS {
                return Err(ConfigError(format!(
                    "the token has {chars} characters; use at least {MIN_TOKEN_CHARS} random ones \
                     (for example the output of `openssl rand -hex 32`)"
                )));
            }
        } else if !self.addr.ip().is_loopback() {
            return Err(ConfigError(format!(
                "refusing to listen on {} without a token: other machines could read and answer \
                 every ask. Set --token (or ASKDESK_TOKEN), or listen on 127.0.0.1",
                self.addr
            )));
        }
        let public_url = self.public_url(bound)?;
        let mut hosts: Vec<String> = self
            .allowed_hosts
            .iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .filter(|h| !h.is_empty())
            .collect();
        if !bound.ip().is_unspecified() {
            hosts.push(bound.ip().to_string());
        }
        Ok(Security::new(self.token.clone(), public_url, hosts))
    }

    /// The public URL, checked, without a trailing slash.
    pub fn public_url(&self, bound: SocketAddr) -> Result<String, ConfigError> {
        let Some(url) = &self.public_url else {
            return Ok(format!("http://{bound}"));
        };
        let url = url.trim_end_matches('/');
        let uri: Uri = url
            .parse()
            .map_err(|e| ConfigError(format!("--public-url {url:?} is not a URL: {e}")))?;
        let scheme_ok = matches!(uri.scheme_str(), Some("http" | "https"));
        let path_ok = uri.path_and_query().is_none_or(|p| p.as_str() == "/");
        if !scheme_ok || uri.host().is_none() || !path_ok {
            return Err(ConfigError(format!(
                "--public-url {url:?} must look like https://host[:port], without a path"
            )));
        }
        Ok(url.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Parser)]
    struct Serve {
        #[command(flatten)]
        args: ServeArgs,
    }

    #[test]
    fn durations_read_as_people_write_them() {
        use std::time::Duration;
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("1d"), Ok(Duration::from_secs(86_400)));
        for bad in ["", "0", "0m", "m", "2w", "1.5h", "-1h"] {
            let refused = parse_duration(bad).expect_err(bad);
            assert!(
                refused.contains("30m") || refused.contains("2h"),
                "{bad}: {refused}"
            );
        }
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
            public_url: Some("https://desk.example.com".to_owned()),
            token: Some("s3cret-token".to_owned()),
            allowed_hosts: vec!["a.example".to_owned(), "b.example".to_owned()],
            mcp_default_timeout: Some(600),
            elicit: true,
            answer_requires_sign_in: true,
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
        let mut parsed = Serve::try_parse_from(std::iter::once("askdesk".to_owned()).chain(flags))
            .expect("flags parse")
            .args;
        for (name, value) in env {
            match name {
                "ASKDESK_DATABASE" => parsed.database = Some(value),
                "ASKDESK_TOKEN" => parsed.token = Some(value),
                "ASKDESK_NOTIFY" => parsed.notify = value.split(' ').map(str::to_owned).collect(),
                "ASKDESK_NOTIFY_SECRET" => parsed.notify_secret = Some(value),
                "ASKDESK_SLACK_SIGNING_SECRET" => parsed.slack_signing_secret = Some(value),
                "ASKDESK_ESCALATE" => parsed.escalate = Some(value),
                other => panic!("unexpected variable {other}"),
            }
        }
        assert!(parsed == args, "{parsed:?} != {args:?}");
    }
}

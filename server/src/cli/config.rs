//! Command line and environment configuration, and the checks that refuse
//! an unsafe or unusable setup before anything listens.

mod commands;
mod database;
mod duration;
mod oauth;
mod oidc;
mod reproduce;
mod settings;

pub use commands::{
    AcpArgs, Connector, DatabaseArgs, DeskArgs, Hook, OpencodeArgs, PeopleCommand, SetupArgs,
    SetupTarget, StopArgs,
};
pub use database::{data_folder, database_at, Database};
pub use duration::parse_duration;
pub use oauth::{OAuthArgs, OAuthSettings};
pub use oidc::OidcArgs;
pub use settings::{channels, Access, PageSettings, ServeSettings, Site};

use clap::{Args, Parser, Subcommand};
use std::{fmt, net::SocketAddr, path::PathBuf};

/// askdesk: a desk where AI agents ask a human structured questions.
#[derive(Debug, Parser)]
#[command(name = "askdesk", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// How log lines on stderr are written: `text` for people, `json` for
    /// a log collector (one object a line: time, level, target, message,
    /// fields, and the request's id and span).
    #[arg(long, env = "ASKDESK_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    pub log_format: LogFormat,
    /// Options of `serve`, which also runs when no subcommand is given.
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

/// What askdesk should do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web pages and the API (the default).
    Serve(ServeArgs),
    /// The people with tokens of their own, and their roles: `add`, `edit`,
    /// `list`, `remove`; signed-in browsers: `sessions`, `sign-out`. Works on the
    /// server's database (the same --database and environment) while it
    /// runs; a removal takes effect on every instance at its next request.
    #[command(subcommand)]
    People(PeopleCommand),
    /// Speak MCP on stdin/stdout for a client that launches askdesk: one
    /// tool, `ask_user`. Uses the server at --url, or starts one there.
    Mcp(DeskArgs),
    /// Run an Agent Client Protocol agent for an editor (Zed, JetBrains):
    /// `askdesk acp -- AGENT [ARGS…]` starts it and passes every message
    /// both ways; its permission prompts and forms also go to the desk at
    /// --url, and the first answer, the editor's or the desk's, counts.
    /// Without a desk, the editor asks as usual.
    Acp(AcpArgs),
    /// Answer OpenCode's questions and permission requests at the desk:
    /// follows `opencode serve`'s events at --server (every project),
    /// puts each request to the desk at --url and posts the answer back;
    /// OpenCode's own window still answers too, and the first answer
    /// counts. Runs until stopped.
    Opencode(OpencodeArgs),
    /// Answer a server's asks in the terminal: its queue, live.
    Tui(tui::TuiArgs),
    /// Hooks for agents' own question tools: their questions go to the desk.
    #[command(subcommand)]
    Hook(Hook),
    /// Write askdesk's MCP server, and its hooks where the agent has them,
    /// into the agent's own settings with this binary's path: merged into
    /// what is there, so a second run changes nothing. Exit codes: 0 done
    /// (or nothing to do), 1 a settings file could not be read or written.
    Setup(SetupArgs),
    /// Check that the agents set up here reach askdesk: their settings
    /// files parse, each hook's and MCP entry's command exists and is this
    /// askdesk, each hook answers a harmless test event, and the desk
    /// answers at --url and takes the token. One line per check, with the
    /// fix. Exit codes: 0 all good, 1 a check failed.
    Doctor(DeskArgs),
    /// Answer a request file (or `-` for stdin) in the terminal, with no
    /// server. Exit codes: 0 answered (the answers JSON on stdout), 3
    /// declined, 130 interrupted, 1 the request is invalid.
    Answer(tui::AnswerArgs),
    /// Stop the desk `askdesk mcp` or the hook started at --url when none
    /// answered there. Exit codes: 0 stopped, or none was running; 1 it
    /// would not stop.
    Stop(StopArgs),
    /// Write a consistent copy of a SQLite desk to FILE, also while it
    /// serves and takes answers (SQLite's `VACUUM INTO`): every answer
    /// acknowledged before the backup began is in the copy. FILE must not
    /// exist yet. A PostgreSQL desk is backed up with `pg_dump` (README).
    Backup {
        /// Where the copy goes; serve it with `--database FILE`.
        file: PathBuf,
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// Print the completion script of a shell on stdout, e.g.
    /// `askdesk completions bash > ~/.local/share/bash-completion/completions/askdesk`.
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Print askdesk's manual page (roff) on stdout, e.g.
    /// `askdesk man > ~/.local/share/man/man1/askdesk.1`.
    Man,
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
    /// Remove asks finished longer ago than this (`90d`, `12h`; a bare
    /// number is seconds), with their events and notifications, in small
    /// batches, at start and every hour after. Default: keep every ask.
    #[arg(long, env = "ASKDESK_KEEP_FINISHED", value_parser = parse_duration)]
    pub keep_finished: Option<std::time::Duration>,
    /// The URL people and agents reach this server at, e.g.
    /// `https://desk.example.com`. Links to asks start with it, and its host
    /// is accepted in `Host` and `Origin`. Default: `http://<addr>`, or
    /// `https://<addr>` with --tls-cert.
    #[arg(long, env = "ASKDESK_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Serve https with this certificate (PEM, the chain after it), and no
    /// http; needs --tls-key. A renewed certificate written over the file
    /// is served without a restart.
    #[arg(long, env = "ASKDESK_TLS_CERT")]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM).
    #[arg(long, env = "ASKDESK_TLS_KEY")]
    pub tls_key: Option<PathBuf>,
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
    /// the shared one): an ask's link alone never does, nor an agent's
    /// client, notifications carry no answer buttons, and a person answers
    /// only the asks for them (`to`) or for anyone. Needs --token or people
    /// (`askdesk people add`).
    #[arg(long, env = "ASKDESK_ANSWER_REQUIRES_SIGN_IN")]
    pub answer_requires_sign_in: bool,
    /// Let an ask's link alone answer and decline it also on a desk with
    /// people. By default a desk with people takes answers only from
    /// signed-in people (and notifications' buttons), so the record says
    /// who answered; a desk without people always lets the link answer.
    #[arg(
        long,
        env = "ASKDESK_ANSWER_BY_LINK",
        conflicts_with = "answer_requires_sign_in"
    )]
    pub answer_by_link: bool,
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
    /// Seconds a client may take to send a request's headers, and a
    /// kept-alive connection may sit idle before its next request; then
    /// the connection is closed.
    #[arg(long, env = "ASKDESK_HEADER_TIMEOUT", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=300))]
    pub header_timeout: u64,
    /// The most connections one client address may hold open; more are
    /// closed at once. 0: no limit. Behind a reverse proxy every client has
    /// the proxy's address: raise it there, or use 0.
    #[arg(
        long,
        env = "ASKDESK_MAX_CONNECTIONS_PER_ADDRESS",
        default_value_t = 512
    )]
    pub max_connections_per_address: u32,
    /// The most requests that wait (long-polls, event streams, MCP calls)
    /// one client address may have open; more get 429. 0: no limit.
    #[arg(long, env = "ASKDESK_MAX_WAITS_PER_ADDRESS", default_value_t = 256)]
    pub max_waits_per_address: u32,
    /// Seconds between SIGTERM (or Ctrl-C) and the server's stop, in which
    /// `/readyz` answers 503 so that a load balancer takes this instance
    /// out while it still serves; a second signal ends the wait.
    #[arg(long, env = "ASKDESK_SHUTDOWN_GRACE", default_value_t = 0)]
    pub shutdown_grace: u64,
    /// Also serve `/metrics` on this address of its own, without a token,
    /// for a Prometheus that has none (e.g. 127.0.0.1:9464). Without it,
    /// `/metrics` is on the main address for the admin token.
    #[arg(long, env = "ASKDESK_METRICS_ADDR", value_name = "ADDR")]
    pub metrics_addr: Option<SocketAddr>,
    /// Sign-in with the company's identity provider.
    #[command(flatten)]
    pub oidc: OidcArgs,
    /// askdesk as the OAuth authorization server of `/mcp`.
    #[command(flatten)]
    pub oauth: OAuthArgs,
}

impl fmt::Debug for ServeArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServeArgs")
            .field("addr", &self.addr)
            .field(
                "database",
                &database_at(self.database.as_deref())
                    .map(|d| d.to_string())
                    .ok(),
            )
            .field("database_connections", &self.database_connections)
            .field("database_timeout", &self.database_timeout)
            .field("keep_events", &self.keep_events)
            .field("keep_finished", &self.keep_finished)
            .field("public_url", &self.public_url)
            .field("tls_cert", &self.tls_cert)
            .field("tls_key", &self.tls_key)
            .field("token", &self.token.as_ref().map(|_| "<set>"))
            .field("allowed_hosts", &self.allowed_hosts)
            .field("mcp_default_timeout", &self.mcp_default_timeout)
            .field("elicit", &self.elicit)
            .field("answer_requires_sign_in", &self.answer_requires_sign_in)
            .field("answer_by_link", &self.answer_by_link)
            .field("create_limit", &self.create_limit)
            .field("frame_ancestors", &self.frame_ancestors)
            .field("embed_origin", &self.embed_origin)
            .field("site_root", &self.site_root)
            .field("notify", &channels(self).map(|c| c.names()).ok())
            .field(
                "notify_secret",
                &self.notify_secret.as_ref().map(|_| "<set>"),
            )
            .field("notify_give_up", &self.notify_give_up)
            .field("header_timeout", &self.header_timeout)
            .field(
                "max_connections_per_address",
                &self.max_connections_per_address,
            )
            .field("max_waits_per_address", &self.max_waits_per_address)
            .field("shutdown_grace", &self.shutdown_grace)
            .field("metrics_addr", &self.metrics_addr)
            .field("oidc", &self.oidc)
            .field("oauth", &self.oauth)
            .field("web_push", &self.web_push)
            .field("remind_after", &self.remind_after)
            .field("remind_max", &self.remind_max)
            .field("escalate_after", &self.escalate_after)
            .field("escalate", &self.escalate.as_ref().map(|_| "<set>"))
            .finish()
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

//! What each command other than `serve` takes: `stop`, `people`, the
//! hooks, `setup` and `mcp`.

use super::ServeArgs;
use clap::{Args, Subcommand};
use std::path::PathBuf;

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
        /// An agent only: its client may relay the answers a person gives
        /// inside the agent's host (the client's own form, askdesk's form
        /// shown there), recorded as relayed by this agent with no person
        /// named. Without it, people answer this agent's asks at the desk.
        #[arg(long)]
        relays_answers: bool,
        /// Their email address: the identity provider's verified email
        /// that signs them in (--oidc-issuer); one person each.
        #[arg(long, value_name = "ADDRESS")]
        email: Option<String>,
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// Change what someone may do: whether an agent relays answers given
    /// inside its host, and the email address a person signs in with.
    /// Takes effect at their next request, on every instance.
    #[command(group(
        clap::ArgGroup::new("change")
            .required(true)
            .multiple(true)
            .args(["relays_answers", "no_relays_answers", "email", "no_email"])
    ))]
    Edit {
        /// Their name.
        name: String,
        /// Let this agent's client relay answers given inside its host.
        #[arg(long, conflicts_with = "no_relays_answers")]
        relays_answers: bool,
        /// Stop this agent's client relaying answers: people answer its
        /// asks at the desk.
        #[arg(long)]
        no_relays_answers: bool,
        /// Sign them in by this verified email address from now on.
        #[arg(long, value_name = "ADDRESS", conflicts_with = "no_email")]
        email: Option<String>,
        /// Sign them in by their token only.
        #[arg(long)]
        no_email: bool,
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
    /// List the signed-in browsers (the desk's pages, and phones signed in
    /// by a one-time link): id, whose, how, since and until; never their
    /// cookies.
    Sessions {
        /// Only this person's.
        name: Option<String>,
        /// One JSON object per session instead of a table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// Sign a browser out: the session with this id (from `askdesk people
    /// sessions`) stops working at its next request, on every instance.
    SignOut {
        /// The session's id.
        id: String,
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// List the applications connected by OAuth (claude.ai, ChatGPT, …):
    /// id, whose, the agent each acts as, the client, since when; never
    /// their tokens.
    Grants {
        /// Only this person's.
        name: Option<String>,
        /// One JSON object per grant instead of a table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// Disconnect an application: the grant with this id (from `askdesk
    /// people grants`) and all its tokens stop working at once, on every
    /// instance. Its agent and its asks stay.
    Revoke {
        /// The grant's id.
        id: String,
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
    /// Claude Code asks in its terminal as usual. As a `PermissionRequest`
    /// hook it puts the permission prompt to the desk: allow once, always
    /// allow, or deny.
    ClaudeCode(DeskArgs),
    /// A Codex `PermissionRequest` hook: Codex's approval prompt goes to
    /// the desk, and the person's allow or deny comes back as the hook's
    /// decision. Without a desk it prints nothing, and Codex asks as usual.
    Codex(DeskArgs),
}

/// Options of `askdesk acp`.
#[derive(Debug, Clone, Args)]
pub struct AcpArgs {
    /// Where the desk is, as for the hooks.
    #[command(flatten)]
    pub desk: DeskArgs,
    /// The agent's command and its arguments, after `--` (e.g.
    /// `askdesk acp -- claude-agent-acp`).
    #[arg(last = true, required = true, value_name = "AGENT")]
    pub agent: Vec<String>,
}

/// Options of `askdesk opencode`.
#[derive(Debug, Clone, Args)]
pub struct OpencodeArgs {
    /// Where the desk is, as for the hooks.
    #[command(flatten)]
    pub desk: DeskArgs,
    /// The OpenCode server (`opencode serve --port 4096`).
    #[arg(
        long,
        env = "ASKDESK_OPENCODE_SERVER",
        value_name = "URL",
        default_value = "http://127.0.0.1:4096"
    )]
    pub server: String,
    /// End when standard input closes: how the plugin `askdesk setup
    /// opencode` writes ties the bridge to the OpenCode that started it.
    #[arg(long)]
    pub until_stdin_closes: bool,
}

/// Options of `askdesk setup`.
#[derive(Debug, Clone, Args)]
pub struct SetupArgs {
    /// The agent whose settings askdesk joins; or `claude-ai` or
    /// `chatgpt`, which connect by OAuth with nothing to write: the URL to
    /// paste and the steps are printed.
    #[arg(value_parser = products())]
    pub product: SetupTarget,
    /// `claude-ai` and `chatgpt` only: the desk's public https URL (what
    /// --public-url says), which the host reaches from the internet.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// The current directory's project files, to commit with it, instead
    /// of the user's own settings.
    #[arg(long)]
    pub project: bool,
    /// Print the change as a unified diff, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Take askdesk's entries out instead, and nothing else.
    #[arg(long)]
    pub remove: bool,
    /// Claude Code only: ask "what next?" at the desk whenever the agent
    /// finishes its turn (its Stop hook); typed text goes on as the next
    /// instruction, Done lets it stop.
    #[arg(long)]
    pub ask_on_stop: bool,
}

/// What `askdesk setup` sets up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetupTarget {
    /// An agent on this machine, whose settings files askdesk joins.
    Agent(setup::Product),
    /// A host that connects to the desk over the internet by OAuth.
    Connector(Connector),
}

/// The hosts that connect by OAuth, from their makers' clouds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connector {
    /// claude.ai, Claude Desktop and Claude's mobile apps (custom
    /// connectors).
    ClaudeAi,
    /// ChatGPT (apps and connectors in developer mode).
    ChatGpt,
}

impl Connector {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::ClaudeAi => "claude-ai",
            Self::ChatGpt => "chatgpt",
        }
    }
}

fn products() -> impl clap::builder::TypedValueParser<Value = SetupTarget> {
    use clap::builder::TypedValueParser;
    let names = setup::Product::ALL
        .map(setup::Product::name)
        .into_iter()
        .chain([Connector::ClaudeAi.name(), Connector::ChatGpt.name()]);
    clap::builder::PossibleValuesParser::new(names).try_map(|name| {
        [Connector::ClaudeAi, Connector::ChatGpt]
            .into_iter()
            .find(|c| c.name() == name)
            .map(SetupTarget::Connector)
            .or_else(|| setup::Product::from_name(&name).map(SetupTarget::Agent))
            .ok_or("not an agent askdesk knows")
    })
}

/// How `askdesk mcp` and the hooks find their desk, or start one: both
/// are clients of a desk at `--url` (`agents::detached`).
#[derive(Debug, Clone, Args)]
pub struct DeskArgs {
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

impl DeskArgs {
    /// Where the agents' doors find this desk, and how they start one
    /// there: `askdesk serve` with these settings at the address.
    pub fn place(&self) -> agents::detached::Place {
        let serve = self.serve.clone();
        agents::detached::Place {
            url: self.url.clone(),
            token: self.serve.token.clone(),
            ca_cert: self.ca_cert.clone(),
            folder: super::data_folder().map_err(|e| e.to_string()),
            serve: std::sync::Arc::new(move |addr| {
                let mut serve = serve.clone();
                serve.addr = addr;
                serve.to_command()
            }),
        }
    }
}

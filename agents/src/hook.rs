//! `askdesk hook claude-code` and `askdesk hook codex`: an agent's hook
//! events answered at the desk. The hook reads one event on stdin, puts it
//! to the desk as an ask, waits for the person and prints the decision in
//! the product's own format.
//!
//! Each event is a file of its own under `hook/`, implementing
//! [`HookEvent`]: the ask it puts, how a hook run again for the same event
//! finds that ask, and what its answer prints. [`Event`] names them by
//! `hook_event_name`; [`run`] is the one pipeline every event goes through
//! (read, find or start the desk, create, wait, decide, print).
//!
//! A hook never blocks its agent on its own error: whatever goes wrong
//! ([`AsUsual`]) prints nothing on stdout and one line on stderr, and the
//! command exits 0, so the agent asks in its terminal as usual. An event
//! that is not askdesk's to answer (another tool's `PreToolUse`) prints
//! nothing at all.

pub(crate) mod elicitation;
mod permission;
mod pre_tool_use;
mod request_user_input;
mod stop;
pub(crate) mod transcript;

pub(crate) use permission::relayed;

use crate::backend::{Backend, BackendError, BY_CLIENT_TOKEN};
use interaction::{Ask, AskCreated, NewAsk, Problems};
use serde::Deserialize;
use serde_json::Value;

/// The product whose hook runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    ClaudeCode,
    Codex,
}

impl Agent {
    /// Its name for people.
    fn title(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "Claude Code",
            Agent::Codex => "Codex",
        }
    }

    /// The events its hook answers, as it names them.
    fn events(self) -> &'static [&'static str] {
        match self {
            Agent::ClaudeCode => &["PreToolUse", "PermissionRequest", "Elicitation", "Stop"],
            Agent::Codex => &["PermissionRequest", "PreToolUse"],
        }
    }
}

/// An event as the products send it, by its `hook_event_name`. A new
/// event is a variant here and a file under `hook/`.
#[derive(Debug, Deserialize)]
#[serde(tag = "hook_event_name")]
enum Event {
    /// Claude Code's `AskUserQuestion` tool call, or Codex's
    /// `request_user_input` ([`pre_tool_use`]).
    PreToolUse(pre_tool_use::PreToolUse),
    /// Either product's permission prompt ([`permission`]).
    PermissionRequest(permission::PermissionRequest),
    /// Another MCP server asks Claude Code's person for a form
    /// ([`elicitation`]).
    Elicitation(elicitation::Elicitation),
    /// Claude Code's agent finished its turn: "what next?" ([`stop`]).
    Stop(stop::Stop),
}

/// One kind of hook event: what it asks at the desk and what it prints
/// once the ask has ended.
trait HookEvent {
    /// The ask to put, or `None` when this event is not askdesk's to
    /// answer (the agent goes on without a word from the hook).
    fn ask(&self, agent: Agent) -> Result<Option<NewAsk>, AsUsual>;

    /// The idempotency key a hook run again for the same event finds its
    /// ask by; none for an event asked anew each time.
    fn key(&self) -> Option<String> {
        None
    }

    /// Puts `new` to the desk under [`HookEvent::key`], so that a hook
    /// run again for the same event finds the same ask.
    async fn create(
        &self,
        backend: &Backend,
        _agent: Agent,
        new: NewAsk,
    ) -> Result<AskCreated, BackendError> {
        backend
            .create(new, self.key().as_deref(), &BY_CLIENT_TOKEN)
            .await
    }

    /// What the hook prints for the ended `ask`; nothing, for an answer
    /// that lets the agent go on as it would have.
    fn output(&self, ask: &Ask) -> Result<Option<Value>, AsUsual>;
}

/// Why the hook leaves the agent to ask as usual, in one line for stderr.
#[derive(Debug, thiserror::Error)]
pub enum AsUsual {
    #[error("the hook input is not JSON ({0})")]
    NotJson(serde_json::Error),
    #[error("askdesk answers {agent}'s {answered} event, not {event}")]
    OtherEvent {
        agent: &'static str,
        answered: String,
        event: String,
    },
    #[error("the hook input is not {agent}'s {event} JSON ({error})")]
    Unreadable {
        agent: &'static str,
        event: String,
        error: serde_json::Error,
    },
    #[error("{0}")]
    Unaskable(String),
    #[error("{0}")]
    NoDesk(String),
    #[error("the desk refused the questions: {0}")]
    Refused(BackendError),
    #[error("waiting for the answer failed: {0}")]
    Waiting(BackendError),
    #[error("the desk's answer does not fit the prompt: {0}")]
    Misfit(Problems),
    #[error("the desk's answer names none of the prompt's choices")]
    NoChoice,
    #[error("{0}")]
    Unfitting(String),
    #[error("the decision could not be written: {0}")]
    Unwritable(serde_json::Error),
}

/// How a hook reaches the desk: the binary finds one at its URL, or
/// starts one there (its detached desk), as `askdesk mcp` does.
pub trait Reach: Sync {
    /// The desk, or why there is none, in one line.
    fn reach(&self) -> impl std::future::Future<Output = Result<Backend, String>> + Send;
}

/// `askdesk hook claude-code`: Claude Code's event on `stdin`; returns
/// what to print on stdout, if anything.
pub async fn claude_code(desk: &impl Reach, stdin: &str) -> Option<String> {
    run(Agent::ClaudeCode, desk, stdin).await
}

/// `askdesk hook codex`: Codex's event on `stdin`; returns what to print
/// on stdout, if anything.
pub async fn codex(desk: &impl Reach, stdin: &str) -> Option<String> {
    run(Agent::Codex, desk, stdin).await
}

/// Runs `agent`'s hook on `stdin`: the one place that says why the agent
/// asks as usual.
async fn run(agent: Agent, args: &impl Reach, stdin: &str) -> Option<String> {
    match answer(agent, args, stdin).await {
        Ok(output) => output,
        Err(why) => {
            eprintln!("askdesk hook: {why}; {} asks as usual", agent.title());
            None
        }
    }
}

/// The event on `stdin`, put to the desk and answered: what to print.
async fn answer(agent: Agent, args: &impl Reach, stdin: &str) -> Result<Option<String>, AsUsual> {
    let input: Value = serde_json::from_str(stdin).map_err(AsUsual::NotJson)?;
    let name = input
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if !agent.events().contains(&name.as_str()) {
        return Err(AsUsual::OtherEvent {
            agent: agent.title(),
            answered: agent.events().join(" and "),
            event: if name.is_empty() {
                "an event without a name".to_owned()
            } else {
                name
            },
        });
    }
    // From the text, not the value: a form's properties keep their order.
    let event = serde_json::from_str::<Event>(stdin).map_err(|error| AsUsual::Unreadable {
        agent: agent.title(),
        event: name,
        error,
    })?;
    // What the agent last said, shown above any event's questions.
    let context = || {
        input
            .get("transcript_path")
            .and_then(Value::as_str)
            .and_then(|path| transcript::last_message(std::path::Path::new(path)))
    };
    let printed = match &event {
        Event::PreToolUse(event) => put_and_wait(agent, args, event, context).await?,
        Event::PermissionRequest(event) => put_and_wait(agent, args, event, context).await?,
        Event::Elicitation(event) => put_and_wait(agent, args, event, context).await?,
        Event::Stop(event) => put_and_wait(agent, args, event, context).await?,
    };
    printed
        .map(|output| serde_json::to_string(&output).map_err(AsUsual::Unwritable))
        .transpose()
}

/// The pipeline of every event: its ask put to the desk (found, or
/// started as `askdesk mcp` starts it) with what the agent was doing
/// (`context`, where the event says nothing of it), waited for, and
/// decided.
async fn put_and_wait(
    agent: Agent,
    args: &impl Reach,
    event: &impl HookEvent,
    context: impl FnOnce() -> Option<String>,
) -> Result<Option<Value>, AsUsual> {
    let Some(mut new) = event.ask(agent)? else {
        return Ok(None);
    };
    if new.context.is_none() {
        new.context = context();
    }
    let backend = args.reach().await.map_err(AsUsual::NoDesk)?;
    let created = event
        .create(&backend, agent, new)
        .await
        .map_err(AsUsual::Refused)?;
    eprintln!("askdesk: answer at {}", created.url);
    let ask = backend
        .ended(&created.id, &BY_CLIENT_TOKEN)
        .await
        .map_err(AsUsual::Waiting)?;
    event.output(&ask)
}

/// Who asks: the agent, and the folder it works in.
fn agent_name(agent: Agent, cwd: Option<&str>) -> String {
    let folder = cwd
        .and_then(|cwd| std::path::Path::new(cwd).file_name())
        .map(|name| name.to_string_lossy().into_owned());
    match folder {
        Some(folder) => format!("{} · {folder}", agent.title()),
        None => agent.title().to_owned(),
    }
}

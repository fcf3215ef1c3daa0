//! Agents' permission prompts as asks: Claude Code's `PermissionRequest`
//! hook event (through `askdesk hook claude-code`) and Codex's (through
//! `askdesk hook codex`). The prompt becomes one single-select question
//! ([`prompt`]): Allow once, Always allow (when the event offers rules to
//! keep), Deny, with Other text as a denial in the person's words. The
//! answer becomes the hook's decision.
//!
//! Written against Claude Code's hooks reference (code.claude.com/docs/en/hooks:
//! "PermissionRequest", its input, "PermissionRequest decision control" and
//! "Permission update entries") and Codex's hook schemas in openai/codex
//! (`codex-rs/hooks/schema/generated/permission-request.command.input.schema.json`,
//! `…/permission-request.command.output.schema.json`, `codex-rs/hooks/src/schema.rs`,
//! and the pull request that added the event, openai/codex#17563), which
//! the Hooks page of developers.openai.com/codex/hooks documents.
//!
//! What both do alike: the event is `PermissionRequest`, its input has
//! `cwd`, `tool_name` and `tool_input`, and a hook that prints
//! `{"hookSpecificOutput": {"hookEventName": "PermissionRequest",
//! "decision": {"behavior": "allow" | "deny", …}}}` decides; `message`
//! tells the agent why it was denied, and a hook that prints nothing lets
//! the agent ask as usual. Neither sends a `tool_use_id` with this event
//! (see [`create`] for how a retried hook finds its ask anyway).
//!
//! Where they differ: Codex adds `turn_id` and `model`; its shell and
//! network approvals come as `tool_name` `Bash` with `tool_input`
//! `{command, description}`. Claude Code may send `permission_suggestions`
//! (the dialog's "always allow" entries: `addRules`, `setMode`,
//! `addDirectories`, …), which a hook echoes as `updatedPermissions`;
//! Codex sends them only in versions that apply them (`addRules` with
//! `prefixRule`s), and older ones fail closed on `updatedPermissions`, so
//! Always allow is offered only when the event brings suggestions. Codex
//! fails closed on `updatedInput` and on `interrupt: true`, so neither is
//! ever sent; nor is `defer`, which is neither product's answer here.

mod prompt;
pub(crate) mod relayed;

use super::{Agent, AsUsual, HookEvent};
use crate::backend::{Backend, BackendError, BY_CLIENT_TOKEN};
use interaction::{json_quote, Answers, Ask, AskCreated, AskStatus, IdempotencyKey, NewAsk};
use prompt::Choice;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The event both products name a permission prompt.
const EVENT: &str = "PermissionRequest";

/// Claude Code's own question tool. Allowing its permission prompt would
/// send it on with empty answers; the `PreToolUse` path asks its questions.
const ASK_USER_QUESTION: &str = "AskUserQuestion";

/// How many ended asks one prompt without a `tool_use_id` steps past
/// before it asks without a key (see [`create`](HookEvent::create)).
const MAX_GENERATIONS: u32 = 64;

impl Agent {
    /// The start of its idempotency keys.
    fn permission_key(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude-code-permission",
            Agent::Codex => "codex-permission",
        }
    }
}

/// What either product sends a `PermissionRequest` hook (the fields used
/// here; the rest are ignored).
#[derive(Debug, Deserialize)]
pub(super) struct PermissionRequest {
    #[serde(default)]
    session_id: Option<String>,
    /// Codex's turn.
    #[serde(default)]
    turn_id: Option<String>,
    /// Claude Code's subagent, when one asks.
    #[serde(default)]
    agent_id: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
    tool_name: String,
    #[serde(default)]
    tool_input: Value,
    /// Not in either product's documented input; used when present.
    #[serde(default)]
    tool_use_id: Option<String>,
    #[serde(default)]
    permission_suggestions: Option<Vec<Value>>,
}

impl PermissionRequest {
    fn suggestions(&self) -> &[Value] {
        self.permission_suggestions.as_deref().unwrap_or_default()
    }
}

/// What the hook prints.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Output {
    hook_specific_output: Specific,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Specific {
    hook_event_name: &'static str,
    decision: Decision,
}

/// The decision, as both products read it.
#[derive(Debug, Serialize)]
#[serde(tag = "behavior", rename_all = "lowercase")]
enum Decision {
    Allow {
        /// The event's suggestions, for Always allow.
        #[serde(rename = "updatedPermissions", skip_serializing_if = "Option::is_none")]
        updated_permissions: Option<Vec<Value>>,
    },
    Deny {
        message: String,
    },
}

impl HookEvent for PermissionRequest {
    fn ask(&self, agent: Agent) -> Result<Option<NewAsk>, AsUsual> {
        if self.tool_name == ASK_USER_QUESTION {
            return Ok(None);
        }
        prompt::ask(agent, self).map(Some).map_err(|e| {
            AsUsual::Unaskable(format!(
                "the permission prompt could not be put as an ask ({e})"
            ))
        })
    }

    /// Puts the prompt to the desk, so that a hook run again for the same
    /// prompt finds the same ask.
    ///
    /// With a `tool_use_id` the key is made from it, as the `PreToolUse`
    /// path does: one tool call, one ask, ended or not. Neither product
    /// documents one for this event, so otherwise the key is a digest of the
    /// prompt (its session, turn, folder, tool and input) with a generation:
    /// an ask of that digest still pending is the same prompt asked again,
    /// and one that has ended was an earlier call with the same input, so
    /// the next generation is asked. An answer for one call never answers a
    /// later one.
    async fn create(
        &self,
        backend: &Backend,
        agent: Agent,
        new: NewAsk,
    ) -> Result<AskCreated, BackendError> {
        let by_id = self
            .tool_use_id
            .as_deref()
            .map(|id| format!("{}:{id}", agent.permission_key()))
            .filter(|key| IdempotencyKey::parse(key, "").is_ok());
        if let Some(key) = by_id {
            return backend.create(new, Some(&key), &BY_CLIENT_TOKEN).await;
        }
        let digest = digest(agent, self);
        for generation in 0..MAX_GENERATIONS {
            let key = format!("{}:{digest}:{generation}", agent.permission_key());
            let created = backend
                .create(new.clone(), Some(&key), &BY_CLIENT_TOKEN)
                .await?;
            if !created.status.is_finished() {
                return Ok(created);
            }
        }
        backend.create(new, None, &BY_CLIENT_TOKEN).await
    }

    fn output(&self, ask: &Ask) -> Result<Option<Value>, AsUsual> {
        let output = Output {
            hook_specific_output: Specific {
                hook_event_name: EVENT,
                decision: decide(ask, self.suggestions())?,
            },
        };
        serde_json::to_value(output)
            .map(Some)
            .map_err(AsUsual::Unwritable)
    }
}

/// What makes two events the same prompt, as hex.
fn digest(agent: Agent, event: &PermissionRequest) -> String {
    use sha2::{Digest, Sha256};
    let content = (
        agent.permission_key(),
        &event.session_id,
        &event.turn_id,
        &event.agent_id,
        &event.cwd,
        &event.tool_name,
        &event.tool_input,
        event.suggestions(),
    );
    let json = serde_json::to_vec(&content).unwrap_or_default();
    hex::encode(Sha256::digest(&json))
}

/// The decision for an ask that has ended; refused when its answers do
/// not pass the validator, so the agent asks as usual.
fn decide(ask: &Ask, suggestions: &[Value]) -> Result<Decision, AsUsual> {
    let deny = |message: String| Ok(Decision::Deny { message });
    match (ask.status, &ask.answers) {
        (AskStatus::Answered, Some(items)) => {
            let answers = Answers {
                answers: items.clone(),
            };
            let valid = ask
                .request
                .validate_answers(answers)
                .map_err(AsUsual::Misfit)?;
            match valid
                .items()
                .first()
                .and_then(Choice::of)
                .ok_or(AsUsual::NoChoice)?
            {
                Choice::AllowOnce => Ok(Decision::Allow {
                    updated_permissions: None,
                }),
                Choice::AlwaysAllow => Ok(Decision::Allow {
                    updated_permissions: Some(suggestions.to_vec()),
                }),
                Choice::Deny => deny("The user denied this at askdesk.".to_owned()),
                Choice::Said(text) => deny(format!(
                    "The user denied this at askdesk, writing: {}",
                    json_quote(text)
                )),
            }
        }
        (AskStatus::Declined, _) => deny(match &ask.decline_reason {
            Some(reason) => format!(
                "The user declined to decide at askdesk, so this is denied: {}",
                json_quote(reason)
            ),
            None => "The user declined to decide at askdesk, so this is denied.".to_owned(),
        }),
        (status, _) => deny(format!(
            "The permission request was {} at askdesk before the user answered, so this is denied.",
            status.as_str()
        )),
    }
}

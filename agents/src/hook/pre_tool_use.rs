//! Claude Code's `PreToolUse` event for its built-in `AskUserQuestion`:
//! the tool call's questions put to the desk (through the lenient input,
//! like `ask_user`), and the decision printed: `allow` with the answers in
//! the tool's own format (and askdesk's faithful projection as context), or
//! `deny` when the person declined or the ask ended unanswered. Other
//! tools' calls are not askdesk's to answer. Codex's `PreToolUse` for its
//! `request_user_input` is [`request_user_input`]'s.

use super::{agent_name, request_user_input, Agent, AsUsual, HookEvent};
use interaction::{claude_code_answer, Ask, AskStatus, LenientAsk, LenientQuestion, NewAsk};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The tool whose calls this event answers.
const TOOL: &str = "AskUserQuestion";

/// What Claude Code sends a `PreToolUse` hook (the fields used here).
#[derive(Debug, Deserialize)]
pub(super) struct PreToolUse {
    #[serde(default)]
    cwd: Option<String>,
    tool_name: String,
    #[serde(default)]
    tool_input: Map<String, Value>,
    #[serde(default)]
    tool_use_id: Option<String>,
}

/// The questions of an `AskUserQuestion` call.
#[derive(Debug, Deserialize)]
struct ToolInput {
    questions: Vec<LenientQuestion>,
}

/// What the hook prints: Claude Code's `hookSpecificOutput`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Output {
    hook_specific_output: Decision,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Decision {
    hook_event_name: &'static str,
    permission_decision: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    permission_decision_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    updated_input: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    additional_context: Option<String>,
}

impl HookEvent for PreToolUse {
    fn ask(&self, agent: Agent) -> Result<Option<NewAsk>, AsUsual> {
        if agent == Agent::Codex {
            if self.tool_name != request_user_input::TOOL {
                return Ok(None);
            }
            let name = agent_name(agent, self.cwd.as_deref());
            return request_user_input::ask(&self.tool_input, name)
                .map(Some)
                .map_err(AsUsual::Unaskable);
        }
        if self.tool_name != TOOL {
            return Ok(None);
        }
        let input: ToolInput = serde_json::from_value(Value::Object(self.tool_input.clone()))
            .map_err(|e| {
                AsUsual::Unaskable(format!(
                    "{TOOL}'s input has no questions askdesk can read ({e})"
                ))
            })?;
        let new = LenientAsk {
            questions: input.questions,
            title: None,
            context: None,
            agent: Some(agent_name(agent, self.cwd.as_deref())),
            timeout_seconds: None,
            wait_seconds: None,
            idempotency_key: None,
            to: Vec::new(),
            default_answers: None,
        }
        .into_new_ask();
        Ok(Some(new))
    }

    /// One tool call, one ask: a retried hook (the same `tool_use_id`)
    /// finds the ask it made before.
    fn key(&self) -> Option<String> {
        let id = self.tool_use_id.as_deref()?;
        if self.tool_name == request_user_input::TOOL {
            return Some(format!("codex:{id}"));
        }
        Some(format!("claude-code:{id}"))
    }

    fn output(&self, ask: &Ask) -> Result<Option<Value>, AsUsual> {
        let output = if self.tool_name == request_user_input::TOOL {
            Output {
                hook_specific_output: Decision {
                    hook_event_name: "PreToolUse",
                    permission_decision: "deny",
                    permission_decision_reason: Some(request_user_input::reason(ask)),
                    updated_input: None,
                    additional_context: None,
                },
            }
        } else {
            decision(ask, &self.tool_input)
        };
        serde_json::to_value(output)
            .map(Some)
            .map_err(AsUsual::Unwritable)
    }
}

/// The hook's decision for an ask that has ended.
fn decision(ask: &Ask, tool_input: &Map<String, Value>) -> Output {
    let text = ask.projection.as_ref().map(|p| p.text.clone());
    let deny = |reason: String| Decision {
        hook_event_name: "PreToolUse",
        permission_decision: "deny",
        permission_decision_reason: Some(reason),
        updated_input: None,
        additional_context: None,
    };
    let decision = match (ask.status, &ask.answers) {
        (AskStatus::Answered, Some(items)) => {
            let answers: Map<String, Value> = ask
                .request
                .questions()
                .iter()
                .filter_map(|q| {
                    let item = items.iter().find(|item| item.id == q.id)?;
                    Some((q.question.clone(), Value::String(claude_code_answer(item))))
                })
                .collect();
            let mut updated = tool_input.clone();
            updated.insert("answers".to_owned(), Value::Object(answers));
            Decision {
                hook_event_name: "PreToolUse",
                permission_decision: "allow",
                permission_decision_reason: None,
                updated_input: Some(updated),
                additional_context: text,
            }
        }
        (AskStatus::Declined, _) => deny(match &ask.decline_reason {
            Some(reason) => format!(
                "The user declined to answer at askdesk: {}",
                interaction::json_quote(reason)
            ),
            None => "The user declined to answer at askdesk, without a reason.".to_owned(),
        }),
        (status, _) => deny(format!(
            "The question was {} at askdesk before the user answered.",
            status.as_str()
        )),
    };
    Output {
        hook_specific_output: decision,
    }
}

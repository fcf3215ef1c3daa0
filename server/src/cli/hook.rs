//! `askdesk hook claude-code`: Claude Code's built-in `AskUserQuestion`
//! answered at the desk. As a `PreToolUse` hook it reads the tool call on
//! stdin, puts the questions to the desk as an ask (through the lenient
//! input, like `ask_user`), waits for the person, and prints the decision:
//! `allow` with the answers in the tool's own format (and askdesk's
//! faithful projection as context), or `deny` when the person declined or
//! the ask ended unanswered. It always exits 0: a hook that fails, or finds
//! no desk, prints nothing and Claude Code asks in its terminal as usual.
//!
//! The same command takes Claude Code's `PermissionRequest` event, and
//! `askdesk hook codex` takes Codex's: both are in [`permission`].

mod permission;

pub use permission::codex;

use crate::cli::config::McpArgs;
use interaction::{claude_code_answer, Ask, AskStatus, LenientAsk, LenientQuestion};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The tool whose calls this hook answers.
const TOOL: &str = "AskUserQuestion";

/// What Claude Code sends a `PreToolUse` hook (the fields used here).
#[derive(Debug, Deserialize)]
struct HookInput {
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
struct HookOutput {
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

/// Runs the hook on `stdin`; returns what to print on stdout, if anything.
pub async fn claude_code(args: McpArgs, stdin: &str) -> Option<String> {
    if permission::is_permission_request(stdin) {
        return permission::run(permission::Agent::ClaudeCode, args, stdin).await;
    }
    let input: HookInput = match serde_json::from_str(stdin) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("askdesk hook: the hook input is not Claude Code's PreToolUse JSON ({e}); Claude Code asks as usual");
            return None;
        }
    };
    if input.tool_name != TOOL {
        return None;
    }
    let questions: ToolInput = match serde_json::from_value(Value::Object(input.tool_input.clone()))
    {
        Ok(questions) => questions,
        Err(e) => {
            eprintln!("askdesk hook: {TOOL}'s input has no questions askdesk can read ({e}); Claude Code asks as usual");
            return None;
        }
    };
    let new = LenientAsk {
        questions: questions.questions,
        title: None,
        agent: Some(agent_name("Claude Code", input.cwd.as_deref())),
        timeout_seconds: None,
        wait_seconds: None,
        idempotency_key: None,
        to: Vec::new(),
        default_answers: None,
    }
    .into_new_ask();
    let backend = match super::stdio::find_desk(&args).await {
        Ok(backend) => backend,
        Err(e) => {
            eprintln!("askdesk hook: {e}; Claude Code asks as usual");
            return None;
        }
    };
    // A retried hook (the same tool call) finds the ask it made before.
    let key = input
        .tool_use_id
        .as_deref()
        .map(|id| format!("claude-code:{id}"));
    let created = match backend.create(new, key.as_deref()).await {
        Ok(created) => created,
        Err(e) => {
            eprintln!(
                "askdesk hook: the desk refused the questions: {e}; Claude Code asks as usual"
            );
            return None;
        }
    };
    eprintln!("askdesk: answer at {}", created.url);
    let ask = ended(&backend, &created.id, "Claude Code").await?;
    let output = decision(&ask, &input.tool_input);
    serde_json::to_string(&output).ok()
}

/// Who asks: the agent, and the folder it works in.
fn agent_name(agent: &str, cwd: Option<&str>) -> String {
    let folder = cwd
        .and_then(|cwd| std::path::Path::new(cwd).file_name())
        .map(|name| name.to_string_lossy().into_owned());
    match folder {
        Some(folder) => format!("{agent} · {folder}"),
        None => agent.to_owned(),
    }
}

/// The ask once it has ended, waiting as long as it takes; `None` (said on
/// stderr) when the desk stops answering, so `agent` asks as usual.
async fn ended(backend: &crate::mcp::Backend, id: &str, agent: &str) -> Option<Ask> {
    loop {
        match backend.wait(id, desk::MAX_WAIT).await {
            Ok(ask) if ask.status.is_finished() => return Some(ask),
            Ok(_) => {}
            Err(e) => {
                eprintln!(
                    "askdesk hook: waiting for the answer failed: {e}; {agent} asks as usual"
                );
                return None;
            }
        }
    }
}

/// The hook's decision for an ask that has ended.
fn decision(ask: &Ask, tool_input: &Map<String, Value>) -> HookOutput {
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
    HookOutput {
        hook_specific_output: decision,
    }
}

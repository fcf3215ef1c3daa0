//! Claude Code's `Elicitation` event: another MCP server asks the person
//! for a form (`requested_schema`), and the desk asks it instead of
//! Claude Code's dialog ([`schema`] maps the schema to questions and the
//! answers back). The answer goes back as `hookSpecificOutput` with
//! `action` `accept` and `content` typed as the schema says; a decline is
//! `decline`, a withdrawn or expired ask `cancel`. URL mode, a schema
//! askdesk cannot express, an answer that does not fit it (Other text for
//! a choice) and askdesk's own elicitations (its `answerIn: "client"`
//! form) are left to Claude Code's dialog.

pub(crate) mod content;
pub(crate) mod schema;

use super::{agent_name, transcript, Agent, AsUsual, HookEvent};
use interaction::{Ask, AskStatus, NewAsk};
use schema::{Field, RequestedSchema};
use serde::Deserialize;
use serde_json::{json, Value};

/// The event's name, in what the hook prints.
const EVENT: &str = "Elicitation";

/// What Claude Code sends an `Elicitation` hook (the fields used here).
#[derive(Debug, Deserialize)]
pub(super) struct Elicitation {
    #[serde(default)]
    cwd: Option<String>,
    mcp_server_name: String,
    message: String,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    requested_schema: Option<RequestedSchema>,
    #[serde(default)]
    elicitation_id: Option<String>,
}

impl Elicitation {
    /// The form's fields, or why the desk cannot ask it.
    fn fields(&self) -> Result<Vec<Field>, AsUsual> {
        if self.mode.as_deref().is_some_and(|mode| mode != "form") {
            return Err(AsUsual::Unaskable(format!(
                "{} asks in {} mode, which askdesk leaves to Claude Code",
                self.mcp_server_name,
                self.mode.as_deref().unwrap_or_default()
            )));
        }
        let schema = self.requested_schema.as_ref().ok_or_else(|| {
            AsUsual::Unaskable(format!(
                "{}'s elicitation has no schema",
                self.mcp_server_name
            ))
        })?;
        schema::fields(schema).map_err(|e| AsUsual::Unaskable(e.to_string()))
    }
}

impl HookEvent for Elicitation {
    fn ask(&self, agent: Agent) -> Result<Option<NewAsk>, AsUsual> {
        // askdesk's own form in the client: the person chose to answer
        // there, not at the desk again.
        if self.mcp_server_name == setup::SERVER_NAME {
            return Ok(None);
        }
        let questions = self.fields()?.iter().map(schema::question).collect();
        let title = format!("{}: {}", self.mcp_server_name, self.message.trim());
        Ok(Some(NewAsk {
            questions,
            context: None,
            title: Some(transcript::head(&title, interaction::MAX_TITLE_CHARS)),
            agent: Some(agent_name(agent, self.cwd.as_deref())),
            timeout_seconds: None,
            to: Vec::new(),
            default_answers: None,
            session: None,
        }))
    }

    /// One elicitation, one ask: a retried hook (the same
    /// `elicitation_id`) finds the ask it made before.
    fn key(&self) -> Option<String> {
        let id = self.elicitation_id.as_deref()?;
        Some(format!("claude-code:elicitation:{id}"))
    }

    fn output(&self, ask: &Ask) -> Result<Option<Value>, AsUsual> {
        let (action, content) = match (ask.status, &ask.answers) {
            (AskStatus::Answered, Some(items)) => {
                let content = content::content(&self.fields()?, items)
                    .map_err(|misfit| AsUsual::Unfitting(misfit.to_string()))?;
                ("accept", Some(content))
            }
            (AskStatus::Declined, _) => ("decline", None),
            _ => ("cancel", None),
        };
        let mut output = json!({"hookEventName": EVENT, "action": action});
        if let Some(content) = content {
            output["content"] = Value::Object(content);
        }
        Ok(Some(json!({ "hookSpecificOutput": output })))
    }
}

#[cfg(test)]
mod tests;

//! A permission prompt Claude Code relays through its channel to
//! `askdesk mcp` (`notifications/claude/channel/permission_request`):
//! the same ask its `PermissionRequest` hook puts, read back the same way,
//! so the desk shows one kind of permission prompt whichever way it came.

use super::{decide, prompt, Decision, PermissionRequest};
use crate::hook::Agent;
use interaction::{Ask, AskStatus, NewAsk};
use serde_json::Value;

/// What Claude Code relays: the prompt's five-letter id, the tool, its
/// summary of the call, and the input as JSON cut to a preview.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Relayed {
    pub request_id: String,
    pub tool_name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub input_preview: String,
}

/// How the person decided a relayed prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    /// Denied; with what to tell the agent when the person wrote why.
    Deny(Option<String>),
}

impl Relayed {
    /// The ask: as the hook's, without "Always allow" (a channel's verdict
    /// is allow or deny only).
    pub fn ask(&self) -> Result<NewAsk, String> {
        prompt::ask(Agent::ClaudeCode, &self.as_event())
    }

    /// The event as the hook would have had it. The preview is JSON when
    /// it was short enough to stay whole; cut, it is shown as text.
    fn as_event(&self) -> PermissionRequest {
        let tool_input = match serde_json::from_str::<Value>(&self.input_preview) {
            Ok(Value::Object(mut input)) => {
                if !self.description.is_empty() {
                    input
                        .entry("description")
                        .or_insert_with(|| Value::String(self.description.clone()));
                }
                Value::Object(input)
            }
            _ if self.description.is_empty() => Value::String(self.input_preview.clone()),
            _ => Value::String(format!("{}\n\n{}", self.description, self.input_preview)),
        };
        PermissionRequest {
            session_id: None,
            turn_id: None,
            agent_id: None,
            cwd: None,
            tool_name: self.tool_name.clone(),
            tool_input,
            tool_use_id: None,
            permission_suggestions: None,
        }
    }
}

/// The verdict of an ended ask; `None` when nobody decided (withdrawn or
/// expired), so the terminal's dialog stays the one that decides.
pub fn verdict(ask: &Ask) -> Option<Verdict> {
    if !matches!(ask.status, AskStatus::Answered | AskStatus::Declined) {
        return None;
    }
    let wrote = ask.decline_reason.is_some()
        || ask
            .answers
            .iter()
            .flatten()
            .any(|item| item.custom.is_some());
    match decide(ask, &[]) {
        Ok(Decision::Allow { .. }) => Some(Verdict::Allow),
        Ok(Decision::Deny { message }) => Some(Verdict::Deny(wrote.then_some(message))),
        // Answers that no longer fit the prompt decide nothing.
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    fn relayed(preview: &str) -> Relayed {
        Relayed {
            request_id: "abcde".to_owned(),
            tool_name: "Bash".to_owned(),
            description: "List the files".to_owned(),
            input_preview: preview.to_owned(),
        }
    }

    #[test]
    fn a_whole_preview_is_the_input_and_a_cut_one_is_text() {
        let whole = relayed(r#"{"command":"ls -la"}"#).as_event();
        let mut input = Map::new();
        input.insert("command".to_owned(), "ls -la".into());
        input.insert("description".to_owned(), "List the files".into());
        assert_eq!(whole.tool_input, Value::Object(input));
        let cut = relayed(r#"{"command":"cat some/very/long/pa"#).as_event();
        assert_eq!(
            cut.tool_input,
            Value::String("List the files\n\n{\"command\":\"cat some/very/long/pa".to_owned())
        );
    }

    #[test]
    fn the_ask_is_the_hooks_without_always_allow() {
        let ask = relayed(r#"{"command":"ls -la"}"#).ask().expect("an ask");
        let question = &ask.questions[0];
        let labels: Vec<&str> = question.options.iter().map(|o| o.label.as_str()).collect();
        assert_eq!(labels, ["Allow once", "Deny"]);
        assert_eq!(question.options[0].preview.as_deref(), Some("ls -la"));
        assert!(
            question.question.contains("It says why: List the files."),
            "{}",
            question.question
        );
    }
}

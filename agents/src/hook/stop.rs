//! Claude Code's `Stop` event (with `askdesk setup claude-code
//! --ask-on-stop`): the agent finished its turn, and the desk asks "what
//! next?", showing what it last said. Typed text goes back as
//! `{"decision": "block", "reason": <text>}`, so the session goes on with
//! it; Done, a decline, an ask that expired (after
//! [`setup::STOP_SECONDS`]) or no desk print nothing, and the agent stops.
//! Every round waits for a person, and one nobody answers ends the
//! session's turn: no loop runs on its own.

use super::{agent_name, transcript, Agent, AsUsual, HookEvent};
use interaction::{Ask, AskStatus, NewAsk, Question, QuestionOption};
use serde::Deserialize;
use serde_json::{json, Value};

/// The option that lets the agent stop.
const DONE: &str = "Done";

/// What Claude Code sends a `Stop` hook (the fields used here; the
/// transcript's path is read by the pipeline when the message is absent).
#[derive(Debug, Deserialize)]
pub(super) struct Stop {
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    last_assistant_message: Option<String>,
}

impl HookEvent for Stop {
    fn ask(&self, agent: Agent) -> Result<Option<NewAsk>, AsUsual> {
        let question = Question {
            id: "next".to_owned(),
            question: "The agent finished its turn. Type what it should do next, or choose Done \
                       to let it stop."
                .to_owned(),
            header: Some("Next".to_owned()),
            options: vec![QuestionOption {
                label: DONE.to_owned(),
                description: Some("Let the agent stop.".to_owned()),
                preview: None,
            }],
            multi_select: false,
            format: None,
            minimum: None,
            maximum: None,
            default: None,
        };
        let context = self
            .last_assistant_message
            .as_deref()
            .map(str::trim)
            .filter(|message| !message.is_empty())
            .map(|message| transcript::cut(message, interaction::MAX_CONTEXT_CHARS));
        Ok(Some(NewAsk {
            questions: vec![question],
            context,
            title: Some("What next?".to_owned()),
            agent: Some(agent_name(agent, self.cwd.as_deref())),
            timeout_seconds: Some(setup::STOP_SECONDS),
            to: Vec::new(),
            default_answers: None,
            session: None,
        }))
    }

    // No `key`: each stop is a new question, so an instruction given once
    // is never given again by a later stop that looks the same.
    fn output(&self, ask: &Ask) -> Result<Option<Value>, AsUsual> {
        Ok(next_instruction(ask).map(|text| json!({"decision": "block", "reason": text})))
    }
}

/// The text the person typed, when they answered with one (not Done).
fn next_instruction(ask: &Ask) -> Option<String> {
    if ask.status != AskStatus::Answered {
        return None;
    }
    let item = ask.answers.as_ref()?.first()?;
    item.custom
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stop(message: Option<&str>) -> Stop {
        Stop {
            cwd: Some("/home/me/src/askdesk".to_owned()),
            last_assistant_message: message.map(str::to_owned),
        }
    }

    #[test]
    fn the_ask_offers_done_or_typed_text_under_the_agents_last_words() {
        let new = stop(Some("  All tests pass.  "))
            .ask(Agent::ClaudeCode)
            .expect("askable")
            .expect("an ask");
        let valid = new.validate().expect("valid");
        assert_eq!(valid.request.context(), Some("All tests pass."));
        assert_eq!(valid.request.questions()[0].options[0].label, DONE);
        assert!(!valid.request.questions()[0].multi_select);
        assert_eq!(valid.timeout_seconds, Some(setup::STOP_SECONDS));
        let bare = stop(Some("   "))
            .ask(Agent::ClaudeCode)
            .expect("ok")
            .expect("ask");
        assert_eq!(bare.context, None);
    }
}

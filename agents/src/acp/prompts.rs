//! What an ACP agent asks its editor, as an ask at the desk, and the
//! desk's answer as the reply the agent expects: `session/request_permission`
//! (one single-select question of the agent's own options),
//! `elicitation/create` in form mode (the schemas askdesk can express, as
//! Claude Code's Elicitation hook maps them) and Cursor's
//! `cursor/ask_question`.
//!
//! An answer that does not fit what the agent asked (typed text for a
//! permission prompt with no way to refuse, typed text for a form's
//! choice) or an ask that ended unanswered is no reply: the editor's own
//! dialog goes on, and its answer goes to the agent.

use crate::hook::elicitation::{
    content::content,
    schema::{fields, question, Field, RequestedSchema},
};
use interaction::{Ask, AskStatus, NewAsk, Question, QuestionOption};
use serde::Deserialize;
use serde_json::{json, Value};

/// The methods askdesk also puts to the desk.
pub const PERMISSION: &str = "session/request_permission";
/// A form the agent asks the editor to show.
pub const ELICITATION: &str = "elicitation/create";
/// Cursor's CLI's own questions (an extension of ACP; its shape as the
/// clients that answer it read it, not published by Cursor).
pub const CURSOR_QUESTION: &str = "cursor/ask_question";

/// One of `cursor/ask_question`'s questions.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CursorQuestion {
    id: String,
    prompt: String,
    #[serde(default)]
    options: Vec<CursorOption>,
    #[serde(default)]
    allow_multiple: bool,
}

/// One of its options.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct CursorOption {
    id: String,
    label: String,
}

/// One of a permission prompt's options.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionOption {
    option_id: String,
    name: String,
    kind: String,
}

/// A request the desk can ask.
#[derive(Debug, Clone)]
pub enum Prompt {
    /// `session/request_permission`: what the tool call is, and the options.
    Permission {
        title: String,
        options: Vec<PermissionOption>,
    },
    /// `elicitation/create` in form mode: the message and its fields.
    Form { message: String, fields: Vec<Field> },
    /// `cursor/ask_question`: its title and questions.
    Cursor {
        title: String,
        questions: Vec<CursorQuestion>,
    },
}

/// The id of the one question a permission prompt asks.
const PERMISSION_ID: &str = "permission";

impl Prompt {
    /// The prompt a request of `method` with `params` makes, if the desk
    /// can ask it; why not, if it cannot.
    pub fn of(method: &str, params: &Value) -> Option<Result<Prompt, String>> {
        match method {
            PERMISSION => Some(permission(params)),
            ELICITATION => Some(form(params)),
            CURSOR_QUESTION => Some(cursor(params)),
            _ => None,
        }
    }

    /// The ask it puts, in the name of `agent`.
    pub fn ask(&self, agent: &str) -> NewAsk {
        let (title, questions) = match self {
            Prompt::Permission { title, options } => (
                format!("Permission: {title}"),
                vec![Question::choice(
                    PERMISSION_ID.to_owned(),
                    format!("May the agent go on: {title}?"),
                    Some("Permission".to_owned()),
                    options
                        .iter()
                        .map(|option| QuestionOption {
                            label: option.name.clone(),
                            description: Some(kind_words(&option.kind).to_owned()),
                            preview: None,
                        })
                        .collect(),
                    false,
                )],
            ),
            Prompt::Form { message, fields } => {
                (message.clone(), fields.iter().map(question).collect())
            }
            Prompt::Cursor { title, questions } => (
                title.clone(),
                questions
                    .iter()
                    .map(|q| {
                        let options = q
                            .options
                            .iter()
                            .map(|o| QuestionOption {
                                label: o.label.clone(),
                                description: None,
                                preview: None,
                            })
                            .collect();
                        Question::choice(
                            q.id.clone(),
                            q.prompt.clone(),
                            None,
                            options,
                            q.allow_multiple,
                        )
                    })
                    .collect(),
            ),
        };
        let title = crate::hook::transcript::head(&title, interaction::MAX_TITLE_CHARS);
        NewAsk::by(agent.to_owned(), title, questions)
    }

    /// The agent's reply for the ended `ask`, or `None` when the desk's
    /// answer is no reply (the editor's answer is waited for instead).
    pub fn result(&self, ask: &Ask) -> Option<Value> {
        match self {
            Prompt::Permission { options, .. } => permission_result(options, ask),
            Prompt::Form { fields, .. } => match (ask.status, &ask.answers) {
                (AskStatus::Answered, Some(items)) => content(fields, items)
                    .ok()
                    .map(|content| json!({"action": "accept", "content": content})),
                (AskStatus::Declined, _) => Some(json!({"action": "decline"})),
                _ => None,
            },
            Prompt::Cursor { questions, .. } => cursor_result(questions, ask),
        }
    }
}

/// An option's kind in words.
fn kind_words(kind: &str) -> &'static str {
    match kind {
        "allow_once" => "Allow this time",
        "allow_always" => "Allow, and remember it",
        "reject_once" => "Refuse this time",
        "reject_always" => "Refuse, and remember it",
        _ => "An option of the agent's",
    }
}

fn permission(params: &Value) -> Result<Prompt, String> {
    let options: Vec<PermissionOption> = serde_json::from_value(params["options"].clone())
        .map_err(|e| format!("its options are not ACP's: {e}"))?;
    if options.is_empty() {
        return Err("it offers no options".to_owned());
    }
    let title = params["toolCall"]["title"]
        .as_str()
        .or_else(|| params["title"].as_str())
        .unwrap_or("a tool call")
        .to_owned();
    Ok(Prompt::Permission { title, options })
}

fn form(params: &Value) -> Result<Prompt, String> {
    if params["mode"].as_str() != Some("form") {
        return Err("only form mode is asked at the desk".to_owned());
    }
    let schema: RequestedSchema = serde_json::from_value(params["requestedSchema"].clone())
        .map_err(|e| format!("its schema is not a form's: {e}"))?;
    let fields = fields(&schema).map_err(|e| e.to_string())?;
    let message = params["message"].as_str().unwrap_or("A form").to_owned();
    Ok(Prompt::Form { message, fields })
}

/// The option the person chose, by its label; typed text (single-select:
/// it overrides) refuses, with the first option that refuses once.
fn permission_result(options: &[PermissionOption], ask: &Ask) -> Option<Value> {
    if ask.status != AskStatus::Answered {
        return None;
    }
    let item = ask
        .answers
        .as_ref()?
        .iter()
        .find(|a| a.id == PERMISSION_ID)?;
    let chosen = match &item.custom {
        Some(_) => options
            .iter()
            .find(|o| o.kind == "reject_once")
            .or_else(|| options.iter().find(|o| o.kind.starts_with("reject"))),
        None => options
            .iter()
            .find(|o| item.selected.first() == Some(&o.name)),
    }?;
    Some(json!({"outcome": {"outcome": "selected", "optionId": chosen.option_id}}))
}

fn cursor(params: &Value) -> Result<Prompt, String> {
    let questions: Vec<CursorQuestion> = serde_json::from_value(params["questions"].clone())
        .map_err(|e| format!("its questions are not Cursor's: {e}"))?;
    if questions.is_empty() {
        return Err("it asks no questions".to_owned());
    }
    let title = params["title"].as_str().unwrap_or("Cursor asks").to_owned();
    Ok(Prompt::Cursor { title, questions })
}

/// Cursor's answer: each question's chosen options, by id. Its shape has
/// no place for typed text, so an answer with any is no reply (the
/// editor's window answers); a decline skips, with the person's reason.
fn cursor_result(questions: &[CursorQuestion], ask: &Ask) -> Option<Value> {
    match ask.status {
        AskStatus::Answered => {}
        AskStatus::Declined => {
            let reason = ask.decline_reason.clone().unwrap_or_default();
            return Some(json!({"outcome": {"outcome": "skipped", "reason": reason}}));
        }
        _ => return None,
    }
    let items = ask.answers.as_ref()?;
    if items.iter().any(|item| item.custom.is_some()) {
        return None;
    }
    let answers: Vec<Value> = questions
        .iter()
        .map(|q| {
            let chosen: Vec<&str> = items
                .iter()
                .find(|item| item.id == q.id)
                .map(|item| {
                    q.options
                        .iter()
                        .filter(|o| item.selected.contains(&o.label))
                        .map(|o| o.id.as_str())
                        .collect()
                })
                .unwrap_or_default();
            json!({"questionId": q.id, "selectedOptionIds": chosen})
        })
        .collect();
    Some(json!({"outcome": {"outcome": "answered", "answers": answers}}))
}

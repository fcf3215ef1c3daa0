//! OpenCode's questions and permission requests as asks, and the desk's
//! answers in OpenCode's reply shapes (`opencode serve`'s
//! `/question/{id}/reply` and `/permission/{id}/reply`).
//!
//! A question: one of OpenCode's `questions` each, in order (ids `q1`,
//! `q2`, …), `multiple` as multi-select; the reply is one array of
//! strings per question, the checked labels then the typed text, so a
//! multi-select answer keeps both. A question with `custom: false` takes
//! no typed text: OpenCode's own window offers none, so none is sent.
//! A permission request: Allow once, Always allow (when OpenCode names
//! patterns to keep), Reject; typed text rejects, in the person's words.

use interaction::{Ask, AskStatus, NewAsk, Question, QuestionOption};
use serde::Deserialize;
use serde_json::{json, Value};

/// One of OpenCode's questions.
#[derive(Debug, Clone, Deserialize)]
pub struct OpenQuestion {
    question: String,
    #[serde(default)]
    header: Option<String>,
    #[serde(default)]
    options: Vec<OpenOption>,
    #[serde(default)]
    multiple: bool,
    #[serde(default)]
    custom: Option<bool>,
}

/// One of a question's options.
#[derive(Debug, Clone, Deserialize)]
pub struct OpenOption {
    label: String,
    #[serde(default)]
    description: Option<String>,
}

/// A permission request's fields used here.
#[derive(Debug, Clone, Deserialize)]
pub struct PermissionAsked {
    #[serde(default)]
    permission: String,
    #[serde(default)]
    patterns: Vec<String>,
    #[serde(default)]
    always: Vec<String>,
}

const ALLOW_ONCE: &str = "Allow once";
const ALWAYS: &str = "Always allow";
const REJECT: &str = "Reject";
/// The permission prompt's one question.
const PERMISSION_ID: &str = "permission";

fn question_id(index: usize) -> String {
    format!("q{}", index + 1)
}

fn new_ask(title: String, agent: &str, questions: Vec<Question>) -> NewAsk {
    let title = crate::hook::transcript::head(&title, interaction::MAX_TITLE_CHARS);
    NewAsk::by(agent.to_owned(), title, questions)
}

/// The ask of OpenCode's `questions`, in the name of `agent`.
pub fn question_ask(questions: &[OpenQuestion], agent: &str) -> NewAsk {
    let title = questions
        .first()
        .map(|q| q.header.clone().unwrap_or_else(|| q.question.clone()))
        .unwrap_or_default();
    let asked = questions
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let options = q
                .options
                .iter()
                .map(|o| QuestionOption {
                    label: o.label.clone(),
                    description: o.description.clone().filter(|d| !d.is_empty()),
                    preview: None,
                })
                .collect();
            Question::choice(
                question_id(i),
                q.question.clone(),
                q.header.clone(),
                options,
                q.multiple,
            )
        })
        .collect();
    new_ask(format!("OpenCode: {title}"), agent, asked)
}

/// The body of `/question/{id}/reply` for the answered `ask`, or `None`
/// for an ask that was not answered.
pub fn question_reply(questions: &[OpenQuestion], ask: &Ask) -> Option<Value> {
    if ask.status != AskStatus::Answered {
        return None;
    }
    let items = ask.answers.as_ref()?;
    let answers: Vec<Vec<String>> = questions
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let Some(item) = items.iter().find(|a| a.id == question_id(i)) else {
                return Vec::new();
            };
            let mut strings = item.selected.clone();
            if let (Some(typed), true) = (&item.custom, q.custom != Some(false)) {
                strings.push(typed.clone());
            }
            strings
        })
        .collect();
    Some(json!({ "answers": answers }))
}

/// The ask of a permission request, in the name of `agent`.
pub fn permission_ask(asked: &PermissionAsked, agent: &str) -> NewAsk {
    let what = if asked.patterns.is_empty() {
        asked.permission.clone()
    } else {
        format!("{} {}", asked.permission, asked.patterns.join(", "))
    };
    let mut options = vec![QuestionOption {
        label: ALLOW_ONCE.to_owned(),
        description: Some("This time only".to_owned()),
        preview: None,
    }];
    if !asked.always.is_empty() {
        options.push(QuestionOption {
            label: ALWAYS.to_owned(),
            description: Some(format!("From now on: {}", asked.always.join(", "))),
            preview: None,
        });
    }
    options.push(QuestionOption {
        label: REJECT.to_owned(),
        description: Some("Or type why, and OpenCode's agent reads it".to_owned()),
        preview: None,
    });
    let ask = Question::choice(
        PERMISSION_ID.to_owned(),
        format!("May OpenCode go on: {what}?"),
        Some("Permission".to_owned()),
        options,
        false,
    );
    new_ask(format!("Permission: {what}"), agent, vec![ask])
}

/// The body of `/permission/{id}/reply` for the ended `ask`: `None` for
/// an ask that was not answered (OpenCode's own window answers).
pub fn permission_reply(ask: &Ask) -> Option<Value> {
    if ask.status != AskStatus::Answered {
        return None;
    }
    let item = ask
        .answers
        .as_ref()?
        .iter()
        .find(|a| a.id == PERMISSION_ID)?;
    if let Some(typed) = &item.custom {
        return Some(json!({"reply": "reject", "message": typed}));
    }
    let reply = match item.selected.first().map(String::as_str) {
        Some(ALLOW_ONCE) => "once",
        Some(ALWAYS) => "always",
        Some(REJECT) => "reject",
        _ => return None,
    };
    Some(json!({ "reply": reply }))
}

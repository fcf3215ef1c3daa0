//! Codex's `request_user_input` tool (its plan mode's structured
//! question) through Codex's `PreToolUse` hook. A hook cannot give a tool
//! its result, only allow or deny it; so the person's answer at the desk
//! goes back as the denial's reason, which the model reads, with the
//! answer in the tool's own response shape
//! (`{"answers": {"<id>": {"answers": ["<label>", "user_note: <text>"]}}}`)
//! and words telling it to take that as the tool's result. Declined or
//! unanswered, the denial says so. (The tool's native result is only the
//! app-server client's to give: openai/codex's
//! `core/src/tools/handlers/request_user_input.rs`.)

use interaction::{Ask, AskStatus, LenientAsk, LenientQuestion, NewAsk};
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// The tool whose calls this answers.
pub(super) const TOOL: &str = "request_user_input";

/// One of the tool's questions.
#[derive(Debug, Deserialize)]
struct CodexQuestion {
    id: String,
    #[serde(default)]
    header: Option<String>,
    question: String,
    #[serde(default)]
    options: Vec<CodexOption>,
}

#[derive(Debug, Deserialize)]
struct CodexOption {
    label: String,
    #[serde(default)]
    description: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Input {
    questions: Vec<CodexQuestion>,
}

/// The ask of the tool's input, in the name of `agent`; why not, if its
/// input is not the tool's.
pub(super) fn ask(tool_input: &Map<String, Value>, agent: String) -> Result<NewAsk, String> {
    let input: Input = serde_json::from_value(Value::Object(tool_input.clone()))
        .map_err(|e| format!("{TOOL}'s input has no questions askdesk can read ({e})"))?;
    let questions = input
        .questions
        .into_iter()
        .map(|q| {
            let options: Vec<Value> = q
                .options
                .into_iter()
                .map(|o| json!({"label": o.label, "description": o.description}))
                .collect();
            serde_json::from_value::<LenientQuestion>(json!({
                "id": q.id, "question": q.question, "header": q.header, "options": options,
            }))
            .map_err(|e| format!("{TOOL}'s question is not askdesk's ({e})"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(LenientAsk {
        questions,
        title: None,
        context: None,
        agent: Some(agent),
        timeout_seconds: None,
        wait_seconds: None,
        idempotency_key: None,
        to: Vec::new(),
        default_answers: None,
    }
    .into_new_ask())
}

/// The tool's response for an answered `ask`: each question's checked
/// labels, then the typed text as Codex writes a note (`user_note: …`).
pub(super) fn response(ask: &Ask) -> Option<Value> {
    let items = ask.answers.as_ref()?;
    let answers: Map<String, Value> = items
        .iter()
        .map(|item| {
            let mut strings: Vec<String> = item.selected.clone();
            if let Some(typed) = &item.custom {
                strings.push(format!("user_note: {typed}"));
            }
            (item.id.clone(), json!({ "answers": strings }))
        })
        .collect();
    Some(json!({ "answers": answers }))
}

/// The denial's reason that carries the desk's outcome to the model.
pub(super) fn reason(ask: &Ask) -> String {
    match (ask.status, response(ask)) {
        (AskStatus::Answered, Some(response)) => format!(
            "The user answered these questions at askdesk instead. Treat this {TOOL} call as \
             successful, with this response: {response}. Do not ask these questions again."
        ),
        (AskStatus::Declined, _) => match &ask.decline_reason {
            Some(why) => format!(
                "The user declined to answer at askdesk: {}",
                interaction::json_quote(why)
            ),
            None => "The user declined to answer at askdesk, without a reason.".to_owned(),
        },
        (status, _) => format!(
            "The question was {} at askdesk before the user answered.",
            status.as_str()
        ),
    }
}

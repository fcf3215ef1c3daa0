//! What the tools return: the result of an ask that ended, of one still
//! waiting, and of a refusal; and the message above the client's form.

use super::{AWAIT_ANSWER, CANCEL_ASK, TOOL};
use interaction::{Ask, AskCreated, AskStatus, Problem};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde::{de::DeserializeOwned, Serialize};

/// The structured result of an ask that is still waiting for the human.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Pending<'a> {
    status: AskStatus,
    ask_id: &'a str,
    url: &'a str,
}

/// What the client shows above its form.
pub fn form_message(title: Option<&str>, url: &str) -> String {
    format!(
        "{}\nAnswer here, or at {url}.",
        title.unwrap_or("Questions for you")
    )
}

/// A tool's `arguments` read as `T`, or the error result saying what
/// `tool` takes (and, given its `shape`, what to send): every tool's
/// arguments are read here.
pub fn read_arguments<T: DeserializeOwned>(
    tool: &str,
    arguments: JsonObject,
    shape: Option<&str>,
) -> Result<T, CallToolResult> {
    serde_json::from_value(serde_json::Value::Object(arguments)).map_err(|e| {
        let send = shape
            .map(|shape| format!(" Send {shape}."))
            .unwrap_or_default();
        tool_error(format!(
            "The arguments are not what {tool} takes: {e}.{send}"
        ))
    })
}

pub fn tool_error(text: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

pub fn problem_list(problems: &[Problem]) -> String {
    let mut text = format!(
        "The questions were refused. Fix these {} problem(s) and call {TOOL} again:",
        problems.len()
    );
    for p in problems {
        text.push_str(&format!("\n- {}: {} ({})", p.path, p.message, p.code));
    }
    text
}

/// The result of a finished ask: the projection's text for the model and
/// its structured value for programs.
pub fn finished(ask: Ask) -> CallToolResult {
    let Some(projection) = ask.projection else {
        return tool_error(format!(
            "The ask ended ({}) without a result.",
            ask.status.as_str()
        ));
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(projection.text)]);
    result.structured_content = serde_json::to_value(projection.structured).ok();
    result
}

/// The result of `ask_user` for a host that shows MCP Apps, at once: the
/// host shows askdesk's form with it (the view reads the ask it names);
/// the model waits with `await_answer`.
pub fn opened(created: &AskCreated) -> CallToolResult {
    let text = format!(
        "The questions are shown to the human in askdesk's form in this conversation, and at {}. \
         Call {AWAIT_ANSWER} with askId {} to wait for the answers. Do not ask again.",
        created.url,
        interaction::json_quote(&created.id)
    );
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = serde_json::to_value(Pending {
        status: created.status,
        ask_id: &created.id,
        url: &created.url,
    })
    .ok();
    result
}

/// The result of an ask still waiting when the call's wait is up: not an
/// error, and it tells the model how to go on.
pub fn pending(ask: &Ask) -> CallToolResult {
    let text = format!(
        "The human has not answered yet; the question is still open at {}. Call {AWAIT_ANSWER} \
         with askId {} to keep waiting (or {CANCEL_ASK} if it no longer matters). Do not ask again.",
        ask.url,
        interaction::json_quote(&ask.id)
    );
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = serde_json::to_value(Pending {
        status: AskStatus::Pending,
        ask_id: &ask.id,
        url: &ask.url,
    })
    .ok();
    result
}

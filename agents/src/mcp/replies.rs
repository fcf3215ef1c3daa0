//! What the tools return: the result of an ask that ended, of one still
//! waiting, and of a refusal; and the message above the client's form.

use super::{AWAIT_ANSWER, CANCEL_ASK, TOOL};
use interaction::{AnswerItem, Ask, AskCreated, AskStatus, Problem, Structured};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use schemars::JsonSchema;
use serde::{de::DeserializeOwned, Serialize};

/// What every tool returns as `structuredContent`: how the ask ended (the
/// `interaction` crate's `Structured`, field for field), or the ask still
/// waiting. Its schema is every tool's output schema.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reply {
    /// `pending` while the ask waits; how it ended otherwise.
    status: AskStatus,
    /// The ask, to pass to await_answer or cancel_ask (while pending).
    #[serde(skip_serializing_if = "Option::is_none")]
    ask_id: Option<String>,
    /// Where the human answers (while pending).
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    /// Once ended: one item per question, in question order; empty unless
    /// answered (or expired with your defaultAnswers: defaulted).
    #[serde(skip_serializing_if = "Option::is_none")]
    answers: Option<Vec<AnswerItem>>,
    /// Why the human declined, if they said.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// True when the ask expired unanswered and answers are your own
    /// defaultAnswers, which no person chose.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    defaulted: bool,
}

impl Reply {
    /// The ask `id`, answered at `url`, as it stands (`status`) before
    /// its end is read.
    fn waiting(status: AskStatus, id: &str, url: &str) -> Self {
        Self {
            status,
            ask_id: Some(id.to_owned()),
            url: Some(url.to_owned()),
            answers: None,
            reason: None,
            defaulted: false,
        }
    }
}

impl From<Structured> for Reply {
    fn from(ended: Structured) -> Self {
        let Structured {
            status,
            answers,
            reason,
            defaulted,
        } = ended;
        Self {
            status,
            ask_id: None,
            url: None,
            answers: Some(answers),
            reason,
            defaulted,
        }
    }
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
    result.structured_content = serde_json::to_value(Reply::from(projection.structured)).ok();
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
    result.structured_content =
        serde_json::to_value(Reply::waiting(created.status, &created.id, &created.url)).ok();
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
    result.structured_content =
        serde_json::to_value(Reply::waiting(AskStatus::Pending, &ask.id, &ask.url)).ok();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(status: AskStatus, custom: Option<&str>, reason: Option<&str>) -> Structured {
        Structured {
            status,
            answers: vec![AnswerItem {
                id: "q1".to_owned(),
                selected: vec!["Auth".to_owned()],
                custom: custom.map(str::to_owned),
            }],
            reason: reason.map(str::to_owned),
            defaulted: status == AskStatus::Expired,
        }
    }

    #[test]
    fn an_ended_reply_is_the_structured_projection_field_for_field() {
        for structured in [
            ended(AskStatus::Answered, Some("Rate limiting"), None),
            ended(AskStatus::Declined, None, Some("not mine to say")),
            ended(AskStatus::Expired, None, None),
            Structured {
                answers: Vec::new(),
                ..ended(AskStatus::Cancelled, None, None)
            },
        ] {
            let projected = serde_json::to_value(&structured).expect("structured");
            let reply = serde_json::to_value(Reply::from(structured)).expect("reply");
            assert_eq!(reply, projected);
        }
    }

    #[test]
    fn every_reply_is_what_the_output_schema_describes() {
        let schema = super::super::schema::output_of::<Reply>();
        let properties = schema["properties"].as_object().expect("properties");
        let statuses = schema["properties"]["status"]["enum"].clone();
        assert_eq!(
            statuses,
            serde_json::json!(AskStatus::ALL.map(AskStatus::as_str))
        );
        assert_eq!(schema["required"], serde_json::json!(["status"]));
        let replies = [
            Reply::from(ended(AskStatus::Declined, Some("x"), Some("why"))),
            Reply::waiting(AskStatus::Pending, "ab", "http://127.0.0.1/a/ab"),
        ];
        for reply in replies {
            let value = serde_json::to_value(reply).expect("reply");
            for key in value.as_object().expect("object").keys() {
                assert!(properties.contains_key(key), "{key} is not in the schema");
            }
        }
    }
}

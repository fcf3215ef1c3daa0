//! Answering inside the MCP client (elicitation, form mode): one more place
//! to answer an ask, racing the page and the terminal.
//!
//! The form is flat, as MCP requires: per question a field named by its id
//! (single-select: a string enum with titles; multi-select: an array of
//! enum items; optionless: a string) and, when it has options, a
//! `<id>_other` string for the person's own words. What the client sends
//! back becomes answers through the `interaction` crate's drafts, which
//! apply the seed's rules the page applies (on multi-select labels and
//! text are kept together; on single-select text overrides the choice),
//! and the answer goes through the desk and its one validator. Content the
//! validator refuses leaves the ask pending: the client is asked again,
//! saying why, a few times at most.

use super::Backend;
use desk::Caller;
use interaction::{Answers, BatchDraft, Decline, Format, Question, ValidRequest, Via};
use rmcp::{
    model::{
        ClientCapabilities, ClientResult, ElicitRequest, ElicitRequestParams, ElicitResult,
        ElicitationAction, ElicitationSchema, ServerRequest,
    },
    service::{PeerRequestOptions, RequestHandle, ServiceError},
    Peer, RoleServer,
};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use tokio_util::sync::CancellationToken;

/// How many times a client whose content is refused is asked again.
pub const ATTEMPTS: usize = 3;

/// The suffix of a question's field for the person's own words.
const OTHER: &str = "_other";

/// Whether a client with `capabilities` shows forms (elicitation in form
/// mode, which is what an elicitation capability without modes means).
pub fn offers_form(capabilities: &ClientCapabilities) -> bool {
    capabilities
        .elicitation
        .as_ref()
        .is_some_and(|e| e.form.is_some() || e.url.is_none())
}

/// The elicitation form of a request.
#[derive(Debug, Clone)]
pub struct Form {
    schema: ElicitationSchema,
}

impl Form {
    /// The form for `request`, or `None` when two of its fields would share
    /// a name (a question `a` with options beside a question `a_other`).
    pub fn new(request: &ValidRequest) -> Option<Self> {
        let mut properties = Map::new();
        let mut order = Vec::new();
        for question in request.questions() {
            let name = question_title(question);
            let field = if question.options.is_empty() {
                typed_field(question, name)
            } else {
                let choices: Vec<Value> = question
                    .options
                    .iter()
                    .map(|o| {
                        let title = match &o.description {
                            Some(d) => format!("{} — {d}", o.label),
                            None => o.label.clone(),
                        };
                        json!({"const": o.label, "title": title})
                    })
                    .collect();
                if question.multi_select {
                    json!({"type": "array", "title": name, "items": {"anyOf": choices}})
                } else {
                    json!({"type": "string", "title": name, "oneOf": choices})
                }
            };
            properties.insert(question.id.clone(), field);
            order.push(question.id.clone());
            if !question.options.is_empty() {
                let other = format!("{}{OTHER}", question.id);
                let description = if question.multi_select {
                    "Your own words, sent together with the options you chose."
                } else {
                    "Your own words; they replace the option you chose."
                };
                properties.insert(
                    other.clone(),
                    json!({"type": "string", "title": "Other", "description": description}),
                );
                order.push(other);
            }
        }
        let unique: BTreeSet<&String> = order.iter().collect();
        if unique.len() != order.len() {
            return None;
        }
        let mut schema: ElicitationSchema =
            serde_json::from_value(json!({"type": "object", "properties": properties})).ok()?;
        schema.property_order = Some(order);
        Some(Self { schema })
    }

    /// The JSON Schema the client is sent.
    pub fn schema(&self) -> &ElicitationSchema {
        &self.schema
    }

    /// The elicitation request that shows the form under `message`.
    pub fn request(&self, message: String) -> ElicitRequest {
        ElicitRequest::new(ElicitRequestParams::FormElicitationParams {
            meta: None,
            message,
            requested_schema: self.schema.clone(),
        })
    }
}

/// The field of a question without options: elicitation's primitive of
/// the question's format (an integer or number field with its bounds, a
/// string with its format), with its default; plain text otherwise.
/// Dates' bounds have no place in a string's schema, so its description
/// says them.
fn typed_field(question: &Question, name: String) -> Value {
    let number = |scalar: &Option<interaction::Scalar>| match scalar {
        Some(interaction::Scalar::Integer(n)) => Some(json!(n)),
        Some(interaction::Scalar::Number(n)) => Some(json!(n)),
        Some(interaction::Scalar::Text(t)) => t.trim().parse::<f64>().ok().map(|n| json!(n)),
        None => None,
    };
    let mut field = match question.format() {
        None => json!({"type": "string"}),
        Some(format @ (Format::Integer | Format::Number)) => {
            let kind = if format == Format::Integer {
                "integer"
            } else {
                "number"
            };
            let mut field = json!({"type": kind});
            for (key, bound) in [
                ("minimum", &question.minimum),
                ("maximum", &question.maximum),
            ] {
                if let Some(n) = number(bound) {
                    field[key] = n;
                }
            }
            field
        }
        Some(format) => {
            let mut field = json!({"type": "string", "format": format.as_str()});
            let bound = |b: &Option<interaction::Scalar>| b.as_ref().map(interaction::Scalar::text);
            let range = match (bound(&question.minimum), bound(&question.maximum)) {
                (Some(l), Some(m)) => Some(format!("From {l} to {m}.")),
                (Some(l), None) => Some(format!("From {l}.")),
                (None, Some(m)) => Some(format!("Until {m}.")),
                (None, None) => None,
            };
            if let Some(range) = range {
                field["description"] = json!(range);
            }
            field
        }
    };
    field["title"] = json!(name);
    if let Some(default) = &question.default {
        field["default"] = match question.format() {
            Some(Format::Integer | Format::Number) => {
                number(&Some(default.clone())).unwrap_or_else(|| json!(default.text()))
            }
            _ => json!(default.text()),
        };
    }
    field
}

/// How the page names a question in the form: its header and its text.
fn question_title(question: &Question) -> String {
    match &question.header {
        Some(header) => format!("{header}: {}", question.question),
        None => question.question.clone(),
    }
}

/// The answers the client's content stands for, or what is wrong with its
/// shape (a field of the wrong type, a field the form does not have).
/// Labels are not checked here: an unknown one is passed on for the
/// validator to refuse, as it would from any other surface.
pub fn answers(
    request: &ValidRequest,
    content: &Map<String, Value>,
) -> Result<Answers, Vec<String>> {
    let mut drafts = BatchDraft::new(request);
    let mut unknown_labels: Vec<Vec<String>> = vec![Vec::new(); request.questions().len()];
    let mut wrong = Vec::new();
    let mut known = BTreeSet::new();
    for (index, question) in request.questions().iter().enumerate() {
        let id = &question.id;
        let other = format!("{id}{OTHER}");
        known.insert(id.clone());
        let Some(draft) = drafts.draft_mut(index) else {
            continue;
        };
        let mut choose =
            |label: &str, draft: &mut interaction::QuestionDraft| match draft.index_of(label) {
                Some(i) => draft.set_checked(i, true),
                None => unknown_labels[index].push(label.to_owned()),
            };
        match (
            content.get(id),
            question.options.is_empty(),
            question.multi_select,
        ) {
            (None | Some(Value::Null), _, _) => {}
            (Some(Value::String(text)), true, _) => draft.set_custom(text.clone()),
            // A typed field's number, as the person's text.
            (Some(Value::Number(n)), true, _) if question.format().is_some() => {
                draft.set_custom(n.to_string())
            }
            (Some(Value::String(label)), false, false) => choose(label, draft),
            (Some(Value::Array(labels)), false, true) => {
                for label in labels {
                    match label {
                        Value::String(label) => choose(label, draft),
                        _ => {
                            wrong.push(format!("{id}: every chosen option must be a label (text)"))
                        }
                    }
                }
            }
            (Some(_), true, _) => wrong.push(format!("{id} must be text")),
            (Some(_), false, false) => wrong.push(format!("{id} must be one option's label")),
            (Some(_), false, true) => wrong.push(format!("{id} must be a list of option labels")),
        }
        if !question.options.is_empty() {
            known.insert(other.clone());
            match content.get(&other) {
                None | Some(Value::Null) => {}
                Some(Value::String(text)) => draft.set_custom(text.clone()),
                Some(_) => wrong.push(format!("{other} must be text")),
            }
        }
    }
    for field in content.keys().filter(|k| !known.contains(*k)) {
        wrong.push(format!("the form has no field {field:?}"));
    }
    if !wrong.is_empty() {
        return Err(wrong);
    }
    // Labels no draft can hold go to the validator as given: it refuses
    // them, naming the question, as from any other surface.
    let mut answers = drafts.answers();
    for (item, unknown) in answers.answers.iter_mut().zip(unknown_labels) {
        item.selected.extend(unknown);
    }
    Ok(answers)
}

/// Where the elicitation of one ask is going.
pub struct Elicitation {
    /// The desk the answer goes to.
    pub backend: Backend,
    /// Whose client relays the answer: the agent's credentials.
    pub caller: Caller,
    /// The client to ask.
    pub peer: Peer<RoleServer>,
    /// The ask.
    pub id: String,
    /// Its request, validated when it was made.
    pub request: ValidRequest,
    /// What the client shows above the form.
    pub message: String,
}

impl Elicitation {
    /// Asks the client until the person answers or declines there, cancels
    /// the form, or `ended` says the ask ended elsewhere (then the client's
    /// request is cancelled).
    pub async fn run(self, ended: CancellationToken) {
        let Some(form) = Form::new(&self.request) else {
            tracing::info!(id = %desk::Logged(&self.id), "no form in the client: two of its fields would share a name");
            return;
        };
        let mut message = self.message.clone();
        for _ in 0..ATTEMPTS {
            let request = ServerRequest::ElicitRequest(form.request(message.clone()));
            let mut handle: RequestHandle<RoleServer> = match self
                .peer
                .send_cancellable_request(request, PeerRequestOptions::no_options())
                .await
            {
                Ok(handle) => handle,
                Err(e) => {
                    tracing::info!(id = %desk::Logged(&self.id), "the client could not be asked: {e}");
                    return;
                }
            };
            let reply = tokio::select! {
                reply = &mut handle.rx => reply.unwrap_or(Err(ServiceError::TransportClosed)),
                () = ended.cancelled() => {
                    // Answered on the page, in the terminal, or timed out:
                    // the client takes its form down.
                    let reason = "the ask has ended elsewhere".to_owned();
                    if let Err(e) = handle.cancel(Some(reason)).await {
                        tracing::debug!(id = %desk::Logged(&self.id), "the form was not withdrawn: {e}");
                    }
                    return;
                }
            };
            let result = match reply {
                Ok(ClientResult::ElicitResult(result)) => result,
                Ok(_) => {
                    tracing::info!(id = %desk::Logged(&self.id), "the client answered the form with something else");
                    return;
                }
                Err(e) => {
                    tracing::info!(id = %desk::Logged(&self.id), "the client's form failed: {e}");
                    return;
                }
            };
            match settle(&self.backend, &self.caller, &self.id, &self.request, result).await {
                Some(refused) => message = again(&self.message, &refused),
                None => return,
            }
        }
    }
}

/// What the client is shown after its content was refused: why, then the
/// message again.
pub fn again(message: &str, refused: &str) -> String {
    format!("That answer was not taken:\n{refused}\n\n{message}")
}

/// Acts on the client's reply to the form of ask `id`: answers or declines
/// it through the desk, relayed by `caller`'s client. `Some(why)` when its
/// content was refused and the ask is still pending; `None` otherwise
/// (taken, declined, cancelled in the client, not the agent's to relay, or
/// ended elsewhere first).
pub async fn settle(
    backend: &Backend,
    caller: &Caller,
    id: &str,
    request: &ValidRequest,
    result: ElicitResult,
) -> Option<String> {
    match result.action {
        ElicitationAction::Accept => {
            let content = match result.content {
                Some(Value::Object(map)) => map,
                Some(_) => return Some("- the form's content must be an object".to_owned()),
                None => Map::new(),
            };
            let answers = match answers(request, &content) {
                Ok(answers) => answers,
                Err(wrong) => return Some(bullets(wrong)),
            };
            let refused = backend
                .answer(id, answers, caller, Via::McpClient)
                .await
                .err()?;
            if let Some(problems) = refused.problems() {
                return Some(bullets(
                    problems.iter().map(|p| p.message.clone()).collect(),
                ));
            }
            // Answered elsewhere first, or the desk failed: the tool call
            // reports how the ask ended.
            tracing::info!(id = %desk::Logged(id), "the client's answer was not taken: {refused}");
            None
        }
        ElicitationAction::Decline => {
            if let Err(e) = backend
                .decline(id, &Decline::default(), caller, Via::McpClient)
                .await
            {
                tracing::info!(id = %desk::Logged(id), "the client's decline was not taken: {e}");
            }
            None
        }
        // Cancel: the ask stays open on the page and in the terminal.
        _ => None,
    }
}

fn bullets(lines: Vec<String>) -> String {
    lines
        .into_iter()
        .map(|line| format!("- {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests;

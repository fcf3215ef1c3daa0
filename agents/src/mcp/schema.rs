//! The JSON Schemas of the tools. `ask_user`'s input is written here: it
//! reads a superset of Claude Code's AskUserQuestion leniently (an option
//! may be a bare label, a question's id may be left out), which no derived
//! schema says. Every other schema is derived from the type the tool reads
//! or writes ([`input_of`], [`output_of`]).

use rmcp::model::JsonObject;
use schemars::{generate::SchemaSettings, JsonSchema};
use serde_json::{json, Value};
use std::sync::Arc;

/// The tool's description, for the model choosing tools.
pub const DESCRIPTION: &str = "Ask the human one or more structured questions and wait for the \
answers. Each question has the question text, an optional short header, options (each with a \
label and a description) and multiSelect. The human can always type their own answer (\"Other\"); \
on multiSelect questions they may pick options and type text together. The call returns when the \
human answers or declines, or when the ask is cancelled or expires; the text result quotes every \
answer, and structuredContent has {status, answers: [{id, selected, custom?}], reason?, defaulted?}. \
With timeoutSeconds, defaultAnswers are what you go on with if nobody answers in time. With \
waitSeconds the call returns after that long if the human has not answered yet, with status \
\"pending\" and the askId to pass to await_answer; the ask keeps waiting for the human.";

/// `await_answer`'s description.
pub const AWAIT_DESCRIPTION: &str = "Keep waiting for the human's answer to an ask made with \
ask_user that returned status \"pending\" (or whose call was cut off). Returns like ask_user: the \
answers once the human answers, or status \"pending\" again after waitSeconds.";

/// `cancel_ask`'s description.
pub const CANCEL_DESCRIPTION: &str = "Withdraw an ask the human has not answered yet, when its \
questions no longer matter. Returns how the ask ended: cancelled, or the human's answer if they \
answered first.";

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// `ask_user`'s input schema.
pub fn input() -> Arc<JsonObject> {
    Arc::new(object(json!({
        "type": "object",
        "properties": {
            "questions": {
                "type": "array",
                "description": "The questions, in the order the human sees them.",
                "minItems": 1,
                "maxItems": interaction::MAX_QUESTIONS,
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {
                            "type": "string",
                            "pattern": "^[A-Za-z0-9_-]{1,64}$",
                            "description": "Names the question in the answers; q1, q2, … by position when left out."
                        },
                        "question": {"type": "string", "description": "The question text."},
                        "header": {
                            "type": "string",
                            "maxLength": interaction::MAX_HEADER_CHARS,
                            "description": "A very short label shown with the question, e.g. \"Database\"."
                        },
                        "options": {
                            "type": "array",
                            "maxItems": interaction::MAX_OPTIONS,
                            "description": "The choices; leave empty for a free-text question.",
                            "items": {
                                "anyOf": [
                                    {"type": "string", "description": "Just the label."},
                                    {
                                        "type": "object",
                                        "properties": {
                                            "label": {"type": "string", "maxLength": interaction::MAX_LABEL_CHARS},
                                            "description": {"type": "string", "description": "What choosing this option means."},
                                            "preview": {"type": "string", "description": "Longer text shown while the option is focused."}
                                        },
                                        "required": ["label"],
                                        "additionalProperties": false
                                    }
                                ]
                            }
                        },
                        "multiSelect": {
                            "type": "boolean",
                            "description": "Whether several options may be chosen (and combined with typed text)."
                        },
                        "format": {
                            "type": "string",
                            "enum": interaction::Format::ALL.map(interaction::Format::as_str),
                            "description": "For a question without options: what the typed answer must be. The human gets the matching input (a number field, a date picker, …) and the answer comes back as text in `custom`."
                        },
                        "minimum": {"type": ["number", "string"], "description": "The least value of a typed answer (numbers and dates)."},
                        "maximum": {"type": ["number", "string"], "description": "The greatest value of a typed answer (numbers and dates)."},
                        "default": {"type": ["number", "string"], "description": "What the answer box starts with, for a question without options."}
                    },
                    "required": ["question"]
                }
            },
            "title": {"type": "string", "maxLength": interaction::MAX_TITLE_CHARS, "description": "What the questions are about, shown to the human."},
            "context": {"type": "string", "maxLength": interaction::MAX_CONTEXT_CHARS, "description": "What you were doing when you asked (a few lines), shown to the human above the questions."},
            "agent": {"type": "string", "maxLength": interaction::MAX_AGENT_CHARS, "description": "Who asks, shown to the human. Default: the MCP client's name and version."},
            "timeoutSeconds": {
                "type": "integer",
                "minimum": 1,
                "maximum": interaction::MAX_TIMEOUT_SECONDS,
                "description": "Give up after this many seconds (the result is then \"expired\"). Default: wait until the human acts."
            },
            "defaultAnswers": {
                "type": "array",
                "description": "With timeoutSeconds: what you go on with if nobody answers in time, one item per question by id (q1, q2, … for questions given without an id). The human sees them and a countdown while the ask waits; if it expires unanswered, the result is status \"expired\" with these answers and defaulted: true (no person chose them).",
                "items": input_of::<interaction::AnswerItem>().as_ref()
            },
            "waitSeconds": {
                "type": "integer",
                "minimum": 1,
                "description": WAIT_SECONDS
            },
            "answerIn": {
                "type": "string",
                "enum": ["client", "desk"],
                "description": "Where the human may answer. \"client\": also as a form in this MCP client, when it supports elicitation, racing askdesk's page and terminal (the first answer counts). \"desk\": only on askdesk's page and terminal. Default: the server's --elicit setting."
            },
            "idempotencyKey": {
                "type": "string",
                "minLength": 1,
                "maxLength": interaction::MAX_IDEMPOTENCY_KEY_CHARS,
                "pattern": "^[!-~]+$",
                "description": "Any unique text (e.g. a UUID) for this question. Calling ask_user again with the same key and questions returns the same ask instead of asking twice; use it when you retry a call that was cut off."
            }
        },
        "required": ["questions"],
        "additionalProperties": false
    })))
}

/// `T`'s JSON Schema as a tool lists it: draft 2020-12, for what `T`
/// reads (an input) or writes (an output), every subschema inline (hosts
/// differ in following `$ref`), without `$schema`, and without the type's
/// own title and description (the tool's say it). Descriptions come from
/// doc comments, their lines joined as one paragraph.
fn derived<T: JsonSchema>(settings: SchemaSettings) -> Arc<JsonObject> {
    let mut settings = settings;
    settings.inline_subschemas = true;
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut root = schema.to_value();
    if let Value::Object(map) = &mut root {
        for key in ["$schema", "title", "description"] {
            map.remove(key);
        }
    }
    unwrap_lines(&mut root);
    Arc::new(object(root))
}

/// Every `description` under `value` as one paragraph.
fn unwrap_lines(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                match inner {
                    Value::String(text) if key == "description" => {
                        *text = text.replace('\n', " ");
                    }
                    _ => unwrap_lines(inner),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(unwrap_lines),
        _ => {}
    }
}

/// The input schema of a tool whose arguments are read as `T`.
pub fn input_of<T: JsonSchema>() -> Arc<JsonObject> {
    derived::<T>(SchemaSettings::draft2020_12().for_deserialize())
}

/// The output schema of a tool whose `structuredContent` is a `T`.
pub fn output_of<T: JsonSchema>() -> Arc<JsonObject> {
    derived::<T>(SchemaSettings::draft2020_12().for_serialize())
}

/// What `waitSeconds` means, wherever a tool takes it.
pub const WAIT_SECONDS: &str = "Return after this many seconds with status \"pending\" if the \
human has not answered yet; the ask keeps waiting (call await_answer). Default: wait until the ask \
ends. Set it below your client's tool-call timeout.";

//! The JSON Schemas `ask_user` publishes: its input (a superset of Claude
//! Code's AskUserQuestion) and its output (the `interaction` crate's
//! structured projection).

use rmcp::model::JsonObject;
use serde_json::{json, Value};

/// The tool's description, for the model choosing tools.
pub const DESCRIPTION: &str = "Ask the human one or more structured questions and wait for the \
answers. Each question has the question text, an optional short header, options (each with a \
label and a description) and multiSelect. The human can always type their own answer (\"Other\"); \
on multiSelect questions they may pick options and type text together. The call returns when the \
human answers or declines, or when the ask is cancelled or expires; the text result quotes every \
answer, and structuredContent has {status, answers: [{id, selected, custom?}], reason?}.";

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// The input schema.
pub fn input() -> JsonObject {
    object(json!({
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
                        }
                    },
                    "required": ["question"]
                }
            },
            "title": {"type": "string", "maxLength": interaction::MAX_TITLE_CHARS, "description": "What the questions are about, shown to the human."},
            "agent": {"type": "string", "maxLength": interaction::MAX_AGENT_CHARS, "description": "Who asks, shown to the human. Default: the MCP client's name and version."},
            "timeoutSeconds": {
                "type": "integer",
                "minimum": 1,
                "maximum": interaction::MAX_TIMEOUT_SECONDS,
                "description": "Give up after this many seconds (the result is then \"expired\"). Default: wait until the human acts."
            }
        },
        "required": ["questions"],
        "additionalProperties": false
    }))
}

/// The output schema: `interaction::Structured`.
pub fn output() -> JsonObject {
    object(json!({
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": ["answered", "declined", "cancelled", "expired"]},
            "answers": {
                "type": "array",
                "description": "One item per question, in question order; empty unless answered.",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "selected": {"type": "array", "items": {"type": "string"}},
                        "custom": {"type": "string", "description": "Text the human typed."}
                    },
                    "required": ["id", "selected"]
                }
            },
            "reason": {"type": "string", "description": "Why the human declined, if they said."}
        },
        "required": ["status", "answers"]
    }))
}

//! An MCP elicitation's flat `requested_schema` as askdesk's questions
//! (the answers go back as its `content` in [`super::content`]).
//!
//! Each property is one question, in the schema's order:
//!
//! - a string with `enum` (names from `enumNames`) or `oneOf` of
//!   `{const, title}`: a single-select;
//! - an array whose `items` are such: a multi-select;
//! - a boolean: Yes or No;
//! - a number or integer, and a string with a `format` askdesk knows: a
//!   typed answer with its bounds; any other string: free text.
//!
//! A default is the typed answer's starting text, or said beside its
//! option. A property the schema does not require gets a "Leave empty"
//! option (a typed one without a default becomes that option and Other
//! text, checked when it comes back). What askdesk cannot ask (a
//! `pattern`, a nested object, an unknown type) is [`Unexpressible`], and
//! the hook leaves the elicitation to Claude Code's own dialog.

use interaction::{Format, Question, QuestionOption, Scalar};
use serde::{de, Deserialize, Deserializer};
use serde_json::{Map, Value};
use std::fmt;

/// The option of a property the schema does not require.
pub const LEAVE_EMPTY: &str = "Leave empty";
pub(super) const YES: &str = "Yes";
pub(super) const NO: &str = "No";

/// Why a schema cannot be asked at the desk.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("the elicitation's schema {0}")]
pub struct Unexpressible(pub String);

/// The schema's properties in the order it gives them (a JSON object's
/// order, which `Value` does not keep).
#[derive(Debug, Default)]
pub struct Properties(pub Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Properties {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> de::Visitor<'de> for Entries {
            type Value = Properties;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of properties")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Properties, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, Value>()? {
                    entries.push(entry);
                }
                Ok(Properties(entries))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

/// A `requested_schema` as MCP sends it: an object of flat properties.
#[derive(Debug, Deserialize)]
pub struct RequestedSchema {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    properties: Properties,
    #[serde(default)]
    required: Vec<String>,
}

/// What one property asks for.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Kind {
    /// One of `values`, shown as `labels`.
    One {
        values: Vec<String>,
        labels: Vec<String>,
    },
    /// Some of them.
    Some {
        values: Vec<String>,
        labels: Vec<String>,
    },
    Boolean,
    /// Typed text: a number (`integer` or not) or a string of `format`.
    Typed {
        json: &'static str,
        format: Option<Format>,
    },
}

/// One property as a question.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub(super) name: String,
    pub(super) id: String,
    pub(super) kind: Kind,
    required: bool,
    default: Option<Value>,
    pub(super) length: (Option<u64>, Option<u64>),
    title: Option<String>,
    description: Option<String>,
    bounds: (Option<Value>, Option<Value>),
}

/// The questions of `schema`, one per property.
pub fn fields(schema: &RequestedSchema) -> Result<Vec<Field>, Unexpressible> {
    if schema.kind.as_deref().is_some_and(|kind| kind != "object") {
        return Err(Unexpressible("is not an object".to_owned()));
    }
    if schema.properties.0.is_empty() {
        return Err(Unexpressible("asks for nothing".to_owned()));
    }
    schema
        .properties
        .0
        .iter()
        .enumerate()
        .map(|(index, (name, property))| {
            let property = property
                .as_object()
                .ok_or_else(|| Unexpressible(format!("property {name} is not a schema")))?;
            field(index, name, property, schema.required.contains(name))
        })
        .collect()
}

fn field(
    index: usize,
    name: &str,
    p: &Map<String, Value>,
    required: bool,
) -> Result<Field, Unexpressible> {
    let cannot = |why: &str| Unexpressible(format!("property {name} {why}"));
    if p.contains_key("pattern") {
        return Err(cannot("has a pattern"));
    }
    let kind = match p.get("type").and_then(Value::as_str) {
        Some("boolean") => Kind::Boolean,
        Some("integer") => Kind::Typed {
            json: "integer",
            format: Some(Format::Integer),
        },
        Some("number") => Kind::Typed {
            json: "number",
            format: Some(Format::Number),
        },
        Some("array") => {
            let items = p.get("items").and_then(Value::as_object);
            let (values, labels) = items
                .and_then(choices)
                .ok_or_else(|| cannot("is an array of other than choices"))?;
            Kind::Some { values, labels }
        }
        Some("string") | None => match choices(p) {
            Some((values, labels)) => Kind::One { values, labels },
            None => match p.get("format").and_then(Value::as_str) {
                None => Kind::Typed {
                    json: "string",
                    format: None,
                },
                Some(name) => {
                    let format = Format::parse(name)
                        .filter(|f| !matches!(f, Format::Integer | Format::Number))
                        .ok_or_else(|| cannot("has a format askdesk does not know"))?;
                    Kind::Typed {
                        json: "string",
                        format: Some(format),
                    }
                }
            },
        },
        Some(_) => return Err(cannot("has a type askdesk cannot ask")),
    };
    let valid_id = !name.is_empty()
        && name.len() <= interaction::MAX_ID_CHARS
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let text = |key: &str| {
        p.get(key)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
    };
    let length = |key: &str| p.get(key).and_then(Value::as_u64);
    Ok(Field {
        name: name.to_owned(),
        id: if valid_id {
            name.to_owned()
        } else {
            format!("field{}", index + 1)
        },
        kind,
        required,
        default: p.get("default").filter(|d| !d.is_null()).cloned(),
        length: (length("minLength"), length("maxLength")),
        title: text("title"),
        description: text("description"),
        bounds: (p.get("minimum").cloned(), p.get("maximum").cloned()),
    })
}

/// The values and labels of a property that is a choice: `enum` (with
/// `enumNames`), or `oneOf`/`anyOf` of `{const, title}`.
fn choices(p: &Map<String, Value>) -> Option<(Vec<String>, Vec<String>)> {
    if let Some(values) = p.get("enum").and_then(Value::as_array) {
        let values: Vec<String> = values
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<_>>()?;
        let names: Option<Vec<String>> =
            p.get("enumNames")
                .and_then(Value::as_array)
                .and_then(|names| {
                    names
                        .iter()
                        .map(|n| n.as_str().map(str::to_owned))
                        .collect()
                });
        let labels = names
            .filter(|n| n.len() == values.len())
            .unwrap_or_else(|| values.clone());
        return Some((values, labels));
    }
    let options = p.get("oneOf").or_else(|| p.get("anyOf"))?.as_array()?;
    options
        .iter()
        .map(|o| {
            let value = o.get("const")?.as_str()?.to_owned();
            let label = o
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or(&value)
                .to_owned();
            Some((value, label))
        })
        .collect::<Option<Vec<_>>>()
        .map(|pairs| pairs.into_iter().unzip())
}

/// The question `field` is, in the words of its `title` and
/// `description`.
pub fn question(field: &Field) -> Question {
    let rule = field.typed_rule();
    let (title, description) = (field.title.as_deref(), field.description.as_deref());
    let mut question = match (title, description) {
        (Some(title), Some(description)) => format!("{title}: {description}"),
        (Some(one), None) | (None, Some(one)) => one.to_owned(),
        (None, None) => field.name.clone(),
    };
    if let (min, Some(max)) = field.length {
        question.push_str(&format!(" ({}–{max} characters)", min.unwrap_or(0)));
    }
    let option = |label: &str, default: bool| QuestionOption {
        label: label.to_owned(),
        description: default.then(|| "The default.".to_owned()),
        preview: None,
    };
    let is_default = |value: &str| field.default.as_ref().and_then(Value::as_str) == Some(value);
    let leave_empty =
        (!field.required && field.default.is_none()).then(|| option(LEAVE_EMPTY, false));
    let (options, multi_select, format, default) = match &field.kind {
        Kind::One { values, labels } | Kind::Some { values, labels } => {
            let mut options: Vec<QuestionOption> = values
                .iter()
                .zip(labels)
                .map(|(value, label)| option(label, is_default(value)))
                .collect();
            options.extend(leave_empty);
            (options, matches!(field.kind, Kind::Some { .. }), None, None)
        }
        Kind::Boolean => {
            let default = field.default.as_ref().and_then(Value::as_bool);
            let mut options = vec![
                option(YES, default == Some(true)),
                option(NO, default == Some(false)),
            ];
            options.extend(leave_empty);
            (options, false, None, None)
        }
        // A typed answer the person may leave out: "Leave empty", or the
        // text as Other (checked when it comes back).
        Kind::Typed { .. } if leave_empty.is_some() => {
            (leave_empty.into_iter().collect(), false, None, None)
        }
        Kind::Typed { format, .. } => {
            let default = field
                .default
                .clone()
                .and_then(|d| serde_json::from_value::<Scalar>(d).ok());
            (Vec::new(), false, *format, default)
        }
    };
    Question {
        id: field.id.clone(),
        question,
        header: title
            .filter(|t| t.chars().count() <= interaction::MAX_HEADER_CHARS)
            .map(str::to_owned),
        options,
        multi_select,
        format: format.map(|f| f.as_str().to_owned()),
        // Bounds go with the typed answer, not with "Leave empty".
        minimum: format.and(rule.minimum),
        maximum: format.and(rule.maximum),
        default,
    }
}

impl Field {
    /// What a typed answer to this field must be, as the desk's validator
    /// reads one: its format and bounds. The question asks by it; the text
    /// given as Other, where the field may be left empty, is held to it when
    /// it comes back.
    pub(super) fn typed_rule(&self) -> Question {
        let format = match self.kind {
            Kind::Typed { format, .. } => format,
            _ => None,
        };
        let bound = |b: &Option<Value>| {
            format
                .filter(|f| f.has_range())
                .and(b.clone())
                .and_then(|b| serde_json::from_value::<Scalar>(b).ok())
        };
        Question {
            id: self.id.clone(),
            question: self.name.clone(),
            header: None,
            options: Vec::new(),
            multi_select: false,
            format: format.map(|f| f.as_str().to_owned()),
            minimum: bound(&self.bounds.0),
            maximum: bound(&self.bounds.1),
            default: None,
        }
    }
}

//! The person's answers back as the `content` an elicitation's schema
//! describes ([`super::schema`]): each value of its property's type,
//! left-out properties absent, and what does not fit said as a [`Misfit`].

use super::schema::{Field, Kind, LEAVE_EMPTY, NO, YES};
use interaction::AnswerItem;
use serde_json::{Map, Number, Value};

/// Why an answer does not fit the schema.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("the answer to {field} {why}")]
pub struct Misfit {
    field: String,
    why: &'static str,
}

/// The `content` the answers `items` stand for, as `fields` describe it:
/// each value of its property's type, left-out properties absent.
pub fn content(fields: &[Field], items: &[AnswerItem]) -> Result<Map<String, Value>, Misfit> {
    let mut content = Map::new();
    for field in fields {
        let misfit = |why| Misfit {
            field: field.name.clone(),
            why,
        };
        let item = items
            .iter()
            .find(|i| i.id == field.id)
            .ok_or_else(|| misfit("is missing"))?;
        let custom = item
            .custom
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty());
        let labels: Vec<&str> = item.selected.iter().map(String::as_str).collect();
        if labels == [LEAVE_EMPTY] && custom.is_none() {
            continue;
        }
        let value_of = |values: &[String], labels_of: &[String], label: &str| {
            labels_of
                .iter()
                .position(|l| l == label)
                .map(|i| Value::String(values[i].clone()))
        };
        let value = match &field.kind {
            Kind::One {
                values,
                labels: shown,
            } => match (custom, labels.as_slice()) {
                (None, [label]) => {
                    value_of(values, shown, label).ok_or_else(|| misfit("is no choice"))?
                }
                _ => return Err(misfit("is not one of the choices")),
            },
            Kind::Some {
                values,
                labels: shown,
            } => {
                if custom.is_some() || labels.contains(&LEAVE_EMPTY) {
                    return Err(misfit("is not only choices"));
                }
                let chosen = labels
                    .iter()
                    .map(|label| value_of(values, shown, label))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| misfit("is no choice"))?;
                Value::Array(chosen)
            }
            Kind::Boolean => match (custom, labels.as_slice()) {
                (None, [YES]) => Value::Bool(true),
                (None, [NO]) => Value::Bool(false),
                _ => return Err(misfit("is neither Yes nor No")),
            },
            Kind::Typed { json, .. } => {
                let text = custom.ok_or_else(|| misfit("has no text"))?;
                typed(json, text, field).ok_or_else(|| misfit("is not of its type"))?
            }
        };
        content.insert(field.name.clone(), value);
    }
    Ok(content)
}

/// `text` as a JSON value of type `json`, of the field's format, within
/// its bounds ([`Field::typed_rule`], the validator's rule) and lengths.
fn typed(json: &str, text: &str, field: &Field) -> Option<Value> {
    if !field.typed_rule().accepts_typed(text) {
        return None;
    }
    match json {
        "integer" => text.parse::<i64>().ok().map(Value::from),
        "number" => serde_json::from_str::<Number>(text).ok().map(Value::Number),
        _ => {
            let chars = text.chars().count() as u64;
            let (min, max) = field.length;
            (min.is_none_or(|m| chars >= m) && max.is_none_or(|m| chars <= m))
                .then(|| Value::String(text.to_owned()))
        }
    }
}

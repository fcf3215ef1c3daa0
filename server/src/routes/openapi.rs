//! The OpenAPI document of `/api/v1`, served at `/api/v1/openapi.json`.
//! What each operation takes and answers, in words and examples, is
//! written in `server/openapi/operations.json`; every schema it names is
//! derived here from the type that travels (`schemars`, the derive the MCP
//! tools' schemas come from), so a field, a limit or a pattern lives in
//! one place: the type and its validator. The words for an API's reader
//! (what a field means, which problem code a rule reports, examples) are
//! laid over the derived schemas from `server/openapi/words.json`, and may
//! only describe what the types have.

use interaction::{Answers, Ask, AskCreated, AskList, Decline, Delivery, ErrorBody, Me, NewAsk};
use schemars::{generate::SchemaSettings, SchemaGenerator};
use serde_json::{Map, Value};
use std::sync::LazyLock;

/// The operations, as written.
const OPERATIONS: &str = include_str!("../../openapi/operations.json");

/// The schemas' words: per schema, its `description` and `examples`, and
/// a description per property.
const WORDS: &str = include_str!("../../openapi/words.json");

/// Where the document keeps its schemas.
const SCHEMAS: &str = "/components/schemas";

static DOCUMENT: LazyLock<String> = LazyLock::new(|| {
    let mut document: Value =
        serde_json::from_str(OPERATIONS).expect("openapi/operations.json is JSON");
    let mut schemas = schemas();
    if let Err(stray) = worded(&mut schemas) {
        // The tests refuse such words; a build that has them serves the
        // schemas as derived.
        tracing::warn!("openapi/words.json: {stray}");
    }
    document["components"]["schemas"] = Value::Object(schemas);
    serde_json::to_string_pretty(&document).expect("the document is JSON")
});

/// The whole document, as served.
pub fn document() -> &'static str {
    &DOCUMENT
}

fn generator(settings: SchemaSettings) -> SchemaGenerator {
    settings
        .with(|settings| {
            settings.definitions_path = SCHEMAS.into();
            settings.meta_schema = None;
        })
        .into_generator()
}

/// Every schema the operations name. What the server writes is described
/// as it writes it (a field always written is required, even when `null`);
/// what it reads as it reads it. A type that travels both ways (a
/// question, an answer) is described as it is read, which every reply
/// also satisfies.
fn schemas() -> Map<String, Value> {
    let mut written = generator(SchemaSettings::draft2020_12().for_serialize());
    for_replies(&mut written);
    let deliveries = written.subschema_for::<Vec<Delivery>>().to_value();
    let mut schemas = written.take_definitions(true);
    let mut read = generator(SchemaSettings::draft2020_12().for_deserialize());
    for_requests(&mut read);
    schemas.extend(read.take_definitions(true));
    // `GET /api/v1/asks/{id}` adds the ask's notifications (`AskRead`).
    if let Some(properties) = schemas
        .get_mut("Ask")
        .and_then(|ask| ask.get_mut("properties"))
        .and_then(Value::as_object_mut)
    {
        properties.insert("deliveries".to_owned(), deliveries);
    }
    schemas
}

/// `schemas` with their words laid over them, or the first word that
/// names a schema or property the types do not have.
fn worded(schemas: &mut Map<String, Value>) -> Result<(), String> {
    let words: Map<String, Value> =
        serde_json::from_str(WORDS).expect("openapi/words.json is JSON");
    for (name, words) in words {
        let schema = schemas
            .get_mut(&name)
            .and_then(Value::as_object_mut)
            .ok_or_else(|| format!("there is no schema {name}"))?;
        for key in ["description", "examples"] {
            if let Some(value) = words.get(key) {
                schema.insert(key.to_owned(), value.clone());
            }
        }
        let described = words.get("properties").and_then(Value::as_object);
        for (property, description) in described.into_iter().flatten() {
            let target = schema
                .get_mut("properties")
                .and_then(|properties| properties.get_mut(property))
                .and_then(Value::as_object_mut)
                .ok_or_else(|| format!("{name} has no property {property}"))?;
            target.insert("description".to_owned(), description.clone());
        }
    }
    Ok(())
}

/// The replies' types.
fn for_replies(generator: &mut SchemaGenerator) {
    generator.subschema_for::<AskCreated>();
    generator.subschema_for::<Ask>();
    generator.subschema_for::<AskList>();
    generator.subschema_for::<ErrorBody>();
    generator.subschema_for::<Me>();
}

/// The requests' types.
fn for_requests(generator: &mut SchemaGenerator) {
    generator.subschema_for::<NewAsk>();
    generator.subschema_for::<Answers>();
    generator.subschema_for::<Decline>();
    generator.subschema_for::<super::api::Action>();
    generator.subschema_for::<super::push::Subscription>();
    generator.subschema_for::<super::push::Unsubscribe>();
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemars::JsonSchema;

    /// Every `$ref` under `value`.
    fn refs<'a>(value: &'a Value, found: &mut Vec<&'a str>) {
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    match (key.as_str(), inner) {
                        ("$ref", Value::String(target)) => found.push(target),
                        _ => refs(inner, found),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| refs(item, found)),
            _ => {}
        }
    }

    #[test]
    fn every_reference_names_something_the_document_has() {
        let document: Value = serde_json::from_str(document()).expect("JSON");
        let mut found = Vec::new();
        refs(&document, &mut found);
        assert!(found.len() > 50, "{}", found.len());
        for target in found {
            let pointer = target.strip_prefix('#').expect("a local reference");
            assert!(
                document.pointer(pointer).is_some(),
                "{target} names nothing"
            );
        }
    }

    #[test]
    fn the_words_describe_only_what_the_types_have() {
        let mut schemas = schemas();
        assert_eq!(worded(&mut schemas), Ok(()));
        let mut stray = schemas.clone();
        stray.remove("Me");
        assert_eq!(worded(&mut stray), Err("there is no schema Me".to_owned()));
        let mut stray = schemas;
        stray["Decline"]["properties"]
            .as_object_mut()
            .expect("properties")
            .remove("reason");
        assert_eq!(
            worded(&mut stray),
            Err("Decline has no property reason".to_owned())
        );
    }

    #[test]
    fn the_push_bodies_keep_the_names_the_operations_use() {
        use super::super::push::{Subscription, Unsubscribe};
        assert_eq!(Subscription::schema_name(), "PushSubscription");
        assert_eq!(Unsubscribe::schema_name(), "PushEndpoint");
    }
}

//! The OpenAPI document of `/api/v1`, served at `/api/v1/openapi.json`.
//! It is derived: the operations from the API's routes and their
//! handlers' types (`aide`, in [`described`]), the refusals every request
//! may meet from the guard's own rules ([`operations`]), and every schema
//! from the type that travels (`schemars`, the derive the MCP tools'
//! schemas come from), so a field, a limit or a pattern lives in one
//! place: the type and its validator. Only words are written by hand,
//! and may only describe what the code has: the document's frame (its
//! introduction, security schemes and shared replies) in
//! `server/openapi/frame.json`, each operation's in
//! `server/openapi/operations.json`, each schema's in
//! `server/openapi/schemas.json`.

pub mod described;
mod operations;

use crate::AppState;
use aide::axum::ApiRouter;
use interaction::{Answers, Ask, AskCreated, AskList, Decline, Delivery, ErrorBody, Me, NewAsk};
use schemars::{generate::SchemaSettings, SchemaGenerator};
use serde_json::{Map, Value};

/// The document's frame: everything but its paths and schemas.
const FRAME: &str = include_str!("../../openapi/frame.json");

/// The schemas' words: per schema, its `description` and `examples`, and
/// a description per property.
const WORDS: &str = include_str!("../../openapi/schemas.json");

/// Where the document keeps its schemas.
const SCHEMAS: &str = "/components/schemas";

/// The document of `routes` (the API's, `api::described`), as served.
pub fn written(routes: ApiRouter<AppState>) -> String {
    serde_json::to_string_pretty(&derived(routes)).expect("the document is JSON")
}

/// `GET /api/v1/openapi.json`'s reply: the document as [`written`].
pub struct Document(pub &'static str);

impl axum::response::IntoResponse for Document {
    fn into_response(self) -> axum::response::Response {
        (
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            self.0,
        )
            .into_response()
    }
}

/// The document: the routes' operations with the guard's refusals, the
/// schemas, and the words over both. Words that name something the code
/// lacks are left out and logged; the tests refuse them.
fn derived(routes: ApiRouter<AppState>) -> Value {
    let mut api = aide::openapi::OpenApi::default();
    aide::generate::in_context(|context| {
        context.schema = generator(SchemaSettings::draft2020_12().for_deserialize());
    });
    let _ = routes.finish_api(&mut api);
    let mut document: Value = serde_json::from_str(FRAME).expect("openapi/frame.json is JSON");
    let mut paths = serde_json::to_value(api.paths.unwrap_or_default()).unwrap_or_default();
    operations::guarded(&mut paths);
    operations::without_nulls(&mut paths);
    if let Err(stray) = operations::worded(&mut paths) {
        tracing::warn!("openapi/operations.json: {stray}");
    }
    document["paths"] = paths;
    let mut schemas = schemas();
    if let Err(stray) = worded(&mut schemas) {
        tracing::warn!("openapi/schemas.json: {stray}");
    }
    document["components"]["schemas"] = Value::Object(schemas);
    document
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
        serde_json::from_str(WORDS).expect("openapi/schemas.json is JSON");
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
    generator.subschema_for::<interaction::SessionMessage>();
    generator.subschema_for::<interaction::SessionMessages>();
    generator.subschema_for::<super::push::PublicKey>();
    generator.subschema_for::<super::push::Endpoint>();
}

/// The requests' types.
fn for_requests(generator: &mut SchemaGenerator) {
    generator.subschema_for::<NewAsk>();
    generator.subschema_for::<Answers>();
    generator.subschema_for::<Decline>();
    generator.subschema_for::<interaction::NewMessage>();
    generator.subschema_for::<super::actions::Action>();
    generator.subschema_for::<super::push::Subscription>();
    generator.subschema_for::<super::push::Endpoint>();
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemars::JsonSchema;

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
        use super::super::push::{Endpoint, PublicKey, Subscription};
        assert_eq!(Subscription::schema_name(), "PushSubscription");
        assert_eq!(Endpoint::schema_name(), "PushEndpoint");
        assert_eq!(PublicKey::schema_name(), "PushKey");
    }
}

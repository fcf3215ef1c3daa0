//! What every operation may meet before its handler runs, read off the
//! guard's own rules, and each operation's words laid over what the code
//! says it is.

use crate::http::{guard::changes_state, public::is_public};
use axum::http::Method;
use serde_json::{json, Map, Value};

/// Each operation's words: its `summary` and `description`; per
/// parameter a `description` and `example`; the request body's
/// `description` and `example`s; per reply a `description`, `example`s
/// and descriptions of its headers.
const WORDS: &str = include_str!("../../../openapi/operations.json");

/// A reply the document keeps once, in `components.responses`.
fn shared(name: &str) -> Value {
    json!({"$ref": format!("#/components/responses/{name}")})
}

/// The operations under `paths`, with their path and method.
fn each_operation(
    paths: &mut Value,
) -> impl Iterator<Item = (&str, &str, &mut Map<String, Value>)> {
    paths
        .as_object_mut()
        .into_iter()
        .flatten()
        .flat_map(|(path, item)| {
            item.as_object_mut()
                .into_iter()
                .flatten()
                .filter_map(move |(method, operation)| {
                    Some((path.as_str(), method.as_str(), operation.as_object_mut()?))
                })
        })
}

/// Adds to each operation the refusals of the guard, which every request
/// passes first: a wrong `Host` (`421`); without credentials, unless the
/// path is public (`401`), and too many wrong ones (`429`); a browser's
/// request of another origin that would change something (`403`); an id
/// that names nothing (`404`); and, but for the operations about the API
/// itself, the server's or its database's failure (`500`, `503`).
pub(super) fn guarded(paths: &mut Value) {
    for (path, method, operation) in each_operation(paths) {
        let public = is_public(path);
        let changes = method
            .to_uppercase()
            .parse::<Method>()
            .is_ok_and(|method| changes_state(&method));
        let about_the_api = operation
            .get("tags")
            .and_then(Value::as_array)
            .is_some_and(|tags| tags.contains(&json!("meta")));
        if public {
            operation.insert("security".to_owned(), json!([]));
        }
        let responses = operation
            .entry("responses")
            .or_insert_with(|| json!({}))
            .as_object_mut();
        let Some(responses) = responses else { continue };
        let mut refuses = |code: &str, name: &str| {
            responses.entry(code).or_insert_with(|| shared(name));
        };
        refuses("421", "MisdirectedRequest");
        if !public {
            refuses("401", "Unauthorized");
            refuses("429", "TooManyRequests");
        }
        if changes {
            refuses("403", "CrossOrigin");
        }
        if path.contains('{') {
            refuses("404", "NotFound");
        }
        if !about_the_api {
            refuses("500", "ServerError");
            refuses("503", "Unavailable");
        }
        responses.sort_keys();
    }
}

/// Takes out of each parameter the `null` its optional type added: a
/// query string or header has none (aide takes it out of `type` only).
pub(super) fn without_nulls(paths: &mut Value) {
    for (_, _, operation) in each_operation(paths) {
        let parameters = operation
            .get_mut("parameters")
            .and_then(Value::as_array_mut);
        for parameter in parameters.into_iter().flatten() {
            let Some(schema) = parameter.get_mut("schema").and_then(Value::as_object_mut) else {
                continue;
            };
            if let Some(names) = schema.get_mut("enum").and_then(Value::as_array_mut) {
                names.retain(|name| !name.is_null());
            }
            if schema.get("default").is_some_and(Value::is_null) {
                schema.remove("default");
            }
        }
    }
}

/// `paths` with each operation's words laid over it, or the first word
/// that names an operation, parameter, body, reply or header the code
/// does not have.
pub(super) fn worded(paths: &mut Value) -> Result<(), String> {
    let mut words: Map<String, Value> =
        serde_json::from_str(WORDS).expect("openapi/operations.json is JSON");
    for (_, _, operation) in each_operation(paths) {
        let id = operation
            .get("operationId")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if let Some(words) = words.remove(id) {
            word_operation(id.to_owned(), operation, &words)?;
        }
    }
    match words.keys().next() {
        Some(id) => Err(format!("there is no operation {id}")),
        None => Ok(()),
    }
}

fn copy(keys: &[&str], words: &Value, target: &mut Map<String, Value>) {
    for key in keys {
        if let Some(value) = words.get(key) {
            target.insert((*key).to_owned(), value.clone());
        }
    }
}

fn entries(words: &Value, key: &str) -> impl Iterator<Item = (String, Value)> {
    words
        .get(key)
        .and_then(Value::as_object)
        .cloned()
        .into_iter()
        .flatten()
}

fn word_operation(
    id: String,
    operation: &mut Map<String, Value>,
    words: &Value,
) -> Result<(), String> {
    copy(&["summary", "description"], words, operation);
    for (name, words) in entries(words, "parameters") {
        let parameter = operation
            .get_mut("parameters")
            .and_then(Value::as_array_mut)
            .and_then(|all| all.iter_mut().find(|p| p["name"] == name.as_str()))
            .and_then(Value::as_object_mut)
            .ok_or_else(|| format!("{id} has no parameter {name}"))?;
        copy(&["description", "example"], &words, parameter);
        // The words are the parameter's; its schema's own (a field's
        // comment) would say it twice.
        if let Some(schema) = parameter.get_mut("schema").and_then(Value::as_object_mut) {
            schema.remove("description");
        }
    }
    // Only the words describe a body; its type's comment is for code.
    let body = operation
        .get_mut("requestBody")
        .and_then(Value::as_object_mut);
    if let Some(body) = body {
        body.remove("description");
    }
    if let Some(words) = words.get("requestBody") {
        let body = operation
            .get_mut("requestBody")
            .and_then(Value::as_object_mut)
            .ok_or_else(|| format!("{id} takes no body"))?;
        copy(&["description"], words, body);
        if let Some(media) = body["content"]["application/json"].as_object_mut() {
            copy(&["example", "examples"], words, media);
        }
    }
    for (code, words) in entries(words, "responses") {
        let reply = operation
            .get_mut("responses")
            .and_then(|replies| replies.get_mut(&code))
            .ok_or_else(|| format!("{id} has no reply {code}"))?;
        word_reply(&id, &code, reply, &words)?;
    }
    Ok(())
}

/// A reply's words. A shared reply keeps what it is and takes this
/// operation's description; given examples, it becomes the operation's
/// own `ErrorBody` reply.
fn word_reply(id: &str, code: &str, reply: &mut Value, words: &Value) -> Result<(), String> {
    if reply.get("$ref").is_some() {
        if words
            .get("example")
            .or_else(|| words.get("examples"))
            .is_none()
        {
            if let Some(reference) = reply.as_object_mut() {
                copy(&["description"], words, reference);
            }
            if let Some((name, _)) = entries(words, "headers").next() {
                return Err(format!(
                    "{id}'s reply {code} is shared: its header {name} is described there"
                ));
            }
            return Ok(());
        }
        *reply = json!({"content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/ErrorBody"}
        }}});
    }
    let Some(reply) = reply.as_object_mut() else {
        return Err(format!("{id}'s reply {code} is not an object"));
    };
    copy(&["description"], words, reply);
    if let Some(media) = reply
        .get_mut("content")
        .and_then(Value::as_object_mut)
        .and_then(|content| content.values_mut().next())
        .and_then(Value::as_object_mut)
    {
        copy(&["example", "examples"], words, media);
    }
    for (name, words) in entries(words, "headers") {
        let header = reply
            .get_mut("headers")
            .and_then(|headers| headers.get_mut(&name))
            .and_then(Value::as_object_mut)
            .ok_or_else(|| format!("{id}'s reply {code} has no header {name}"))?;
        copy(&["description", "example"], &words, header);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's paths as the routes give them, with the guard's
    /// refusals and no words.
    fn bare() -> Value {
        let mut api = aide::openapi::OpenApi::default();
        let _ = super::super::super::api::described().finish_api(&mut api);
        let mut paths = serde_json::to_value(api.paths.unwrap_or_default()).expect("JSON");
        guarded(&mut paths);
        without_nulls(&mut paths);
        paths
    }

    fn operation<'a>(paths: &'a Value, path: &str, method: &str) -> &'a Value {
        &paths[path][method]
    }

    fn codes(operation: &Value) -> Vec<&str> {
        let replies = operation["responses"].as_object().expect("responses");
        replies.keys().map(String::as_str).collect()
    }

    #[test]
    fn the_guard_adds_its_refusals_by_its_own_rules() {
        let paths = bare();
        let create = operation(&paths, "/api/v1/asks", "post");
        assert_eq!(
            codes(create),
            ["200", "201", "400", "401", "403", "413", "415", "421", "422", "429", "500", "503"]
        );
        assert_eq!(create["security"], Value::Null);
        let read = operation(&paths, "/api/v1/asks/{id}", "get");
        assert_eq!(
            codes(read),
            ["200", "400", "401", "404", "421", "429", "500", "503"]
        );
        // A notification's button: public, so no token refusals, but it
        // changes an ask.
        let act = operation(&paths, "/api/v1/actions/{id}", "post");
        assert_eq!(act["security"], json!([]));
        assert!(!codes(act).contains(&"401"), "{:?}", codes(act));
        assert!(codes(act).contains(&"403"), "{:?}", codes(act));
        let document = operation(&paths, "/api/v1/openapi.json", "get");
        assert_eq!(codes(document), ["200", "421"]);
    }

    #[test]
    fn the_words_describe_only_what_the_code_has() {
        let mut paths = bare();
        assert_eq!(worded(&mut paths), Ok(()));
        let mut paths = bare();
        paths.as_object_mut().expect("paths").remove("/api/v1/me");
        assert_eq!(
            worded(&mut paths),
            Err("there is no operation me".to_owned())
        );
        let mut paths = bare();
        paths["/api/v1/asks/{id}"]["get"]["parameters"] = json!([]);
        assert_eq!(
            worded(&mut paths),
            Err("getAsk has no parameter id".to_owned())
        );
        let mut paths = bare();
        paths["/api/v1/asks"]["post"]["responses"]
            .as_object_mut()
            .expect("responses")
            .remove("201");
        assert_eq!(
            worded(&mut paths),
            Err("createAsk has no reply 201".to_owned())
        );
    }

    #[test]
    fn every_operation_and_every_reply_of_its_own_is_described() {
        let mut paths = bare();
        assert_eq!(worded(&mut paths), Ok(()));
        for (path, method, operation) in each_operation(&mut paths) {
            for key in ["operationId", "summary", "description"] {
                let text = operation
                    .get(key)
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                assert!(!text.is_empty(), "{method} {path} has no {key}");
            }
            for (code, reply) in operation["responses"].as_object().expect("responses") {
                if reply.get("$ref").is_none() {
                    let text = reply["description"].as_str().unwrap_or_default();
                    assert!(
                        !text.is_empty(),
                        "{method} {path}: {code} has no description"
                    );
                }
            }
        }
    }
}

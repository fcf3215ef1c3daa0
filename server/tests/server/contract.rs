//! The OpenAPI document is derived from the routes and the wire types
//! (`server::routes::openapi`), its words written in `server/openapi/`;
//! these tests hold every limit, pattern and code in it to the constants
//! of `interaction` and `desk`, so neither the derive attributes nor the
//! words can drift from the validator.

use interaction::{
    AskStatus, ProblemCode, MAX_AGENT_CHARS, MAX_CUSTOM_CHARS, MAX_DESCRIPTION_CHARS,
    MAX_HEADER_CHARS, MAX_ID_CHARS, MAX_LABEL_CHARS, MAX_OPTIONS, MAX_PREVIEW_CHARS, MAX_QUESTIONS,
    MAX_QUESTION_CHARS, MAX_TIMEOUT_SECONDS, MAX_TITLE_CHARS,
};
use serde_json::{json, Value};

fn document() -> Value {
    serde_json::from_str(server::routes::api::document()).expect("openapi.json is JSON")
}

fn schema<'a>(doc: &'a Value, name: &str) -> &'a Value {
    let schema = &doc["components"]["schemas"][name];
    assert!(schema.is_object(), "no schema {name}");
    schema
}

fn property<'a>(doc: &'a Value, name: &str, field: &str) -> &'a Value {
    let property = &schema(doc, name)["properties"][field];
    assert!(property.is_object(), "no property {name}.{field}");
    property
}

fn number(n: usize) -> Value {
    json!(n)
}

#[test]
fn every_length_and_count_limit_is_the_validators() {
    let doc = document();
    let limits = [
        ("NewAsk", "questions", "maxItems", MAX_QUESTIONS),
        ("NewAsk", "questions", "minItems", 1),
        ("Request", "questions", "maxItems", MAX_QUESTIONS),
        ("Request", "questions", "minItems", 1),
        ("NewAsk", "title", "maxLength", MAX_TITLE_CHARS),
        ("NewAsk", "agent", "maxLength", MAX_AGENT_CHARS),
        ("Question", "id", "maxLength", MAX_ID_CHARS),
        ("Question", "question", "maxLength", MAX_QUESTION_CHARS),
        ("Question", "header", "maxLength", MAX_HEADER_CHARS),
        ("Question", "options", "maxItems", MAX_OPTIONS),
        ("QuestionOption", "label", "maxLength", MAX_LABEL_CHARS),
        (
            "QuestionOption",
            "description",
            "maxLength",
            MAX_DESCRIPTION_CHARS,
        ),
        ("QuestionOption", "preview", "maxLength", MAX_PREVIEW_CHARS),
        ("AnswerItem", "custom", "maxLength", MAX_CUSTOM_CHARS),
        ("Decline", "reason", "maxLength", MAX_CUSTOM_CHARS),
        ("AskSummary", "questionCount", "maximum", MAX_QUESTIONS),
        (
            "AskList",
            "asks",
            "maxItems",
            server::routes::listing::PAGE_LIMIT as usize,
        ),
    ];
    for (name, field, keyword, limit) in limits {
        assert_eq!(
            property(&doc, name, field)[keyword],
            number(limit),
            "{name}.{field}.{keyword}"
        );
    }
    let timeout = property(&doc, "NewAsk", "timeoutSeconds");
    assert_eq!(timeout["minimum"], json!(1));
    assert_eq!(timeout["maximum"], json!(MAX_TIMEOUT_SECONDS));
    let key = &doc["paths"]["/api/v1/asks"]["post"]["parameters"][0];
    assert_eq!(key["name"], json!("Idempotency-Key"));
    assert_eq!(
        key["schema"]["maxLength"],
        json!(interaction::MAX_IDEMPOTENCY_KEY_CHARS)
    );
    assert_eq!(
        property(&doc, "Question", "id")["pattern"],
        json!(format!("^[A-Za-z0-9_-]{{1,{MAX_ID_CHARS}}}$"))
    );
}

#[test]
fn the_page_limit_is_the_apis() {
    let doc = document();
    let limit = doc["paths"]["/api/v1/asks"]["get"]["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .find(|p| p["name"] == "limit")
        .expect("the limit parameter");
    assert_eq!(
        limit["schema"]["maximum"],
        number(server::routes::listing::PAGE_LIMIT as usize)
    );
    assert_eq!(
        limit["schema"]["default"],
        number(server::routes::listing::PAGE_LIMIT as usize)
    );
    // Every cursor the pattern admits is one the API reads (18 digits fit
    // an i64; the fuzzer once sent 21).
    let cursor = doc["paths"]["/api/v1/asks"]["get"]["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .find(|p| p["name"] == "cursor")
        .expect("the cursor parameter");
    assert_eq!(
        cursor["schema"]["pattern"],
        "^-?[0-9]{1,18}\\.-?[0-9]{1,18}$"
    );
    let widest = format!("-{0}.-{0}", "9".repeat(18));
    assert!(desk::Cursor::parse(&widest).is_some());
}

#[test]
fn the_wait_limits_are_the_desks() {
    let doc = document();
    let max = desk::MAX_WAIT.as_secs().to_string();
    let text = server::routes::api::document();
    assert!(
        text.contains(&format!("capped at {max}")),
        "the document names the longest wait, {max} s"
    );
    assert!(doc["paths"]["/api/v1/asks/{id}"]["get"].is_object());
}

#[test]
fn the_problem_codes_and_statuses_are_interactions() {
    let doc = document();
    let codes: Vec<String> = ProblemCode::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect();
    assert_eq!(schema(&doc, "ProblemCode")["enum"], json!(codes));
    let statuses: Vec<&str> = AskStatus::ALL.iter().map(|s| s.as_str()).collect();
    assert_eq!(schema(&doc, "AskStatus")["enum"], json!(statuses));
    // An outcome's status is any status but pending.
    let ended: Vec<&str> = statuses[1..].to_vec();
    assert_eq!(schema(&doc, "Status")["enum"], json!(ended));
}

/// Every text the validator reads for control characters
/// (`control_character`: C0, DEL and C1 ones other than tab and newline) says so in its
/// pattern, and the texts that must not be blank say that too: input the
/// document calls valid is not refused for either. An answer's question id
/// is written as questions' ids are.
#[test]
fn incoming_texts_refuse_control_characters_as_the_validator_does() {
    let doc = document();
    let controls = r"\u0000-\u0008\u000B-\u001F\u007F-\u009F";
    let no_controls = format!("^[^{controls}]*$");
    let not_blank = format!("^[^{controls}]*[^\\s{controls}][^{controls}]*$");
    for (name, field, pattern) in [
        ("NewAsk", "title", &no_controls),
        ("NewAsk", "agent", &no_controls),
        ("Question", "question", &not_blank),
        ("Question", "header", &no_controls),
        ("QuestionOption", "label", &not_blank),
        ("QuestionOption", "description", &no_controls),
        ("QuestionOption", "preview", &no_controls),
        ("AnswerItem", "custom", &not_blank),
        ("Decline", "reason", &no_controls),
    ] {
        assert_eq!(
            property(&doc, name, field)["pattern"],
            json!(pattern),
            "{name}.{field}"
        );
    }
    assert_eq!(
        property(&doc, "AnswerItem", "id")["pattern"],
        property(&doc, "Question", "id")["pattern"]
    );
}

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
    let document = document();
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

use super::*;
use interaction::{AnswerItem, Request};

fn request() -> ValidRequest {
    let request: Request = serde_json::from_value(json!({"questions": [
        {"id": "features", "header": "Features", "question": "Which features?", "multiSelect": true,
         "options": [{"label": "Auth", "description": "Sign-in"}, {"label": "Logging"}]},
        {"id": "db", "question": "Which database?", "options": [{"label": "SQLite"}, {"label": "PostgreSQL"}]},
        {"id": "notes", "question": "Anything else?"}
    ]}))
    .expect("request");
    ValidRequest::new(request).expect("valid")
}

fn content(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn item(id: &str, selected: &[&str], custom: Option<&str>) -> AnswerItem {
    AnswerItem {
        id: id.to_owned(),
        selected: selected.iter().map(|s| (*s).to_owned()).collect(),
        custom: custom.map(str::to_owned),
    }
}

#[test]
fn the_form_is_flat_and_in_question_order() {
    let form = Form::new(&request()).expect("form");
    let schema = serde_json::to_value(form.schema()).expect("json");
    assert_eq!(
        form.schema().property_order.as_deref().expect("order"),
        ["features", "features_other", "db", "db_other", "notes"]
    );
    assert_eq!(schema["properties"]["features"]["type"], "array");
    assert_eq!(
        schema["properties"]["features"]["items"]["anyOf"][0],
        json!({"const": "Auth", "title": "Auth — Sign-in"})
    );
    assert_eq!(
        schema["properties"]["features"]["title"],
        "Features: Which features?"
    );
    assert_eq!(
        schema["properties"]["db"]["oneOf"][1],
        json!({"const": "PostgreSQL", "title": "PostgreSQL"})
    );
    assert_eq!(
        schema["properties"]["notes"],
        json!({"type": "string", "title": "Anything else?"})
    );
}

#[test]
fn multi_select_keeps_labels_and_text_single_select_text_overrides() {
    let answers = answers(
        &request(),
        &content(json!({
            "features": ["Logging", "Auth"], "features_other": "Rate limiting",
            "db": "SQLite", "db_other": "DuckDB",
            "notes": "ship it"
        })),
    )
    .expect("answers");
    assert_eq!(
        answers.answers,
        [
            item("features", &["Auth", "Logging"], Some("Rate limiting")),
            item("db", &[], Some("DuckDB")),
            item("notes", &[], Some("ship it")),
        ]
    );
}

#[test]
fn unknown_labels_reach_the_validator_and_wrong_types_are_named() {
    let answers = answers(
        &request(),
        &content(json!({"features": ["Metrics"], "db": "SQLite", "notes": "x"})),
    )
    .expect("answers");
    assert_eq!(answers.answers[0], item("features", &["Metrics"], None));
    let wrong = super::answers(
        &request(),
        &content(json!({"features": "Auth", "db": ["SQLite"], "notes": 3, "extra": true})),
    )
    .expect_err("wrong types");
    assert_eq!(wrong.len(), 4, "{wrong:?}");
    assert!(wrong.iter().any(|w| w.contains("features must be a list")));
    assert!(wrong.iter().any(|w| w.contains("\"extra\"")));
}

#[test]
fn clashing_field_names_mean_no_form() {
    let request: Request = serde_json::from_value(json!({"questions": [
        {"id": "a", "question": "A?", "options": [{"label": "x"}]},
        {"id": "a_other", "question": "B?"}
    ]}))
    .expect("request");
    assert!(Form::new(&ValidRequest::new(request).expect("valid")).is_none());
}

fn typed_request() -> ValidRequest {
    let request: Request = serde_json::from_value(json!({"questions": [
        {"id": "count", "question": "How many?", "format": "integer", "minimum": 1, "maximum": 9, "default": 3},
        {"id": "price", "question": "Price?", "format": "number", "maximum": 2.5},
        {"id": "day", "question": "Which day?", "format": "date", "minimum": "2026-12-01"},
        {"id": "at", "question": "When?", "format": "date-time"},
        {"id": "mail", "question": "Whom to tell?", "format": "email"},
        {"id": "link", "question": "Where?", "format": "uri"}
    ]}))
    .expect("request");
    ValidRequest::new(request).expect("valid")
}

#[test]
fn typed_questions_get_elicitations_primitive_fields() {
    let form = Form::new(&typed_request()).expect("the client is offered a form");
    let schema = serde_json::to_value(form.schema()).expect("json");
    let field = |id: &str| schema["properties"][id].clone();
    assert_eq!(field("count")["type"], "integer");
    assert_eq!(field("count")["minimum"], 1.0);
    assert_eq!(field("count")["maximum"], 9.0);
    assert_eq!(field("count")["default"], 3);
    assert_eq!(field("price")["type"], "number");
    assert_eq!(field("price")["maximum"], 2.5);
    assert_eq!(field("day")["format"], "date");
    assert_eq!(field("day")["description"], "From 2026-12-01.");
    assert_eq!(field("at")["format"], "date-time");
    assert_eq!(field("mail")["format"], "email");
    assert_eq!(field("link")["format"], "uri");
}

#[test]
fn a_typed_reply_is_text_for_the_validator() {
    let request = typed_request();
    let answers = answers(
        &request,
        &content(
            json!({"count": 12, "price": 1.5, "day": "2026-12-24", "at": "2026-12-24T18:00:00Z",
                        "mail": "ada@example.com", "link": "https://example.com"}),
        ),
    )
    .expect("the shape is right");
    assert_eq!(answers.answers[0], item("count", &[], Some("12")));
    assert_eq!(answers.answers[1], item("price", &[], Some("1.5")));
    // The validator, not the form, says 12 is too many.
    let refused = request.validate_answers(answers).expect_err("out of range");
    assert_eq!(
        refused.iter().next().expect("one").path,
        "answers[0].custom"
    );
}

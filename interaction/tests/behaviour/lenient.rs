use interaction::{LenientAsk, ProblemCode, ValidRequest};

fn decode(json: &str) -> LenientAsk {
    serde_json::from_str(json).expect("lenient ask parses")
}

fn valid(ask: LenientAsk) -> Result<ValidRequest, interaction::Problems> {
    ask.validate().map(|valid| valid.request)
}

#[test]
fn claude_code_shaped_input_gets_ids_by_position() {
    let valid = valid(decode(
        r#"{"questions": [
            {"question": "Which database?", "header": "DB",
             "options": [{"label": "PostgreSQL", "description": "ACID"}, {"label": "SQLite"}],
             "multiSelect": false},
            {"question": "Which features?", "header": "Features",
             "options": [{"label": "Auth", "description": "Sign-in"}], "multiSelect": true}
        ]}"#,
    ))
    .expect("valid");
    let ids: Vec<&str> = valid.questions().iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids, ["q1", "q2"]);
    assert!(valid.questions()[1].multi_select);
    assert_eq!(
        valid.questions()[0].options[0].description.as_deref(),
        Some("ACID")
    );
}

#[test]
fn plain_string_options_and_the_multiple_alias_are_accepted() {
    let valid = valid(decode(
        r#"{"questions": [{"id": "f", "question": "Pick", "options": ["A", {"label": "B"}], "multiple": true}]}"#,
    ))
    .expect("valid");
    let q = &valid.questions()[0];
    assert!(q.multi_select);
    let labels: Vec<&str> = q.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["A", "B"]);
}

#[test]
fn lenient_input_still_goes_through_request_validation() {
    let problems = valid(decode(
        r#"{"questions": [{"question": " ", "options": ["A", "A"]}, {"id": "q1", "question": "Again?"}]}"#,
    ))
    .expect_err("refused");
    assert!(problems.has(ProblemCode::EmptyQuestion));
    assert!(problems.has(ProblemCode::DuplicateOption));
    assert!(
        problems.has(ProblemCode::DuplicateId),
        "an explicit id may collide with a given one"
    );
}

#[test]
fn the_fields_of_a_new_ask_come_along_and_others_are_refused() {
    let ask = decode(
        r#"{"questions": [{"question": "Go?"}], "title": " Deploy ", "agent": "me", "timeoutSeconds": 60}"#,
    )
    .validate()
    .expect("valid");
    assert_eq!(ask.title.as_deref(), Some("Deploy"));
    assert_eq!(ask.agent.as_deref(), Some("me"));
    assert_eq!(ask.timeout_seconds, Some(60));
    let unknown = serde_json::from_str::<LenientAsk>(r#"{"questions": [], "colour": "red"}"#);
    assert!(unknown.is_err(), "unknown fields are refused, not ignored");
}

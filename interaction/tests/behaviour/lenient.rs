use interaction::{LenientRequest, ProblemCode};

fn decode(json: &str) -> LenientRequest {
    serde_json::from_str(json).expect("lenient request parses")
}

#[test]
fn claude_code_shaped_input_gets_ids_by_position() {
    let valid = decode(
        r#"{"questions": [
            {"question": "Which database?", "header": "DB",
             "options": [{"label": "PostgreSQL", "description": "ACID"}, {"label": "SQLite"}],
             "multiSelect": false},
            {"question": "Which features?", "header": "Features",
             "options": [{"label": "Auth", "description": "Sign-in"}], "multiSelect": true}
        ]}"#,
    )
    .validate()
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
    let valid = decode(
        r#"{"questions": [{"id": "f", "question": "Pick", "options": ["A", {"label": "B"}], "multiple": true}]}"#,
    )
    .validate()
    .expect("valid");
    let q = &valid.questions()[0];
    assert!(q.multi_select);
    let labels: Vec<&str> = q.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["A", "B"]);
}

#[test]
fn lenient_input_still_goes_through_request_validation() {
    let problems = decode(
        r#"{"questions": [{"question": " ", "options": ["A", "A"]}, {"id": "q1", "question": "Again?"}]}"#,
    )
    .validate()
    .expect_err("refused");
    assert!(problems.has(ProblemCode::EmptyQuestion));
    assert!(problems.has(ProblemCode::DuplicateOption));
    assert!(
        problems.has(ProblemCode::DuplicateId),
        "an explicit id may collide with a given one"
    );
}

use crate::{answers, codes, sample_request};
use interaction::{AnswerItem, ProblemCode};

const DB: &str = r#"{"id": "db", "selected": ["SQLite"]}"#;
const NOTES: &str = r#"{"id": "notes", "selected": [], "custom": "Ship it"}"#;

fn with(features: &str) -> interaction::Answers {
    answers(&format!(r#"{{"answers": [{DB}, {features}, {NOTES}]}}"#))
}

fn refused(json: interaction::Answers) -> Vec<(String, &'static str)> {
    codes(
        &sample_request()
            .validate_answers(json)
            .expect_err("answers must be refused"),
    )
}

#[test]
fn multi_select_accepts_labels_together_with_custom_text() {
    let valid = sample_request()
        .validate_answers(with(
            r#"{"id": "features", "selected": ["Auth", "Logging"], "custom": "Rate limiting"}"#,
        ))
        .expect("combined answer is valid");
    assert_eq!(
        valid.items()[1],
        AnswerItem {
            id: "features".to_owned(),
            selected: vec!["Auth".to_owned(), "Logging".to_owned()],
            custom: Some("Rate limiting".to_owned()),
        }
    );
}

#[test]
fn labels_only_and_custom_only_answers_are_accepted() {
    let ok = sample_request();
    assert!(ok
        .validate_answers(with(r#"{"id": "features", "selected": ["Metrics"]}"#))
        .is_ok());
    assert!(ok
        .validate_answers(with(
            r#"{"id": "features", "selected": [], "custom": "None"}"#
        ))
        .is_ok());
}

#[test]
fn accepted_answers_are_canonical() {
    let json = answers(
        r#"{"answers": [
            {"id": "notes", "selected": [], "custom": "  padded\n"},
            {"id": "features", "selected": ["Metrics", "Auth"]},
            {"id": "db", "selected": ["SQLite"]}
        ]}"#,
    );
    let valid = sample_request().validate_answers(json).expect("valid");
    let ids: Vec<&str> = valid.items().iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["db", "features", "notes"], "request order");
    assert_eq!(
        valid.items()[1].selected,
        ["Auth", "Metrics"],
        "option order"
    );
    assert_eq!(
        valid.items()[2].custom.as_deref(),
        Some("padded"),
        "trimmed"
    );
}

#[test]
fn unknown_question_is_refused() {
    let json = answers(&format!(
        r#"{{"answers": [{DB}, {{"id": "features", "selected": ["Auth"]}}, {NOTES}, {{"id": "nope", "selected": []}}]}}"#
    ));
    assert_eq!(
        refused(json),
        [("answers[3].id".to_owned(), "unknown_question")]
    );
}

#[test]
fn duplicate_and_missing_answers_are_refused() {
    let json = answers(&format!(r#"{{"answers": [{DB}, {DB}]}}"#));
    let problems = sample_request()
        .validate_answers(json)
        .expect_err("refused");
    assert_eq!(
        codes(&problems),
        [
            ("answers[1].id".to_owned(), "duplicate_answer"),
            ("answers".to_owned(), "missing_answer"),
            ("answers".to_owned(), "missing_answer"),
        ]
    );
    let missing: Vec<_> = problems
        .iter()
        .filter(|p| p.code == ProblemCode::MissingAnswer)
        .map(|p| p.question_id.as_deref())
        .collect();
    assert_eq!(missing, [Some("features"), Some("notes")]);
}

#[test]
fn unknown_and_duplicate_labels_are_refused() {
    let json = with(r#"{"id": "features", "selected": ["Auth", "Nope", "Auth"]}"#);
    assert_eq!(
        refused(json),
        [
            ("answers[1].selected[1]".to_owned(), "unknown_label"),
            ("answers[1].selected[2]".to_owned(), "duplicate_label"),
        ]
    );
}

#[test]
fn single_select_takes_one_label() {
    let json = answers(&format!(
        r#"{{"answers": [{{"id": "db", "selected": ["SQLite", "PostgreSQL"]}}, {{"id": "features", "selected": ["Auth"]}}, {NOTES}]}}"#
    ));
    assert_eq!(
        refused(json),
        [("answers[0].selected".to_owned(), "too_many_selected")]
    );
}

#[test]
fn single_select_with_label_and_custom_text_is_refused() {
    let json = answers(&format!(
        r#"{{"answers": [{{"id": "db", "selected": ["SQLite"], "custom": "MySQL"}}, {{"id": "features", "selected": ["Auth"]}}, {NOTES}]}}"#
    ));
    assert_eq!(
        refused(json),
        [("answers[0].custom".to_owned(), "exclusive_custom")]
    );
}

#[test]
fn optionless_question_refuses_labels() {
    let json = answers(&format!(
        r#"{{"answers": [{DB}, {{"id": "features", "selected": ["Auth"]}}, {{"id": "notes", "selected": ["Auth"], "custom": "x"}}]}}"#
    ));
    assert_eq!(
        refused(json),
        [
            ("answers[2].selected[0]".to_owned(), "unknown_label"),
            ("answers[2].custom".to_owned(), "exclusive_custom"),
        ]
    );
}

#[test]
fn blank_and_overlong_custom_text_is_refused() {
    let long = "字".repeat(10_001);
    let json = answers(&format!(
        r#"{{"answers": [{DB}, {{"id": "features", "selected": ["Auth"], "custom": " \n "}}, {{"id": "notes", "selected": [], "custom": "{long}"}}]}}"#
    ));
    assert_eq!(
        refused(json),
        [
            ("answers[1].custom".to_owned(), "empty_custom"),
            ("answers[2].custom".to_owned(), "custom_too_long"),
        ]
    );
    let limit = "字".repeat(10_000);
    let json = answers(&format!(
        r#"{{"answers": [{DB}, {{"id": "features", "selected": ["Auth"]}}, {{"id": "notes", "selected": [], "custom": "{limit}"}}]}}"#
    ));
    assert!(sample_request().validate_answers(json).is_ok());
}

#[test]
fn an_answer_needs_a_label_or_custom_text() {
    let json = with(r#"{"id": "features", "selected": [], "custom": null}"#);
    assert_eq!(refused(json), [("answers[1]".to_owned(), "empty_answer")]);
}

#[test]
fn messages_name_what_is_wrong() {
    let json = with(r#"{"id": "features", "selected": ["Nope"]}"#);
    let problems = sample_request()
        .validate_answers(json)
        .expect_err("refused");
    assert_eq!(
        problems.0[0].message,
        r#""Nope" is not an option of question "features""#
    );
    assert_eq!(problems.0[0].question_id.as_deref(), Some("features"));
}

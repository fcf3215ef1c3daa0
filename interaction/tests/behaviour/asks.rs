use crate::codes;
use interaction::{AskStatus, Decline, Declined, NewAsk, MAX_TIMEOUT_SECONDS};

fn new_ask(json: &str) -> NewAsk {
    serde_json::from_str(json).expect("new ask parses")
}

const ONE_QUESTION: &str =
    r#""questions": [{"id": "db", "question": "Which?", "options": [{"label": "SQLite"}]}]"#;

#[test]
fn a_new_ask_trims_its_title_and_agent_and_drops_blank_ones() {
    let valid = new_ask(&format!(
        r#"{{{ONE_QUESTION}, "title": "  Pick a database ", "agent": "   ", "timeoutSeconds": 60}}"#
    ))
    .validate()
    .expect("valid ask");
    assert_eq!(valid.title.as_deref(), Some("Pick a database"));
    assert_eq!(valid.agent, None);
    assert_eq!(valid.timeout_seconds, Some(60));
    assert_eq!(valid.request.questions()[0].id, "db");
}

#[test]
fn a_new_ask_reports_request_and_ask_problems_together() {
    let long_title = "t".repeat(201);
    let long_agent = "a".repeat(101);
    let problems = new_ask(&format!(
        r#"{{"questions": [], "title": "{long_title}", "agent": "{long_agent}", "timeoutSeconds": 0}}"#
    ))
    .validate()
    .expect_err("refused");
    assert_eq!(
        codes(&problems),
        [
            ("questions".to_owned(), "no_questions"),
            ("title".to_owned(), "title_too_long"),
            ("agent".to_owned(), "agent_too_long"),
            ("timeoutSeconds".to_owned(), "timeout_out_of_range"),
        ]
    );
}

#[test]
fn a_timeout_may_be_at_most_seven_days() {
    let at = |seconds: u64| {
        new_ask(&format!(
            r#"{{{ONE_QUESTION}, "timeoutSeconds": {seconds}}}"#
        ))
        .validate()
    };
    assert!(at(MAX_TIMEOUT_SECONDS).is_ok());
    assert!(at(1).is_ok());
    assert!(at(MAX_TIMEOUT_SECONDS + 1).is_err());
}

#[test]
fn a_new_ask_refuses_unknown_fields() {
    let err = serde_json::from_str::<NewAsk>(&format!(r#"{{{ONE_QUESTION}, "timeout": 5}}"#))
        .expect_err("unknown field");
    assert!(err.to_string().contains("unknown field `timeout`"), "{err}");
}

#[test]
fn a_decline_reason_is_trimmed_and_limited() {
    let valid = Decline {
        reason: Some("  not now \n".to_owned()),
    }
    .validate()
    .expect("valid");
    assert_eq!(valid.reason.as_deref(), Some("not now"));
    assert_eq!(Decline::default().validate().expect("valid").reason, None);
    let problems = Decline {
        reason: Some("x".repeat(10_001)),
    }
    .validate()
    .expect_err("too long");
    assert_eq!(codes(&problems), [("reason".to_owned(), "reason_too_long")]);
}

#[test]
fn statuses_read_back_from_their_names() {
    for status in AskStatus::ALL {
        assert_eq!(AskStatus::parse(status.as_str()), Some(status));
        let json = serde_json::to_string(&status).expect("serializes");
        assert_eq!(json, format!("\"{}\"", status.as_str()));
    }
    assert_eq!(AskStatus::parse("done"), None);
    assert!(!AskStatus::Pending.is_finished());
    assert!(AskStatus::Expired.is_finished());
}

#[test]
fn a_declined_request_file_prints_its_reason_then_its_status() {
    let printed = |reason: Option<&str>| {
        serde_json::to_string(&Declined::new(reason.map(str::to_owned))).expect("JSON")
    };
    assert_eq!(
        printed(Some("Not now")),
        r#"{"reason":"Not now","status":"declined"}"#
    );
    assert_eq!(printed(None), r#"{"reason":null,"status":"declined"}"#);
    let other: Result<Declined, _> = serde_json::from_str(r#"{"reason":null,"status":"answered"}"#);
    assert!(other.is_err(), "only declined is a Declined");
}

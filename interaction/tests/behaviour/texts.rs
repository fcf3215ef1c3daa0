//! Control characters: refused in every text that comes in, at its path;
//! read as they were from what a store kept before the rule.

use crate::{answers, codes, sample_request};
use interaction::{Decline, NewAsk, Request, ValidRequest};

#[test]
fn every_text_of_a_new_ask_refuses_control_characters_at_its_path() {
    let new: NewAsk = serde_json::from_value(serde_json::json!({
        "title": "Ship\u{0}it",
        "agent": "bot\u{1b}[31m",
        "timeoutSeconds": 60,
        "questions": [{
            "id": "db", "question": "Which\rdatabase?", "header": "D\u{7}b",
            "options": [
                {"label": "SQLite\u{8}", "description": "small\u{0c}", "preview": "a\r\nb"},
                {"label": "PostgreSQL", "description": "tab\tand\nnewline are text"}
            ]
        }],
        "defaultAnswers": [{"id": "db", "selected": ["PostgreSQL"]}]
    }))
    .expect("decodes");
    let problems = new.validate().expect_err("refused");
    assert_eq!(
        codes(&problems),
        [
            ("questions[0].question".to_owned(), "control_character"),
            ("questions[0].header".to_owned(), "control_character"),
            (
                "questions[0].options[0].label".to_owned(),
                "control_character"
            ),
            (
                "questions[0].options[0].description".to_owned(),
                "control_character"
            ),
            (
                "questions[0].options[0].preview".to_owned(),
                "control_character"
            ),
            ("title".to_owned(), "control_character"),
            ("agent".to_owned(), "control_character"),
        ]
    );
    assert!(
        problems.iter().all(|p| p.message.contains("U+00")),
        "{problems}"
    );
}

#[test]
fn answers_defaults_and_reasons_refuse_control_characters() {
    let request = sample_request();
    let refused = request
        .validate_answers(answers(
            r#"{"answers": [
              {"id": "db", "selected": ["SQLite"]},
              {"id": "features", "selected": ["Auth"], "custom": "Tracing\u0000"},
              {"id": "notes", "custom": "line one\r\nline two"}
            ]}"#,
        ))
        .expect_err("refused");
    assert_eq!(
        codes(&refused),
        [
            ("answers[1].custom".to_owned(), "control_character"),
            ("answers[2].custom".to_owned(), "control_character"),
        ]
    );
    let multi_line = r#"{"answers": [
      {"id": "db", "selected": ["SQLite"]},
      {"id": "features", "selected": ["Auth"], "custom": "Tracing,\n\tand metrics"},
      {"id": "notes", "custom": "fine"}
    ]}"#;
    request
        .validate_answers(answers(multi_line))
        .expect("tab and newline are text");

    let refused = Decline {
        reason: Some("not now\u{0}".to_owned()),
    }
    .validate()
    .expect_err("refused");
    assert_eq!(
        codes(&refused),
        [("reason".to_owned(), "control_character")]
    );
}

/// DEL and the C1 controls (U+0080 to U+009F; U+009B is an 8-bit CSI,
/// which some terminals take as an escape) are control characters too;
/// the letters just past them are text.
#[test]
fn del_and_c1_controls_are_refused_at_their_path_like_the_others() {
    let new: NewAsk = serde_json::from_value(serde_json::json!({
        "title": "Ship\u{7f}it",
        "agent": "bot\u{9b}31m",
        "context": "next line\u{85}here",
        "questions": [{
            "id": "db", "question": "Which database?\u{80}", "header": "Db",
            "options": [
                {"label": "SQLite", "preview": "rm\u{9f}"},
                {"label": "PostgreSQL", "description": "\u{a0}non-breaking and \u{a9} are text"}
            ]
        }]
    }))
    .expect("decodes");
    let problems = new.validate().expect_err("refused");
    assert_eq!(
        codes(&problems),
        [
            ("context".to_owned(), "control_character"),
            ("questions[0].question".to_owned(), "control_character"),
            (
                "questions[0].options[0].preview".to_owned(),
                "control_character"
            ),
            ("title".to_owned(), "control_character"),
            ("agent".to_owned(), "control_character"),
        ]
    );
    assert!(
        problems.iter().any(|p| p.message.contains("U+009B")),
        "{problems}"
    );

    let request = sample_request();
    let refused = request
        .validate_answers(answers(
            r#"{"answers": [
              {"id": "db", "selected": ["SQLite"]},
              {"id": "features", "selected": ["Auth"], "custom": "Tracing\u009b"},
              {"id": "notes", "custom": "delete\u007f"}
            ]}"#,
        ))
        .expect_err("refused");
    assert_eq!(
        codes(&refused),
        [
            ("answers[1].custom".to_owned(), "control_character"),
            ("answers[2].custom".to_owned(), "control_character"),
        ]
    );
    let refused = Decline {
        reason: Some("not\u{9b}now".to_owned()),
    }
    .validate()
    .expect_err("refused");
    assert_eq!(
        codes(&refused),
        [("reason".to_owned(), "control_character")]
    );
}

/// An ask stored before the rule (a form's posted CRLF, a preview with one)
/// stays readable: by the store, and on the wire from the server.
#[test]
fn what_a_store_kept_before_the_rule_reads_as_it_was() {
    let stored: Request = serde_json::from_value(serde_json::json!({"questions": [
        {"id": "notes", "question": "Windows\r\nline endings?"}
    ]}))
    .expect("decodes");
    assert!(
        ValidRequest::new(stored.clone()).is_err(),
        "refused coming in"
    );
    let request = ValidRequest::stored(stored.clone()).expect("read as stored");
    let decoded: ValidRequest =
        serde_json::from_value(serde_json::to_value(&stored).expect("json")).expect("wire");
    assert_eq!(decoded, request);
    let old = answers(r#"{"answers": [{"id": "notes", "custom": "yes\r\nand no"}]}"#);
    assert!(request.validate_answers(old.clone()).is_err());
    let kept = request
        .validate_stored_answers(old)
        .expect("read as stored");
    assert_eq!(kept.items()[0].custom.as_deref(), Some("yes\r\nand no"));
}

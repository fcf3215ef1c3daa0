use crate::codes;
use interaction::{ProblemCode, Question, QuestionOption, Request, ValidRequest};

fn question(id: &str, options: &[&str], multi: bool) -> Question {
    Question {
        id: id.to_owned(),
        question: format!("Question {id}?"),
        header: None,
        options: options
            .iter()
            .map(|l| QuestionOption {
                label: (*l).to_owned(),
                description: None,
                preview: None,
            })
            .collect(),
        multi_select: multi,
        format: None,
        minimum: None,
        maximum: None,
        default: None,
    }
}

fn problems_of(questions: Vec<Question>) -> interaction::Problems {
    ValidRequest::new(Request {
        questions,
        context: None,
    })
    .expect_err("request must be refused")
}

#[test]
fn a_request_needs_at_least_one_question() {
    assert_eq!(
        codes(&problems_of(vec![])),
        [("questions".to_owned(), "no_questions")]
    );
}

#[test]
fn a_request_takes_at_most_fifty_questions() {
    let ok: Vec<_> = (0..50)
        .map(|i| question(&format!("q{i}"), &[], false))
        .collect();
    assert!(ValidRequest::new(Request {
        questions: ok.clone(),
        context: None,
    })
    .is_ok());
    let mut too_many = ok;
    too_many.push(question("q50", &[], false));
    assert_eq!(
        codes(&problems_of(too_many)),
        [("questions".to_owned(), "too_many_questions")]
    );
}

#[test]
fn ids_must_use_the_allowed_characters_and_length() {
    for bad in ["", "has space", "é", "a.b", &"x".repeat(65)] {
        let problems = problems_of(vec![question(bad, &[], false)]);
        assert_eq!(
            codes(&problems),
            [("questions[0].id".to_owned(), "invalid_id")],
            "{bad:?}"
        );
    }
    let good = "Az09_-".to_owned() + &"x".repeat(58);
    assert!(ValidRequest::new(Request {
        questions: vec![question(&good, &[], false)],
        context: None,
    })
    .is_ok());
}

#[test]
fn ids_must_be_unique() {
    let problems = problems_of(vec![question("a", &[], false), question("a", &[], false)]);
    assert_eq!(
        codes(&problems),
        [("questions[1].id".to_owned(), "duplicate_id")]
    );
}

#[test]
fn question_text_must_not_be_blank_or_too_long() {
    let mut blank = question("a", &[], false);
    blank.question = " \n\t".to_owned();
    let mut long = question("b", &[], false);
    long.question = "日".repeat(4_001);
    let mut longest = question("c", &[], false);
    longest.question = "日".repeat(4_000);
    let problems = problems_of(vec![blank, long, longest]);
    assert_eq!(
        codes(&problems),
        [
            ("questions[0].question".to_owned(), "empty_question"),
            ("questions[1].question".to_owned(), "question_too_long"),
        ]
    );
}

#[test]
fn header_may_have_at_most_forty_characters() {
    let mut q = question("a", &[], false);
    q.header = Some("h".repeat(41));
    assert_eq!(
        codes(&problems_of(vec![q])),
        [("questions[0].header".to_owned(), "header_too_long")]
    );
}

#[test]
fn options_are_limited_in_number_and_labels_must_be_sound() {
    let many: Vec<String> = (0..33).map(|i| format!("o{i}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let long = "l".repeat(201);
    let problems = problems_of(vec![
        question("many", &many, false),
        question("labels", &["A", " ", &long, "A"], true),
    ]);
    assert_eq!(
        codes(&problems),
        [
            ("questions[0].options".to_owned(), "too_many_options"),
            ("questions[1].options[1].label".to_owned(), "empty_label"),
            ("questions[1].options[2].label".to_owned(), "label_too_long"),
            (
                "questions[1].options[3].label".to_owned(),
                "duplicate_option"
            ),
        ]
    );
}

#[test]
fn multi_select_needs_options() {
    let problems = problems_of(vec![question("a", &[], true)]);
    assert_eq!(
        codes(&problems),
        [(
            "questions[0].multiSelect".to_owned(),
            "multi_select_without_options"
        )]
    );
    assert_eq!(problems.0[0].question_id.as_deref(), Some("a"));
}

#[test]
fn every_problem_is_reported_at_once_with_a_message() {
    let mut q = question("bad id", &["", ""], true);
    q.question = String::new();
    let problems = problems_of(vec![q]);
    assert!(problems.has(ProblemCode::InvalidId));
    assert!(problems.has(ProblemCode::EmptyQuestion));
    assert_eq!(
        problems
            .iter()
            .filter(|p| p.code == ProblemCode::EmptyLabel)
            .count(),
        2
    );
    assert!(problems.iter().all(|p| !p.message.is_empty()));
}

#[test]
fn problems_serialize_with_path_code_and_message() {
    let problems = problems_of(vec![]);
    let json = serde_json::to_value(&problems.0[0]).expect("serializes");
    assert_eq!(
        json,
        serde_json::json!({
            "path": "questions",
            "code": "no_questions",
            "message": "a request needs at least one question"
        })
    );
}

#[test]
fn a_misspelt_question_field_is_refused_rather_than_ignored() {
    let err = serde_json::from_str::<Request>(
        r#"{"questions": [{"id": "a", "question": "?", "options": [{"label": "x"}], "multiselect": true}]}"#,
    )
    .expect_err("unknown field");
    assert!(
        err.to_string().contains("unknown field `multiselect`"),
        "{err}"
    );
    let err = serde_json::from_str::<Request>(
        r#"{"questions": [{"id": "a", "question": "?", "options": [{"label": "x", "desc": "y"}]}]}"#,
    )
    .expect_err("unknown field");
    assert!(err.to_string().contains("unknown field `desc`"), "{err}");
}

#[test]
fn option_descriptions_and_previews_are_limited() {
    let mut q = question("a", &["x"], false);
    q.options[0].description = Some("d".repeat(interaction::MAX_DESCRIPTION_CHARS + 1));
    q.options[0].preview = Some("p".repeat(interaction::MAX_PREVIEW_CHARS + 1));
    assert_eq!(
        codes(&problems_of(vec![q])),
        [
            (
                "questions[0].options[0].description".to_owned(),
                "description_too_long"
            ),
            (
                "questions[0].options[0].preview".to_owned(),
                "preview_too_long"
            ),
        ]
    );
}

#[test]
fn a_decoded_valid_request_is_validated_and_encodes_as_the_request_itself() {
    let json = r#"{"questions":[{"id":"a","question":"Go?","options":[{"label":"Yes"},{"label":"No"}],"multiSelect":false}]}"#;
    let valid: ValidRequest = serde_json::from_str(json).expect("a valid request decodes");
    assert_eq!(serde_json::to_string(&valid).expect("encodes"), json);
    assert_eq!(valid.questions()[0].id, "a");

    // Two questions with one id: the same refusal `ValidRequest::new` gives.
    let twice = r#"{"questions":[{"id":"a","question":"Go?"},{"id":"a","question":"Stop?"}]}"#;
    let error = serde_json::from_str::<ValidRequest>(twice)
        .expect_err("an invalid request does not decode")
        .to_string();
    let request: Request = serde_json::from_str(twice).expect("decodes as a plain request");
    let problems = ValidRequest::new(request).expect_err("refused");
    assert_eq!(error, problems.to_string());
    assert!(error.contains("questions[1].id"), "{error}");
}

#[test]
fn a_context_is_text_of_at_most_four_thousand_characters() {
    let with = |context: String| {
        ValidRequest::new(Request {
            questions: vec![question("q1", &[], false)],
            context: Some(context),
        })
    };
    let kept = with("I changed the schema.\n\nShould I migrate?".to_owned()).expect("valid");
    assert_eq!(
        kept.context(),
        Some("I changed the schema.\n\nShould I migrate?")
    );
    let long = with("é".repeat(4_001)).expect_err("too long");
    assert_eq!(codes(&long), [("context".to_owned(), "context_too_long")]);
    let control = with("a\u{7}b".to_owned()).expect_err("control character");
    assert_eq!(
        codes(&control),
        [("context".to_owned(), "control_character")]
    );
}

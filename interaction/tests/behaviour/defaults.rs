//! Default answers: what the agent goes on with if nobody answers before
//! its ask expires. They are checked by the one validator when the ask is
//! made, need a timeout, and never read as a person's answers.

use crate::{codes, sample_request};
use interaction::{project, AnswerItem, Ask, LenientAsk, NewAsk, Outcome, ProblemCode};
use serde_json::json;

fn new_ask(value: serde_json::Value) -> NewAsk {
    serde_json::from_value(value).expect("new ask parses")
}

fn questions() -> serde_json::Value {
    serde_json::to_value(sample_request().questions()).expect("questions")
}

#[test]
fn defaults_with_a_timeout_are_kept_in_canonical_form() {
    let valid = new_ask(json!({
        "questions": questions(),
        "timeoutSeconds": 600,
        "defaultAnswers": [
            {"id": "notes", "custom": "  none  "},
            {"id": "features", "selected": ["Metrics", "Auth"]},
            {"id": "db", "selected": ["SQLite"]}
        ]
    }))
    .validate()
    .expect("valid ask");
    let defaults = valid.default_answers.expect("defaults kept");
    let ids: Vec<&str> = defaults.items().iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["db", "features", "notes"]);
    assert_eq!(defaults.items()[1].selected, ["Auth", "Metrics"]);
    assert_eq!(defaults.items()[2].custom.as_deref(), Some("none"));
}

#[test]
fn an_ask_without_defaults_has_none() {
    let valid = new_ask(json!({"questions": questions(), "timeoutSeconds": 60}))
        .validate()
        .expect("valid ask");
    assert_eq!(valid.default_answers, None);
}

#[test]
fn broken_defaults_are_refused_at_their_own_paths_with_the_validators_codes() {
    let problems = new_ask(json!({
        "questions": questions(),
        "timeoutSeconds": 600,
        "defaultAnswers": [
            {"id": "db", "selected": ["MySQL"]},
            {"id": "nope", "selected": []},
            {"id": "features", "selected": ["Auth"]}
        ]
    }))
    .validate()
    .expect_err("refused");
    let found = codes(&problems);
    for expected in [
        ("defaultAnswers[0].selected[0]", "unknown_label"),
        ("defaultAnswers[1].id", "unknown_question"),
        ("defaultAnswers", "missing_answer"),
    ] {
        assert!(
            found.contains(&(expected.0.to_owned(), expected.1)),
            "{expected:?} missing from {found:?}"
        );
    }
    assert!(found
        .iter()
        .all(|(path, _)| path.starts_with("defaultAnswers")));
}

#[test]
fn defaults_without_a_timeout_are_refused_naming_the_rule() {
    let problems = new_ask(json!({
        "questions": questions(),
        "defaultAnswers": [
            {"id": "db", "selected": ["SQLite"]},
            {"id": "features", "selected": ["Auth"]},
            {"id": "notes", "custom": "none"}
        ]
    }))
    .validate()
    .expect_err("refused");
    assert_eq!(
        codes(&problems),
        [("defaultAnswers".to_owned(), "defaults_without_timeout")]
    );
    assert!(problems.has(ProblemCode::DefaultsWithoutTimeout));
    let problem = problems.iter().next().expect("one problem");
    assert!(problem.message.contains("timeoutSeconds"), "{problem}");
    assert!(problem
        .text(interaction::Lang::Zh)
        .contains("timeoutSeconds"));
}

#[test]
fn an_empty_list_of_defaults_is_checked_too() {
    let problems = new_ask(json!({
        "questions": questions(),
        "timeoutSeconds": 60,
        "defaultAnswers": []
    }))
    .validate()
    .expect_err("every question needs a default");
    assert_eq!(codes(&problems).len(), 3);
    assert!(codes(&problems)
        .iter()
        .all(|p| *p == ("defaultAnswers".to_owned(), "missing_answer")));
}

#[test]
fn agents_pass_defaults_through_the_lenient_shape_by_positional_ids() {
    let lenient: LenientAsk = serde_json::from_value(json!({
        "questions": [
            {"question": "Which database?", "options": ["SQLite", "PostgreSQL"]},
            {"question": "Anything else?"}
        ],
        "timeoutSeconds": 120,
        "defaultAnswers": [
            {"id": "q1", "selected": ["SQLite"]},
            {"id": "q2", "custom": "No"}
        ]
    }))
    .expect("lenient ask");
    let valid = lenient.validate().expect("valid");
    assert_eq!(valid.default_answers.expect("defaults").items().len(), 2);
}

fn defaults() -> interaction::ValidAnswers {
    sample_request()
        .validate_answers(crate::answers(
            r#"{"answers": [
              {"id": "db", "selected": ["SQLite"]},
              {"id": "features", "selected": ["Auth"], "custom": "And \"Metrics\""},
              {"id": "notes", "custom": "none"}
            ]}"#,
        ))
        .expect("valid defaults")
}

#[test]
fn the_projection_of_defaults_says_no_person_answered_and_marks_each_default() {
    let request = sample_request();
    let out = project(&request, &Outcome::Defaulted(defaults()));
    assert_eq!(
        out.text,
        "No person answered: the question expired first. The agent's own default answers, \
         given when it asked, apply instead; the user did not choose them. Quoted strings \
         are JSON.\n\n\
         Question 1 (id \"db\", header \"Database\"): \"Which database should we use?\"\n\
         Default options: [\"SQLite\"]\n\n\
         Question 2 (id \"features\", header \"Features\"): \"Which features do you want?\"\n\
         Default options: [\"Auth\"]\n\
         Default text: \"And \\\"Metrics\\\"\"\n\n\
         Question 3 (id \"notes\"): \"Anything else we should know?\"\n\
         Default options: []\n\
         Default text: \"none\""
    );
    assert!(!out.text.contains("typed by the user") && !out.text.contains("The user answered"));
    let structured = serde_json::to_value(&out.structured).expect("json");
    assert_eq!(structured["status"], "expired");
    assert_eq!(structured["defaulted"], true);
    assert_eq!(structured["answers"][0]["selected"], json!(["SQLite"]));
    assert_eq!(Outcome::Defaulted(defaults()).answers(), None);
    assert_eq!(
        Outcome::Defaulted(defaults()).status(),
        interaction::AskStatus::Expired
    );
}

#[test]
fn outcomes_without_defaults_say_nothing_of_them() {
    let request = sample_request();
    for outcome in [
        Outcome::Expired,
        Outcome::Cancelled,
        Outcome::Answered(defaults()),
    ] {
        let structured =
            serde_json::to_value(project(&request, &outcome).structured).expect("json");
        assert!(structured.get("defaulted").is_none(), "{structured}");
        assert_eq!(outcome.defaults(), None);
    }
}

#[test]
fn an_ask_shows_defaulted_and_its_defaults_only_when_it_has_them() {
    let plain = json!({
        "id": "0123456789abcdef0123456789abcdef",
        "url": "http://127.0.0.1:3000/asks/0123456789abcdef0123456789abcdef",
        "status": "expired",
        "title": null,
        "agent": null,
        "request": {"questions": questions()},
        "createdAt": "2026-11-30T11:20:00.000Z",
        "expiresAt": "2026-11-30T11:30:00.000Z",
        "finishedAt": "2026-11-30T11:30:00.000Z",
        "declineReason": null,
        "answeredBy": null,
        "via": null
    });
    let ask: Ask = serde_json::from_value(plain.clone()).expect("ask");
    assert!(!ask.defaulted && ask.default_answers.is_none());
    assert_eq!(serde_json::to_value(&ask).expect("json"), plain);

    let items: Vec<AnswerItem> = defaults().items().to_vec();
    let mut with_defaults = plain;
    with_defaults["answers"] = serde_json::to_value(&items).expect("json");
    with_defaults["defaultAnswers"] = serde_json::to_value(&items).expect("json");
    with_defaults["defaulted"] = json!(true);
    let ask: Ask = serde_json::from_value(with_defaults.clone()).expect("ask");
    assert!(ask.defaulted);
    assert_eq!(serde_json::to_value(&ask).expect("json"), with_defaults);
}

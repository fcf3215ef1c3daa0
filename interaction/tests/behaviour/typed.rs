//! Typed answers: a question without options may name a format, bounds and
//! a default; the one validator checks the request when it is made and the
//! typed text of every answer.

use crate::{answers, codes};
use interaction::{BatchDraft, Format, ProblemCode, Request, ValidRequest};
use proptest::prelude::*;
use serde_json::json;

fn request(question: serde_json::Value) -> Result<ValidRequest, interaction::Problems> {
    let request: Request =
        serde_json::from_value(json!({"questions": [question]})).expect("request JSON");
    ValidRequest::new(request)
}

fn typed(format: &str, extra: serde_json::Value) -> ValidRequest {
    let mut question = json!({"id": "n", "question": "How many?", "format": format});
    if let (Some(q), Some(extra)) = (question.as_object_mut(), extra.as_object()) {
        q.extend(extra.clone());
    }
    request(question).expect("valid typed question")
}

fn answer(request: &ValidRequest, text: &str) -> Result<(), Vec<(String, &'static str)>> {
    let json = json!({"answers": [{"id": "n", "selected": [], "custom": text}]}).to_string();
    request
        .validate_answers(answers(&json))
        .map(|_| ())
        .map_err(|p| codes(&p))
}

#[test]
fn typed_text_is_checked_against_the_format_and_its_bounds() {
    let integer = typed("integer", json!({"minimum": 1, "maximum": 10}));
    assert_eq!(answer(&integer, " 7 "), Ok(()));
    assert_eq!(answer(&integer, "1"), Ok(()));
    assert_eq!(
        answer(&integer, "7.5"),
        Err(vec![("answers[0].custom".to_owned(), "invalid_format")])
    );
    assert_eq!(
        answer(&integer, "11"),
        Err(vec![("answers[0].custom".to_owned(), "out_of_range")])
    );
    assert_eq!(
        answer(&integer, "0"),
        Err(vec![("answers[0].custom".to_owned(), "out_of_range")])
    );

    let date = typed(
        "date",
        json!({"minimum": "2026-12-01", "maximum": "2026-12-31"}),
    );
    assert_eq!(answer(&date, "2026-12-24"), Ok(()));
    assert_eq!(
        answer(&date, "2027-01-01"),
        Err(vec![("answers[0].custom".to_owned(), "out_of_range")])
    );
    assert_eq!(
        answer(&date, "24.12.2026"),
        Err(vec![("answers[0].custom".to_owned(), "invalid_format")])
    );

    let email = typed("email", json!({}));
    assert_eq!(answer(&email, "ada@example.com"), Ok(()));
    assert_eq!(
        answer(&email, "ada at example"),
        Err(vec![("answers[0].custom".to_owned(), "invalid_format")])
    );
}

#[test]
fn the_message_names_the_rule_and_the_value() {
    let number = typed("number", json!({"maximum": 2.5}));
    let json = json!({"answers": [{"id": "n", "selected": [], "custom": "3"}]}).to_string();
    let problems = number
        .validate_answers(answers(&json))
        .expect_err("too big");
    let problem = problems.iter().next().expect("one");
    assert_eq!(problem.code, ProblemCode::OutOfRange);
    assert_eq!(problem.message, "the answer must be at most 2.5; 3 is more");
    assert_eq!(problem.question_id.as_deref(), Some("n"));
}

/// What a UI shows while typing names the typed value in every language,
/// as the API's message does: the browser's bundles, built without `{:?}`,
/// say the same as the server.
#[test]
fn a_drafts_reason_names_the_typed_value_in_every_language() {
    use interaction::Lang;
    for (format, extra, text) in [
        ("email", json!({}), "ada at example"),
        ("uri", json!({}), "not a link"),
        ("integer", json!({"minimum": 1, "maximum": 10}), "11"),
        ("date", json!({"minimum": "2026-01-01"}), "2025-12-31"),
    ] {
        let request = typed(format, extra);
        let mut batch = BatchDraft::new(&request);
        batch.draft_mut(0).expect("draft").set_custom(text);
        let reason = batch.drafts()[0].status().expect_err("refused");
        let json = json!({"answers": [{"id": "n", "selected": [], "custom": text}]}).to_string();
        let api = request
            .validate_answers(answers(&json))
            .expect_err("refused");
        let message = &api.iter().next().expect("one").message;
        assert_eq!(reason.text(Lang::En), *message, "{format}");
        assert!(
            message.contains(&format!("{text:?}")) || message.contains(text),
            "{message}"
        );
        assert!(
            reason.text(Lang::Zh).contains(text),
            "{format}: {}",
            reason.text(Lang::Zh)
        );
    }
}

#[test]
fn a_request_with_an_unknown_format_or_bad_bounds_is_refused_where_it_is_wrong() {
    let refused = |question| codes(&request(question).expect_err("refused"));
    assert_eq!(
        refused(json!({"id": "n", "question": "?", "format": "color"})),
        vec![("questions[0].format".to_owned(), "unknown_format")]
    );
    assert_eq!(
        refused(
            json!({"id": "n", "question": "?", "format": "integer", "options": [{"label": "A"}]})
        ),
        vec![("questions[0].format".to_owned(), "format_with_options")]
    );
    assert_eq!(
        refused(json!({"id": "n", "question": "?", "format": "integer", "minimum": 1.5})),
        vec![("questions[0].minimum".to_owned(), "invalid_bound")]
    );
    assert_eq!(
        refused(
            json!({"id": "n", "question": "?", "format": "date", "minimum": "2026-12-31", "maximum": "2026-01-01"})
        ),
        vec![("questions[0].maximum".to_owned(), "invalid_bound")]
    );
    assert_eq!(
        refused(json!({"id": "n", "question": "?", "format": "email", "maximum": 3})),
        vec![("questions[0].maximum".to_owned(), "invalid_bound")]
    );
    assert_eq!(
        refused(json!({"id": "n", "question": "?", "minimum": 3})),
        vec![("questions[0].minimum".to_owned(), "invalid_bound")]
    );
    assert_eq!(
        refused(
            json!({"id": "n", "question": "?", "format": "integer", "maximum": 5, "default": 9})
        ),
        vec![("questions[0].default".to_owned(), "invalid_default")]
    );
}

#[test]
fn a_default_starts_the_draft_and_answers_when_kept() {
    let request = typed("integer", json!({"minimum": 1, "default": 3}));
    let draft = BatchDraft::new(&request);
    let answers = draft.answers();
    assert_eq!(
        serde_json::to_value(&answers).expect("json"),
        json!({"answers": [{"id": "n", "selected": [], "custom": "3"}]})
    );
    request
        .validate_answers(answers)
        .expect("the default is valid");
}

#[test]
fn formats_and_bounds_round_trip_as_given() {
    let request = typed(
        "number",
        json!({"minimum": 0, "maximum": 2.5, "default": "1"}),
    );
    assert_eq!(
        serde_json::to_value(request.request()).expect("json")["questions"][0],
        json!({"id": "n", "question": "How many?", "options": [], "multiSelect": false,
               "format": "number", "minimum": 0, "maximum": 2.5, "default": "1"})
    );
    assert_eq!(request.questions()[0].format(), Some(Format::Number));
}

proptest! {
    /// Every integer in the bounds is accepted and every one outside is
    /// refused as out of range, whatever the bounds.
    #[test]
    fn integers_are_accepted_exactly_within_their_bounds(
        a in -1_000i64..1_000, b in -1_000i64..1_000, n in -2_000i64..2_000,
    ) {
        let (least, most) = (a.min(b), a.max(b));
        let request = typed("integer", json!({"minimum": least, "maximum": most}));
        let result = answer(&request, &n.to_string());
        if (least..=most).contains(&n) {
            prop_assert_eq!(result, Ok(()));
        } else {
            prop_assert_eq!(result, Err(vec![("answers[0].custom".to_owned(), "out_of_range")]));
        }
    }

    /// Any date a person may pick is accepted by the date format, and its
    /// order is the calendar's.
    #[test]
    fn dates_compare_as_the_calendar(
        y in 1900i32..2200, m in 1u8..=12, d in 1u8..=28, later in 1u32..400,
    ) {
        let day = format!("{y:04}-{m:02}-{d:02}");
        let request = typed("date", json!({"minimum": day}));
        prop_assert_eq!(answer(&request, &day), Ok(()));
        let date = time::Date::from_calendar_date(y, time::Month::try_from(m).expect("month"), d)
            .expect("date");
        let after = date + time::Duration::days(i64::from(later));
        let before = date - time::Duration::days(i64::from(later));
        let text = |d: time::Date| format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day());
        prop_assert_eq!(answer(&request, &text(after)), Ok(()));
        prop_assert_eq!(
            answer(&request, &text(before)),
            Err(vec![("answers[0].custom".to_owned(), "out_of_range")])
        );
    }

    /// Text that is no number is never accepted as one.
    #[test]
    fn letters_are_never_a_number(text in "[a-df-z]{1,8}") {
        let request = typed("number", json!({}));
        prop_assert!(answer(&request, &text).is_err());
    }
}

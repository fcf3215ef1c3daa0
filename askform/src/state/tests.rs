//! The form's transitions, driven without a browser.

use super::*;
use crate::form::{tests::request, PostedQuestion};
use interaction::{AskStatus, Problems};

fn ask(status: AskStatus) -> Ask {
    Ask {
        id: "x".to_owned(),
        url: String::new(),
        status,
        title: None,
        agent: None,
        request: request(),
        created_at: interaction::Timestamp::from_ms(0),
        expires_at: None,
        finished_at: None,
        answers: None,
        default_answers: None,
        defaulted: false,
        decline_reason: None,
        projection: None,
        answered_by: None,
        relayed_by: None,
        via: None,
        to: Vec::new(),
        session: None,
        listens: false,
        asked_by: None,
    }
}

fn answered() -> FormState {
    let mut form = FormState::new("x", &request(), None);
    form.edit(0, |d| d.set_checked(0, true));
    form.edit(1, |d| d.set_checked(1, true));
    form.edit(2, |d| d.set_custom("none".to_owned()));
    form
}

#[test]
fn answers_are_sent_only_once_every_question_is_ready() {
    let mut form = FormState::new("x", &request(), None);
    form.edit(0, |d| d.set_checked(1, true));
    form.edit(1, |d| d.set_checked(0, true));
    assert_eq!(form.blockers().len(), 1);
    assert_eq!(form.begin_answer(), None);
    assert!(!form.is_sending());
    form.edit(2, |d| d.set_custom("none".to_owned()));
    let Some(Outgoing::Answer(answers)) = form.begin_answer() else {
        panic!("ready, so the answers go");
    };
    assert_eq!(answers.answers[0].selected, ["PostgreSQL"]);
    assert!(form.is_sending());
    // A second click while sending sends nothing.
    assert_eq!(form.begin_answer(), None);
    assert_eq!(form.begin_decline(), None);
}

#[test]
fn a_refusal_shows_the_problems_by_question_and_reopens_the_form() {
    let mut form = answered();
    form.begin_answer().expect("ready");
    let problems: Problems = request()
        .validate_answers(Answers { answers: vec![] })
        .expect_err("refused");
    form.settle(Err(ServerError::Invalid(problems)));
    assert!(form.refused());
    assert_eq!(form.problems_of(Some("db")).count(), 1);
    assert_eq!(form.problems_of(None).count(), 0);
    assert_eq!(form.failure(), None);
    assert!(form.begin_answer().is_some());
}

#[test]
fn a_failed_send_keeps_the_draft_and_says_why() {
    let mut form = answered();
    form.begin_decline().expect("open");
    form.settle(Err(ServerError::Internal));
    assert_eq!(form.failure(), Some(&ServerError::Internal));
    assert!(form.blockers().is_empty());
    form.begin_answer().expect("ready again");
    assert_eq!(form.failure(), None);
}

#[test]
fn an_answer_that_arrives_ends_the_form() {
    let mut form = answered();
    form.begin_answer().expect("ready");
    form.settle(Ok(ask(AskStatus::Answered)));
    let ended = form.ended().expect("ended");
    assert!(!ended.late);
    assert_eq!(ended.ask.status, AskStatus::Answered);
}

#[test]
fn an_answer_too_late_shows_how_the_ask_ended() {
    let mut form = answered();
    form.begin_answer().expect("ready");
    form.settle(Err(ServerError::Finished(Box::new(ask(
        AskStatus::Expired,
    )))));
    let ended = form.ended().expect("ended");
    assert!(ended.late);
    assert_eq!(ended.ask.status, AskStatus::Expired);
}

#[test]
fn an_ask_withdrawn_while_typing_keeps_the_typed_text() {
    let mut form = answered();
    form.end_elsewhere(ask(AskStatus::Pending));
    assert_eq!(form.ended(), None);
    form.end_elsewhere(ask(AskStatus::Cancelled));
    let ended = form.ended().expect("ended");
    assert!(ended.late);
    assert_eq!(
        ended.unsent,
        [Unsent {
            index: 2,
            text: "none".to_owned()
        }]
    );
}

#[test]
fn news_of_an_end_waits_for_a_send_on_its_way() {
    let mut form = answered();
    form.begin_answer().expect("ready");
    form.end_elsewhere(ask(AskStatus::Cancelled));
    assert!(form.is_sending());
}

#[test]
fn a_refused_post_comes_back_with_its_fields_reason_and_problems() {
    let posted = Posted {
        ask_id: "x".to_owned(),
        questions: vec![PostedQuestion {
            id: "db".to_owned(),
            selected: vec!["SQLite".to_owned()],
            custom: String::new(),
        }],
        reason: "later".to_owned(),
        problems: request()
            .validate_answers(Answers { answers: vec![] })
            .expect_err("refused")
            .0,
    };
    let form = FormState::new("x", &request(), Some(&posted));
    assert_eq!(form.reason(), "later");
    assert!(form.refused());
    assert!(form.batch().drafts()[0].is_checked(0));
}

#[test]
fn a_saved_draft_restores_what_was_typed() {
    let saved = answered().saved();
    let mut form = FormState::new("x", &request(), None);
    form.adopt(None, Some(&saved));
    assert_eq!(form.batch(), answered().batch());
}

/// The form's fields as a browser would post them.
fn found(pairs: &[(&str, &str)]) -> Posted {
    let fields: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    Posted::from_fields("x", &request(), &fields)
}

#[test]
fn what_was_entered_before_the_island_woke_is_adopted_not_reset() {
    let mut form = FormState::new("x", &request(), None);
    form.adopt(
        Some(&found(&[
            ("answer.features", "Auth"),
            ("other.features", "Tracing"),
            ("answer.db", "SQLite"),
            ("other.db", "DuckDB"),
            ("other.notes", "ship it"),
            ("reason", "busy"),
        ])),
        None,
    );
    let answers = form.batch().answers();
    assert_eq!(
        answers.answers[1].selected,
        ["Auth"],
        "multi-select keeps both"
    );
    assert_eq!(answers.answers[1].custom.as_deref(), Some("Tracing"));
    assert!(
        answers.answers[0].selected.is_empty(),
        "single-select: text overrides"
    );
    assert_eq!(answers.answers[0].custom.as_deref(), Some("DuckDB"));
    assert!(
        form.batch().drafts()[0].custom_overrides_choice(),
        "and the page says so"
    );
    assert_eq!(answers.answers[2].custom.as_deref(), Some("ship it"));
    assert_eq!(form.reason(), "busy");
}

#[test]
fn labels_checked_after_waking_join_text_typed_before_and_the_other_way_round() {
    let mut typed_first = FormState::new("x", &request(), None);
    typed_first.adopt(Some(&found(&[("other.features", "Tracing")])), None);
    typed_first.edit(1, |d| d.set_checked(1, true));
    let mut checked_first = FormState::new("x", &request(), None);
    checked_first.adopt(Some(&found(&[("answer.features", "Logging")])), None);
    checked_first.edit(1, |d| d.set_custom("Tracing"));
    for form in [typed_first, checked_first] {
        let item = &form.batch().answers().answers[1];
        assert_eq!(
            (item.selected.as_slice(), item.custom.as_deref()),
            (["Logging".to_owned()].as_slice(), Some("Tracing"))
        );
    }
}

#[test]
fn untouched_inputs_let_a_saved_draft_back_and_touched_ones_win_over_it() {
    let saved = answered().saved();
    let mut form = FormState::new("x", &request(), None);
    // The person changed only the optionless question before waking.
    form.adopt(Some(&found(&[("other.notes", "later")])), Some(&saved));
    let drafts = form.batch().drafts();
    assert!(drafts[0].is_checked(0), "the saved choice is back");
    assert!(drafts[1].is_checked(1), "the saved label is back");
    assert_eq!(drafts[2].custom(), "later", "what was typed now wins");
    // Inputs as the server rendered them change nothing.
    let mut form = FormState::new("x", &request(), None);
    form.adopt(Some(&found(&[])), None);
    assert_eq!(form, FormState::new("x", &request(), None));
}

#[test]
fn a_refused_post_shown_by_the_server_is_what_the_inputs_start_from() {
    let posted = found(&[("answer.db", "SQLite"), ("reason", "later")]);
    let mut form = FormState::new("x", &request(), Some(&posted));
    // Unchanged since the server rendered the post: nothing moves.
    form.adopt(
        Some(&found(&[("answer.db", "SQLite"), ("reason", "later")])),
        None,
    );
    assert!(form.batch().drafts()[0].is_checked(0));
    assert_eq!(form.reason(), "later");
    // The person unchose it and emptied the reason before waking.
    form.adopt(Some(&found(&[])), None);
    assert!(!form.batch().drafts()[0].is_checked(0));
    assert_eq!(form.reason(), "");
}

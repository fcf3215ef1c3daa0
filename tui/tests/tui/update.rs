//! `update`, key by key: every path of the answering screen, the review,
//! declining, and the connected mode's replies.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use interaction::{
    AnswerItem, Answers, Ask, AskList, AskStatus, AskSummary, Request, ValidRequest,
};
use tui::{
    model::{Command, Exit, Message, Model, Screen},
    session::Mode,
    update::update,
};

fn request() -> ValidRequest {
    let request: Request = serde_json::from_str(
        r#"{"questions": [
          {"id": "features", "header": "Features", "question": "Which features?", "multiSelect": true,
           "options": [{"label": "Auth"}, {"label": "Logging"}, {"label": "Metrics"}]},
          {"id": "db", "header": "Database", "question": "Which database?",
           "options": [{"label": "SQLite"}, {"label": "PostgreSQL"}]},
          {"id": "notes", "question": "Anything else?"}
        ]}"#,
    )
    .expect("request");
    ValidRequest::new(request).expect("valid")
}

fn press(model: &mut Model, code: KeyCode) -> Option<Command> {
    update(model, Message::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn ctrl(model: &mut Model, c: char) -> Option<Command> {
    update(
        model,
        Message::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
    )
}

fn typed(model: &mut Model, text: &str) {
    for c in text.chars() {
        let code = if c == '\n' {
            KeyCode::Enter
        } else {
            KeyCode::Char(c)
        };
        press(model, code);
    }
}

fn item(model: &Model, index: usize) -> AnswerItem {
    model.session().expect("session").batch.answers().answers[index].clone()
}

fn mode(model: &Model) -> Mode {
    model.session().map(|s| s.mode()).expect("session")
}

fn expected(id: &str, selected: &[&str], custom: Option<&str>) -> AnswerItem {
    AnswerItem {
        id: id.to_owned(),
        selected: selected.iter().map(|s| (*s).to_owned()).collect(),
        custom: custom.map(str::to_owned),
    }
}

/// Answers questions 2 and 3 so the batch is complete.
fn finish_the_rest(model: &mut Model) {
    press(model, KeyCode::Tab);
    press(model, KeyCode::Char('1'));
    press(model, KeyCode::Tab);
    typed(model, "none");
}

fn answered(command: Option<Command>) -> Answers {
    match command {
        Some(Command::Exit(Exit::Answered(answers))) => answers,
        other => panic!("expected answers, got {other:?}"),
    }
}

#[test]
fn custom_text_typed_first_survives_switching_to_options_and_checking_two_labels() {
    let mut model = Model::keyless(request(), None);
    press(&mut model, KeyCode::Char('o'));
    assert_eq!(mode(&model), Mode::Custom);
    typed(&mut model, "Rate limiting");
    press(&mut model, KeyCode::Esc);
    assert_eq!(mode(&model), Mode::Options);
    assert!(
        matches!(model.screen, Screen::Answer(_)),
        "Esc in custom mode only leaves it: {:?}",
        model.screen
    );
    press(&mut model, KeyCode::Up);
    press(&mut model, KeyCode::Up);
    press(&mut model, KeyCode::Up);
    press(&mut model, KeyCode::Char(' '));
    press(&mut model, KeyCode::Char('j'));
    press(&mut model, KeyCode::Char(' '));
    assert_eq!(
        item(&model, 0),
        expected("features", &["Auth", "Logging"], Some("Rate limiting"))
    );
    finish_the_rest(&mut model);
    // Submit from option mode of question 1.
    press(&mut model, KeyCode::BackTab);
    press(&mut model, KeyCode::BackTab);
    assert_eq!(mode(&model), Mode::Options);
    ctrl(&mut model, 's');
    assert!(
        matches!(model.screen, Screen::Review(_)),
        "{:?}",
        model.screen
    );
    let answers = answered(press(&mut model, KeyCode::Enter));
    assert_eq!(
        answers.answers[0],
        expected("features", &["Auth", "Logging"], Some("Rate limiting"))
    );
}

#[test]
fn labels_checked_first_then_custom_text_submitted_from_custom_mode_give_the_same_item() {
    let mut model = Model::keyless(request(), None);
    press(&mut model, KeyCode::Char('1'));
    press(&mut model, KeyCode::Char('2'));
    press(&mut model, KeyCode::Down);
    press(&mut model, KeyCode::Down);
    press(&mut model, KeyCode::Enter);
    assert_eq!(
        mode(&model),
        Mode::Custom,
        "Enter on the Other line starts typing"
    );
    typed(&mut model, "Rate limiting");
    finish_the_rest(&mut model);
    press(&mut model, KeyCode::BackTab);
    press(&mut model, KeyCode::BackTab);
    assert_eq!(
        mode(&model),
        Mode::Custom,
        "pending custom text keeps its mode"
    );
    ctrl(&mut model, 's');
    let answers = answered(press(&mut model, KeyCode::Enter));
    assert_eq!(
        answers.answers[0],
        expected("features", &["Auth", "Logging"], Some("Rate limiting"))
    );
}

#[test]
fn switching_modes_back_and_forth_never_loses_text_or_labels() {
    let mut model = Model::keyless(request(), None);
    press(&mut model, KeyCode::Char('3'));
    press(&mut model, KeyCode::Char('o'));
    typed(&mut model, "abc");
    for _ in 0..3 {
        press(&mut model, KeyCode::Esc);
        press(&mut model, KeyCode::Char('o'));
    }
    typed(&mut model, "d");
    assert_eq!(
        item(&model, 0),
        expected("features", &["Metrics"], Some("abcd"))
    );
}

#[test]
fn on_single_select_custom_text_overrides_the_choice_and_clearing_it_restores_it() {
    let mut model = Model::keyless(request(), None);
    press(&mut model, KeyCode::Tab);
    press(&mut model, KeyCode::Char('1'));
    press(&mut model, KeyCode::Char(' '));
    assert_eq!(item(&model, 1), expected("db", &["SQLite"], None));
    press(&mut model, KeyCode::Char('2'));
    assert_eq!(
        item(&model, 1),
        expected("db", &["PostgreSQL"], None),
        "a digit picks on single-select"
    );
    press(&mut model, KeyCode::Char('o'));
    typed(&mut model, "DuckDB");
    assert_eq!(item(&model, 1), expected("db", &[], Some("DuckDB")));
    for _ in 0..6 {
        press(&mut model, KeyCode::Backspace);
    }
    assert_eq!(item(&model, 1), expected("db", &["PostgreSQL"], None));
}

#[test]
fn space_toggles_on_multi_select_and_moving_stops_at_the_ends() {
    let mut model = Model::keyless(request(), None);
    press(&mut model, KeyCode::Up);
    press(&mut model, KeyCode::Char(' '));
    press(&mut model, KeyCode::Char(' '));
    assert_eq!(item(&model, 0), expected("features", &[], None));
    for _ in 0..10 {
        press(&mut model, KeyCode::Char('j'));
    }
    assert_eq!(
        model.session().map(|s| s.focus),
        Some(3),
        "the Other line is last"
    );
    press(&mut model, KeyCode::Char(' '));
    assert_eq!(
        mode(&model),
        Mode::Custom,
        "Space on the Other line starts typing"
    );
    press(&mut model, KeyCode::Char('9'));
    assert_eq!(
        item(&model, 0),
        expected("features", &[], Some("9")),
        "digits are text in custom mode"
    );
}

#[test]
fn enter_moves_to_the_next_question_and_from_the_last_to_the_review() {
    let mut model = Model::keyless(request(), None);
    press(&mut model, KeyCode::Enter);
    assert_eq!(model.session().map(|s| s.current), Some(1));
    press(&mut model, KeyCode::Right);
    assert_eq!(model.session().map(|s| s.current), Some(2));
    assert_eq!(
        mode(&model),
        Mode::Custom,
        "an optionless question is typed into"
    );
    typed(&mut model, "line one\nline two");
    assert_eq!(
        item(&model, 2),
        expected("notes", &[], Some("line one\nline two"))
    );
    press(&mut model, KeyCode::BackTab);
    press(&mut model, KeyCode::Left);
    press(&mut model, KeyCode::Left);
    assert_eq!(model.session().map(|s| s.current), Some(0));
    press(&mut model, KeyCode::Tab);
    press(&mut model, KeyCode::Enter);
    press(&mut model, KeyCode::Enter);
    assert!(
        matches!(model.screen, Screen::Answer(_)),
        "Enter in custom mode is a new line: {:?}",
        model.screen
    );
    press(&mut model, KeyCode::BackTab);
    press(&mut model, KeyCode::Enter);
    assert_eq!(model.session().map(|s| s.current), Some(2));

    // When the last question has options, Enter on it opens the review.
    let mut two = request().into_inner();
    two.questions.truncate(2);
    let mut model = Model::keyless(ValidRequest::new(two).expect("valid"), None);
    press(&mut model, KeyCode::Enter);
    press(&mut model, KeyCode::Enter);
    assert!(
        matches!(model.screen, Screen::Review(_)),
        "{:?}",
        model.screen
    );
}

#[test]
fn the_review_refuses_an_incomplete_batch_and_goes_back_to_the_first_gap() {
    let mut model = Model::keyless(request(), None);
    press(&mut model, KeyCode::Char('1'));
    ctrl(&mut model, 's');
    assert!(
        matches!(model.screen, Screen::Review(_)),
        "{:?}",
        model.screen
    );
    assert_eq!(press(&mut model, KeyCode::Enter), None);
    assert!(
        model
            .notice
            .as_deref()
            .is_some_and(|n| n.contains("2 question(s)")),
        "{:?}",
        model.notice
    );
    press(&mut model, KeyCode::Esc);
    assert!(
        matches!(model.screen, Screen::Answer(_)),
        "{:?}",
        model.screen
    );
    assert_eq!(model.session().map(|s| s.current), Some(1));
}

#[test]
fn the_editor_edits_at_the_cursor() {
    let mut model = Model::keyless(request(), None);
    press(&mut model, KeyCode::Char('o'));
    typed(&mut model, "ac");
    press(&mut model, KeyCode::Left);
    typed(&mut model, "b");
    press(&mut model, KeyCode::End);
    typed(&mut model, "d");
    press(&mut model, KeyCode::Home);
    press(&mut model, KeyCode::Delete);
    assert_eq!(item(&model, 0).custom.as_deref(), Some("bcd"));
}

#[test]
fn esc_asks_before_declining_and_the_reason_is_kept() {
    let mut model = Model::keyless(request(), None);
    press(&mut model, KeyCode::Esc);
    assert!(
        matches!(model.screen, Screen::Decline(_)),
        "{:?}",
        model.screen
    );
    press(&mut model, KeyCode::Esc);
    assert!(
        matches!(model.screen, Screen::Answer(_)),
        "Esc on the question takes you back: {:?}",
        model.screen
    );
    press(&mut model, KeyCode::Esc);
    typed(&mut model, "Not now");
    assert_eq!(
        press(&mut model, KeyCode::Enter),
        Some(Command::Exit(Exit::Declined(Some("Not now".to_owned()))))
    );
}

#[test]
fn ctrl_c_leaves_from_every_screen() {
    for screen_keys in [vec![], vec![KeyCode::Esc], vec![KeyCode::Char('o')]] {
        let mut model = Model::keyless(request(), None);
        for key in screen_keys {
            press(&mut model, key);
        }
        assert_eq!(
            ctrl(&mut model, 'c'),
            Some(Command::Exit(Exit::Interrupted))
        );
    }
    let mut model = Model::keyless(request(), None);
    ctrl(&mut model, 's');
    assert_eq!(
        ctrl(&mut model, 'c'),
        Some(Command::Exit(Exit::Interrupted))
    );
}

fn ask(id: &str, status: AskStatus) -> Ask {
    Ask {
        id: id.to_owned(),
        url: format!("http://127.0.0.1:3000/asks/{id}"),
        status,
        title: Some("Release plan".to_owned()),
        agent: Some("agent".to_owned()),
        request: request(),
        created_at: "2026-11-30T11:20:00.000Z".parse().expect("time"),
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

fn summary(id: &str) -> AskSummary {
    AskSummary {
        id: id.to_owned(),
        url: String::new(),
        title: Some(format!("ask {id}")),
        agent: None,
        status: AskStatus::Pending,
        created_at: "2026-11-30T11:20:00.000Z".parse().expect("time"),
        expires_at: None,
        question_count: 3,
        to: Vec::new(),
        listens: false,
        asked_by: None,
    }
}

#[test]
fn connected_mode_opens_an_ask_from_the_queue_submits_it_and_returns_to_the_queue() {
    let mut model = Model::connected();
    update(
        &mut model,
        Message::Queue(Ok(AskList {
            asks: vec![summary("a"), summary("b")],
            version: 7,
            next: None,
        })),
    );
    assert_eq!(model.queue().map(|q| q.version), Some(7));
    press(&mut model, KeyCode::Down);
    assert_eq!(
        press(&mut model, KeyCode::Enter),
        Some(Command::Open("b".to_owned()))
    );
    update(
        &mut model,
        Message::Opened(Ok(ask("b", AskStatus::Pending))),
    );
    assert!(
        matches!(model.screen, Screen::Answer(_)),
        "{:?}",
        model.screen
    );
    press(&mut model, KeyCode::Char('2'));
    finish_the_rest(&mut model);
    ctrl(&mut model, 's');
    let Some(Command::Submit { id, answers }) = press(&mut model, KeyCode::Enter) else {
        panic!("expected a submit");
    };
    assert_eq!(id, "b");
    assert_eq!(answers.answers[0], expected("features", &["Logging"], None));
    let mut done = ask("b", AskStatus::Answered);
    done.answers = Some(answers.answers);
    update(&mut model, Message::Sent(Ok(done)));
    assert!(
        matches!(model.screen, Screen::Outcome(_)),
        "{:?}",
        model.screen
    );
    assert_eq!(press(&mut model, KeyCode::Enter), Some(Command::Refresh));
    assert!(matches!(model.screen, Screen::Queue), "{:?}", model.screen);
    assert_eq!(
        press(&mut model, KeyCode::Char('q')),
        Some(Command::Exit(Exit::Quit))
    );
}

#[test]
fn connected_mode_shows_refusals_and_asks_that_ended_meanwhile() {
    let mut model = Model::connected();
    update(
        &mut model,
        Message::Opened(Ok(ask("b", AskStatus::Pending))),
    );
    press(&mut model, KeyCode::Char('1'));
    finish_the_rest(&mut model);
    ctrl(&mut model, 's');
    let problem: interaction::Problem = serde_json::from_value(serde_json::json!({
        "path": "answers[0].selected[0]", "code": "unknown_label", "message": "no such option", "questionId": "features"
    }))
    .expect("problem");
    update(
        &mut model,
        Message::Sent(Err(client::Error::Invalid {
            message: "the input was refused with 1 problem(s)".to_owned(),
            problems: vec![problem],
        })),
    );
    assert!(
        matches!(model.screen, Screen::Review(_)),
        "{:?}",
        model.screen
    );
    assert_eq!(model.session().map(|s| s.problems.len()), Some(1));
    update(
        &mut model,
        Message::Sent(Err(client::Error::Finished {
            status: client::StatusCode::GONE,
            message: "this ask was cancelled and can no longer be answered".to_owned(),
            ask: Box::new(ask("b", AskStatus::Cancelled)),
        })),
    );
    assert!(
        matches!(model.screen, Screen::Outcome(_)),
        "{:?}",
        model.screen
    );
    assert!(model
        .notice
        .as_deref()
        .is_some_and(|n| n.contains("not sent")));
    // Declining in connected mode goes to the server.
    update(
        &mut model,
        Message::Opened(Ok(ask("c", AskStatus::Pending))),
    );
    press(&mut model, KeyCode::Esc);
    assert_eq!(
        press(&mut model, KeyCode::Enter),
        Some(Command::Decline {
            id: "c".to_owned(),
            reason: None
        })
    );
}

#[test]
fn connected_mode_says_how_to_give_a_missing_token() {
    let mut model = Model::connected();
    update(
        &mut model,
        Message::Queue(Err(client::Error::from_reply(
            client::StatusCode::UNAUTHORIZED,
            None,
        ))),
    );
    assert!(!model.busy);
    assert_eq!(
        model.notice.as_deref(),
        Some("askdesk wants its token: pass --token or set ASKDESK_TOKEN")
    );
    assert!(matches!(model.screen, Screen::Queue), "{:?}", model.screen);
}

#[test]
fn the_clock_ticks_into_the_model_and_an_opened_ask_keeps_its_defaults() {
    let mut model = Model::connected();
    assert_eq!(update(&mut model, Message::Tick(1_234)), None);
    assert_eq!(model.now, 1_234);
    let mut pending = ask("a", AskStatus::Pending);
    pending.expires_at = Some(interaction::Timestamp::from_ms(60_000));
    pending.default_answers = Some(vec![expected("db", &["SQLite"], None)]);
    update(&mut model, Message::Opened(Ok(pending)));
    let session = model.session().expect("session");
    assert_eq!(
        session.default_for("db"),
        Some(&expected("db", &["SQLite"], None))
    );
    assert_eq!(session.default_for("notes"), None);
    assert_eq!(
        session.defaults.as_ref().map(|(at, _)| at.ms()),
        Some(60_000)
    );
}

#[test]
fn countdowns_read_minutes_and_seconds_and_hours_from_an_hour_up() {
    use tui::view::time_left;
    assert_eq!(time_left(245_500), "4:06");
    assert_eq!(time_left(59_001), "1:00");
    assert_eq!(time_left(0), "0:00");
    assert_eq!(time_left(-5_000), "0:00");
    assert_eq!(time_left(7_265_000), "2:01:05");
}

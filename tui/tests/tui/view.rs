//! `view` drawn into a ratatui `Buffer` at terminal sizes people use.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use interaction::{Request, ValidRequest};
use ratatui::{backend::TestBackend, Terminal};
use tui::{
    model::{Message, Model},
    update::update,
    view::view,
};

fn model(json: &str) -> Model {
    let request: Request = serde_json::from_str(json).expect("request");
    Model::keyless(
        ValidRequest::new(request).expect("valid"),
        Some("Release plan".to_owned()),
    )
}

fn press(model: &mut Model, code: KeyCode) {
    update(model, Message::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn draw(model: &Model, width: u16, height: u16) -> (Vec<String>, (u16, u16)) {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
    terminal.draw(|frame| view(model, frame)).expect("draw");
    let buffer = terminal.backend().buffer().clone();
    // A wide character fills its cell and blanks the next: skip that one.
    let lines = (0..height)
        .map(|y| {
            let mut line = String::new();
            let mut x = 0;
            while x < width {
                let symbol = buffer[(x, y)].symbol();
                line.push_str(symbol);
                x += u16::try_from(tui::text::width(symbol).max(1)).unwrap_or(1);
            }
            line
        })
        .collect();
    let cursor = terminal
        .get_cursor_position()
        .map(|p| (p.x, p.y))
        .unwrap_or_default();
    (lines, cursor)
}

fn screen(lines: &[String]) -> String {
    lines.join("\n")
}

const THREE: &str = r#"{"questions": [
  {"id": "features", "header": "Features", "question": "Which features?", "multiSelect": true,
   "options": [{"label": "Auth", "description": "Sign-in with a token"}, {"label": "Logging"}]},
  {"id": "db", "question": "Which database?", "options": [{"label": "SQLite"}, {"label": "PostgreSQL"}]},
  {"id": "notes", "question": "Anything else?"}
]}"#;

#[test]
fn the_answer_screen_shows_progress_marks_descriptions_and_the_other_line() {
    let mut m = model(THREE);
    press(&mut m, KeyCode::Char('2'));
    let (lines, _) = draw(&m, 80, 24);
    let text = screen(&lines);
    assert!(
        lines[0].contains("Release plan") && lines[0].contains("Question 1 of 3"),
        "{text}"
    );
    assert!(text.contains("Features"));
    assert!(text.contains("  [ ] 1. Auth"), "{text}");
    assert!(text.contains("› [x] 2. Logging"), "{text}");
    assert!(text.contains("      Sign-in with a token"), "{text}");
    assert!(text.contains("  Other:"), "{text}");
}

#[test]
fn custom_mode_puts_the_cursor_after_the_typed_text_and_the_override_note_shows() {
    let mut m = model(THREE);
    press(&mut m, KeyCode::Tab);
    press(&mut m, KeyCode::Char('1'));
    press(&mut m, KeyCode::Char('o'));
    for c in "Duck".chars() {
        press(&mut m, KeyCode::Char(c));
    }
    let (lines, cursor) = draw(&m, 80, 24);
    let other = lines
        .iter()
        .position(|l| l.contains("Other: Duck"))
        .expect("Other line");
    assert_eq!(
        cursor,
        (
            u16::try_from("› Other: Duck".chars().count()).unwrap_or(0),
            u16::try_from(other).unwrap_or(0)
        )
    );
    assert!(screen(&lines).contains("Your Other text replaces the chosen option."));
    assert!(screen(&lines).contains("(•) 1. SQLite"));
}

#[test]
fn cjk_and_emoji_take_two_columns_and_long_text_wraps() {
    let m = model(
        r#"{"questions": [{"id": "n", "header": "名前", "question": "プロジェクトの名前は何にしますか？とても長い質問です 🎉🎉",
            "options": [{"label": "质问台"}]}]}"#,
    );
    let (lines, _) = draw(&m, 20, 24);
    let text = screen(&lines);
    // Each wide character fills a cell and blanks the next in the buffer,
    // so a 20-column line holds at most 10 of them.
    assert!(text.contains("プロジェクトの名前は"), "{text}");
    assert!(text.contains("何にしますか？とても"), "{text}");
    assert!(text.contains("🎉"), "{text}");
    assert!(text.contains("质问台"), "{text}");
}

#[test]
fn a_small_terminal_scrolls_to_keep_the_focused_option_in_view() {
    let options: Vec<String> = (1..=30)
        .map(|i| format!(r#"{{"label": "Option {i}", "description": "About {i}"}}"#))
        .collect();
    let mut m = model(&format!(
        r#"{{"questions": [{{"id": "q", "question": "Pick many", "multiSelect": true, "options": [{}]}}]}}"#,
        options.join(",")
    ));
    let (lines, _) = draw(&m, 80, 24);
    assert!(!screen(&lines).contains("Option 30"));
    for _ in 0..29 {
        press(&mut m, KeyCode::Down);
    }
    let (lines, _) = draw(&m, 80, 24);
    assert!(
        screen(&lines).contains("› [ ] 30. Option 30"),
        "{}",
        screen(&lines)
    );
    press(&mut m, KeyCode::Down);
    let (lines, _) = draw(&m, 80, 24);
    assert!(screen(&lines).contains("› Other:"), "{}", screen(&lines));
}

#[test]
fn the_review_lists_every_answer_and_marks_what_is_missing_with_the_reason() {
    let mut m = model(THREE);
    press(&mut m, KeyCode::Char('1'));
    press(&mut m, KeyCode::Char('o'));
    for c in "Rate limiting".chars() {
        press(&mut m, KeyCode::Char(c));
    }
    press(&mut m, KeyCode::Tab);
    press(&mut m, KeyCode::Char('o'));
    press(&mut m, KeyCode::Char(' '));
    update(
        &mut m,
        Message::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    let (lines, _) = draw(&m, 80, 24);
    let text = screen(&lines);
    assert!(text.contains("Selected: Auth"), "{text}");
    assert!(text.contains("Other: Rate limiting"), "{text}");
    assert!(text.contains("✗ Other text is blank"), "{text}");
    assert!(text.contains("✗ unanswered"), "{text}");
    assert!(
        text.contains("2 question(s) still need an answer."),
        "{text}"
    );
}

#[test]
fn the_empty_queue_says_so() {
    let mut m = Model::connected();
    update(
        &mut m,
        Message::Queue(Ok(interaction::AskList {
            asks: vec![],
            version: 1,
            next: None,
        })),
    );
    let (lines, _) = draw(&m, 80, 24);
    assert!(
        screen(&lines).contains("No questions are waiting."),
        "{}",
        screen(&lines)
    );
}

#[test]
fn a_long_review_scrolls_to_its_last_line_on_an_80_by_24_terminal() {
    let questions: Vec<String> = (1..=12)
        .map(|i| format!(r#"{{"id": "q{i}", "question": "Question number {i}?", "options": [{{"label": "Yes"}}]}}"#))
        .collect();
    let mut m = model(&format!(r#"{{"questions": [{}]}}"#, questions.join(",")));
    update(
        &mut m,
        Message::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    let (lines, _) = draw(&m, 80, 24);
    assert!(
        !screen(&lines).contains("still need an answer"),
        "{}",
        screen(&lines)
    );
    for _ in 0..3 {
        press(&mut m, KeyCode::PageDown);
    }
    let (lines, _) = draw(&m, 80, 24);
    assert!(
        screen(&lines).contains("12 question(s) still need an answer."),
        "{}",
        screen(&lines)
    );
}

#[test]
fn in_chinese_askdesk_words_change_and_agent_text_stays_as_given() {
    let m = model(THREE).with_lang(tui::i18n::Lang::Zh);
    let (lines, _) = draw(&m, 80, 24);
    let text = screen(&lines);
    assert!(text.contains("第 1 题，共 3 题"), "{text}");
    assert!(text.contains("其他："), "{text}");
    assert!(text.contains("Which features?"), "{text}");
    assert!(text.contains("空格 选择"), "{text}");
}

/// An ask of [`THREE`] from a server, expiring at 11:30 with the agent's
/// default answers, as `status` (expired ones with those defaults applied).
fn ask_with_defaults(status: &str) -> interaction::Ask {
    let defaults = serde_json::json!([
        {"id": "features", "selected": ["Auth"]},
        {"id": "db", "selected": ["SQLite"]},
        {"id": "notes", "selected": [], "custom": "Ship it"}
    ]);
    let mut ask = serde_json::json!({
        "id": "0123456789abcdef0123456789abcdef",
        "url": "http://127.0.0.1:3000/asks/0123456789abcdef0123456789abcdef",
        "status": status,
        "title": "Release plan",
        "agent": "agent",
        "request": serde_json::from_str::<serde_json::Value>(THREE).expect("json"),
        "createdAt": "2026-11-30T11:20:00.000Z",
        "expiresAt": "2026-11-30T11:30:00.000Z",
        "finishedAt": null,
        "declineReason": null,
        "answeredBy": null,
        "via": null,
        "defaultAnswers": defaults
    });
    if status == "expired" {
        ask["finishedAt"] = ask["expiresAt"].clone();
        ask["answers"] = ask["defaultAnswers"].clone();
        ask["defaulted"] = true.into();
    }
    serde_json::from_value(ask).expect("ask")
}

#[test]
fn an_ask_with_defaults_counts_down_and_shows_each_questions_default() {
    let mut m = Model::connected();
    update(&mut m, Message::Opened(Ok(ask_with_defaults("pending"))));
    let expires: interaction::Timestamp = "2026-11-30T11:30:00.000Z".parse().expect("time");
    update(&mut m, Message::Tick(expires.ms() - 245_500));
    let (lines, _) = draw(&m, 80, 24);
    let text = screen(&lines);
    assert!(
        text.contains("If nobody answers by 2026-11-30 11:30 UTC (4:06 left), the agent"),
        "{text}"
    );
    assert!(text.contains("Default if nobody answers:"), "{text}");
    assert!(text.contains("Selected: Auth"), "{text}");
    // The clock moves on; the question changes, and its default with it.
    update(&mut m, Message::Tick(expires.ms() - 3_000));
    press(&mut m, KeyCode::Right);
    let text = screen(&draw(&m, 80, 24).0);
    assert!(text.contains("(0:03 left)"), "{text}");
    assert!(text.contains("Selected: SQLite"), "{text}");
    assert!(!text.contains("Selected: Auth"), "{text}");
}

#[test]
fn a_defaulted_ask_says_nobody_answered_and_shows_the_defaults() {
    let mut m = Model::connected();
    update(&mut m, Message::Opened(Ok(ask_with_defaults("expired"))));
    let text = screen(&draw(&m, 80, 24).0);
    assert!(text.contains("This ask is expired."), "{text}");
    assert!(
        text.contains("Nobody answered in time, so the agent went on with its own"),
        "{text}"
    );
    assert!(text.contains("No person chose them."), "{text}");
    assert!(text.contains("Selected: SQLite"), "{text}");
    assert!(text.contains("Other: Ship it"), "{text}");
}

#[test]
fn an_ask_without_defaults_shows_no_countdown() {
    let mut plain = ask_with_defaults("pending");
    plain.default_answers = None;
    let mut m = Model::connected();
    update(&mut m, Message::Opened(Ok(plain)));
    let text = screen(&draw(&m, 80, 24).0);
    assert!(
        !text.contains("If nobody answers") && !text.contains("Default if"),
        "{text}"
    );
}

#[test]
fn what_the_agent_was_doing_stands_above_the_question_cut_to_a_few_lines() {
    let model = model(
        r#"{"context": "I split the parser.\nThe tests pass.\n1\n2\n3\n4\n5\n6",
            "questions": [{"id": "go", "question": "Ship it?", "options": [{"label": "Yes"}]}]}"#,
    );
    let (lines, _) = draw(&model, 60, 20);
    let trimmed: Vec<String> = lines.iter().map(|l| l.trim_end().to_owned()).collect();
    let shown = screen(&trimmed);
    let context = shown.find("│ I split the parser.").expect("the context");
    assert!(
        context < shown.find("Ship it?").expect("the question"),
        "{shown}"
    );
    assert!(shown.contains("│ 4\n│ …"), "{shown}");
    assert!(!shown.contains("│ 5"), "{shown}");
}

/// A terminal isolates nothing: an override in a title or a preview is
/// shown as its code point, so a command reads in the order it runs.
#[test]
fn bidi_controls_in_the_title_and_a_preview_are_shown_as_their_code_points() {
    let request: Request = serde_json::from_str(
        r#"{"questions": [{"id": "run", "question": "Run it?",
            "options": [{"label": "Allow once", "preview": "echo safe \u202efr- mr\u202c"},
                        {"label": "Deny"}]}]}"#,
    )
    .expect("request");
    let m = Model::keyless(
        ValidRequest::new(request).expect("valid"),
        Some("Bash: echo safe \u{202e}fr- mr".to_owned()),
    );
    let (lines, _) = draw(&m, 120, 24);
    let text = screen(&lines);
    assert!(
        lines[0].contains("Bash: echo safe ⟨U+202E⟩fr- mr"),
        "{text}"
    );
    assert!(text.contains("echo safe ⟨U+202E⟩fr- mr⟨U+202C⟩"), "{text}");
    assert!(!text.contains('\u{202e}'), "{text}");
}

use super::asks::{self, OpenQuestion, PermissionAsked};
use interaction::Ask;
use serde_json::{json, Value};

fn questions() -> Vec<OpenQuestion> {
    serde_json::from_value(json!([
        {"question": "Which features?", "header": "Features", "multiple": true,
         "options": [{"label": "Auth", "description": "Sign-in"}, {"label": "Logging", "description": ""}]},
        {"question": "Which database?", "header": "Database",
         "options": [{"label": "SQLite", "description": ""}, {"label": "PostgreSQL", "description": ""}]},
        {"question": "Ship on?", "options": [], "custom": false},
    ]))
    .expect("OpenCode's questions")
}

fn ended(new: &interaction::NewAsk, status: &str, answers: Option<Value>) -> Ask {
    let new = serde_json::to_value(new).expect("json");
    let mut ask = json!({
        "id": "0123456789abcdef0123456789abcdef", "status": status,
        "createdAt": "2026-12-07T10:00:00Z", "url": "http://127.0.0.1:3000/asks/x",
        "request": {"questions": new["questions"]},
    });
    if let Some(answers) = answers {
        ask["answers"] = answers;
    }
    serde_json::from_value(ask).expect("an ask")
}

#[test]
fn questions_keep_their_order_and_multiple_is_multi_select() {
    let new = asks::question_ask(&questions(), "OpenCode · shop");
    let ids: Vec<_> = new.questions.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids, ["q1", "q2", "q3"]);
    assert!(new.questions[0].multi_select && !new.questions[1].multi_select);
    assert_eq!(
        new.questions[0].options[0].description.as_deref(),
        Some("Sign-in")
    );
    assert_eq!(new.questions[0].options[1].description, None);
    assert_eq!(new.title.as_deref(), Some("OpenCode: Features"));
    assert_eq!(new.agent.as_deref(), Some("OpenCode · shop"));
}

#[test]
fn a_reply_holds_the_labels_then_the_typed_text_of_each_question() {
    let questions = questions();
    let new = asks::question_ask(&questions, "OpenCode");
    let answered = ended(
        &new,
        "answered",
        Some(json!([
            {"id": "q1", "selected": ["Auth", "Logging"], "custom": "SSO"},
            {"id": "q2", "selected": [], "custom": "MySQL"},
            {"id": "q3", "selected": [], "custom": "Friday"},
        ])),
    );
    assert_eq!(
        asks::question_reply(&questions, &answered),
        // The third takes no typed text in OpenCode's own window.
        Some(json!({"answers": [["Auth", "Logging", "SSO"], ["MySQL"], []]}))
    );
    for status in ["declined", "cancelled", "expired"] {
        assert_eq!(
            asks::question_reply(&questions, &ended(&new, status, None)),
            None
        );
    }
}

#[test]
fn a_permission_is_allowed_once_always_or_rejected_in_the_persons_words() {
    let asked: PermissionAsked = serde_json::from_value(json!({
        "id": "per_1", "sessionID": "ses_1", "permission": "bash",
        "patterns": ["rm -rf build"], "metadata": {}, "always": ["rm *"]}))
    .expect("a permission request");
    let new = asks::permission_ask(&asked, "OpenCode");
    let labels: Vec<_> = new.questions[0]
        .options
        .iter()
        .map(|o| o.label.as_str())
        .collect();
    assert_eq!(labels, ["Allow once", "Always allow", "Reject"]);
    assert_eq!(new.title.as_deref(), Some("Permission: bash rm -rf build"));
    let answer = |answers: Value| asks::permission_reply(&ended(&new, "answered", Some(answers)));
    assert_eq!(
        answer(json!([{"id": "permission", "selected": ["Always allow"]}])),
        Some(json!({"reply": "always"}))
    );
    assert_eq!(
        answer(json!([{"id": "permission", "selected": ["Allow once"]}])),
        Some(json!({"reply": "once"}))
    );
    assert_eq!(
        answer(json!([{"id": "permission", "selected": [], "custom": "use make clean"}])),
        Some(json!({"reply": "reject", "message": "use make clean"}))
    );
    assert_eq!(asks::permission_reply(&ended(&new, "declined", None)), None);
    // Nothing to keep: no Always allow.
    let once: PermissionAsked =
        serde_json::from_value(json!({"permission": "edit", "patterns": []})).expect("a request");
    assert_eq!(
        asks::permission_ask(&once, "OpenCode").questions[0]
            .options
            .len(),
        2
    );
}

#[test]
fn only_data_lines_with_a_payload_are_events() {
    let (directory, event) = super::envelope(
        r#"data: {"directory":"/home/ann/shop","payload":{"type":"question.asked","properties":{}}}"#,
    )
    .expect("an event");
    assert_eq!(directory.as_deref(), Some("/home/ann/shop"));
    assert_eq!(event["type"], "question.asked");
    assert!(super::envelope(": heartbeat").is_none());
    assert!(super::envelope("data: not json").is_none());
    assert!(super::envelope(r#"data: {"payload":{"type":"server.connected"}}"#).is_some());
}

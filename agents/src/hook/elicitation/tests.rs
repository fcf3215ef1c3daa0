//! The schema's mapping to questions and back, without a desk.

use super::*;
use interaction::{AnswerItem, Scalar};

/// An event as Claude Code sends it, from the raw JSON (whose property
/// order the questions keep).
fn event(schema: &str) -> Elicitation {
    let raw = format!(
        r#"{{"mcp_server_name": "tickets", "message": "Fill in the ticket.", "mode": "form",
            "elicitation_id": "e1", "requested_schema": {schema}}}"#
    );
    serde_json::from_str(&raw).expect("an event")
}

const TICKET: &str = r#"{"type": "object", "properties": {
    "title": {"type": "string", "title": "Title", "maxLength": 80},
    "priority": {"type": "string", "title": "Priority", "enum": ["p1", "p2"], "enumNames": ["Urgent", "Normal"], "default": "p2"},
    "labels": {"type": "array", "title": "Labels", "items": {"anyOf": [{"const": "bug", "title": "Bug"}, {"const": "ui", "title": "UI"}]}},
    "notify": {"type": "boolean", "title": "Notify", "description": "Tell the team?", "default": false},
    "estimate": {"type": "integer", "title": "Estimate", "minimum": 1, "maximum": 13},
    "owner": {"type": "string", "format": "email", "description": "Who owns it"},
    "due": {"type": "string", "format": "date"}
  }, "required": ["title", "priority", "labels", "notify", "estimate"]}"#;

fn new_ask(e: &Elicitation) -> NewAsk {
    e.ask(Agent::ClaudeCode).expect("askable").expect("an ask")
}

fn item(id: &str, selected: &[&str], custom: Option<&str>) -> AnswerItem {
    AnswerItem {
        id: id.to_owned(),
        selected: selected.iter().map(|s| (*s).to_owned()).collect(),
        custom: custom.map(str::to_owned),
    }
}

#[test]
fn each_property_is_a_question_in_the_schemas_order_that_the_validator_takes() {
    let new = new_ask(&event(TICKET));
    let ids: Vec<&str> = new.questions.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(
        ids,
        ["title", "priority", "labels", "notify", "estimate", "owner", "due"]
    );
    assert_eq!(new.title.as_deref(), Some("tickets: Fill in the ticket."));
    let q = |id: &str| new.questions.iter().find(|q| q.id == id).expect(id);
    assert_eq!(q("title").question, "Title (0–80 characters)");
    let priority = q("priority");
    let labels: Vec<&str> = priority.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["Urgent", "Normal"]);
    assert_eq!(
        priority.options[1].description.as_deref(),
        Some("The default.")
    );
    assert!(q("labels").multi_select);
    assert_eq!(q("notify").question, "Notify: Tell the team?");
    let estimate = q("estimate");
    assert_eq!(estimate.format.as_deref(), Some("integer"));
    assert_eq!(
        (&estimate.minimum, &estimate.maximum),
        (&Some(Scalar::Integer(1)), &Some(Scalar::Integer(13)))
    );
    // Not required: left empty, or typed as Other text.
    let owner: Vec<&str> = q("owner")
        .options
        .iter()
        .map(|o| o.label.as_str())
        .collect();
    assert_eq!(owner, [schema::LEAVE_EMPTY]);
    new.validate().expect("the desk's validator takes it");
}

#[test]
fn the_answers_come_back_typed_as_the_schema_says_and_left_out_ones_absent() {
    let e = event(TICKET);
    let items = [
        item("title", &[], Some("Crash on save")),
        item("priority", &["Urgent"], None),
        item("labels", &["Bug", "UI"], None),
        item("notify", &["No"], None),
        item("estimate", &[], Some("5")),
        item("owner", &[], Some("ana@example.com")),
        item("due", &[schema::LEAVE_EMPTY], None),
    ];
    let ask = answered(&items);
    let output = e.output(&ask).expect("fits").expect("printed");
    assert_eq!(
        output,
        json!({"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept", "content": {
            "title": "Crash on save", "priority": "p1", "labels": ["bug", "ui"], "notify": false,
            "estimate": 5, "owner": "ana@example.com"}}})
    );
}

#[test]
fn what_does_not_fit_the_schema_is_left_to_claude_code() {
    let e = event(TICKET);
    let base = [
        item("title", &[], Some("Crash")),
        item("priority", &["Urgent"], None),
        item("labels", &["Bug"], None),
        item("notify", &["Yes"], None),
        item("estimate", &[], Some("5")),
        item("owner", &[schema::LEAVE_EMPTY], None),
        item("due", &[schema::LEAVE_EMPTY], None),
    ];
    for (index, wrong) in [
        (0, item("title", &[], Some(&"x".repeat(81)))),
        (1, item("priority", &[], Some("whenever"))),
        (2, item("labels", &["Bug"], Some("and docs"))),
        (6, item("due", &[], Some("tomorrow-ish"))),
    ] {
        let mut items = base.to_vec();
        items[index] = wrong;
        let refused = e.output(&answered(&items));
        assert!(
            matches!(refused, Err(AsUsual::Unfitting(_))),
            "{index}: {refused:?}"
        );
    }
    // Declined and withdrawn say so.
    let mut ask = answered(&base);
    ask.status = AskStatus::Declined;
    assert_eq!(
        e.output(&ask).expect("ok").expect("printed")["hookSpecificOutput"]["action"],
        "decline"
    );
    ask.status = AskStatus::Cancelled;
    assert_eq!(
        e.output(&ask).expect("ok").expect("printed")["hookSpecificOutput"]["action"],
        "cancel"
    );
}

#[test]
fn url_mode_patterns_nested_objects_and_askdesks_own_forms_are_not_asked() {
    let url: Elicitation = serde_json::from_str(
        r#"{"mcp_server_name": "pay", "message": "Pay here", "mode": "url", "url": "https://pay.example"}"#,
    )
    .expect("event");
    assert!(matches!(
        url.ask(Agent::ClaudeCode),
        Err(AsUsual::Unaskable(_))
    ));
    for schema in [
        r#"{"type": "object", "properties": {"code": {"type": "string", "pattern": "^[0-9]+$"}}}"#,
        r#"{"type": "object", "properties": {"address": {"type": "object"}}}"#,
        r#"{"type": "object", "properties": {}}"#,
    ] {
        assert!(
            matches!(
                event(schema).ask(Agent::ClaudeCode),
                Err(AsUsual::Unaskable(_))
            ),
            "{schema}"
        );
    }
    let mut own = event(TICKET);
    own.mcp_server_name = setup::SERVER_NAME.to_owned();
    assert!(own.ask(Agent::ClaudeCode).expect("no error").is_none());
}

/// An ask answered with `items`.
fn answered(items: &[AnswerItem]) -> Ask {
    let mut ask: Ask = serde_json::from_value(json!({
        "id": "0123456789abcdef0123456789abcdef", "url": "", "status": "answered",
        "createdAt": "2026-12-05T10:00:00Z",
        "request": {"questions": [{"id": "x", "question": "?"}]},
    }))
    .expect("an ask");
    ask.answers = Some(items.to_vec());
    ask
}

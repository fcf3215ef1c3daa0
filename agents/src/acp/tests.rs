use super::prompts::Prompt;
use interaction::Ask;
use serde_json::{json, Value};

fn permission() -> Prompt {
    Prompt::of(
        "session/request_permission",
        &json!({"sessionId": "s", "toolCall": {"toolCallId": "c", "title": "Run rm -rf build/"},
                "options": [{"optionId": "allow", "name": "Allow once", "kind": "allow_once"},
                            {"optionId": "reject", "name": "Reject", "kind": "reject_once"}]}),
    )
    .expect("askdesk's")
    .expect("askable")
}

/// `prompt`'s ask, ended with `status` and `answers`.
fn ended(prompt: &Prompt, status: &str, answers: Option<Value>) -> Ask {
    let new = serde_json::to_value(prompt.ask("agent")).expect("json");
    let mut ask = json!({
        "id": "0123456789abcdef0123456789abcdef", "status": status,
        "createdAt": "2026-12-07T10:00:00Z", "url": "http://127.0.0.1:3000/asks/x",
        "request": {"questions": new["questions"]}, "title": new["title"],
    });
    if let Some(answers) = answers {
        ask["answers"] = answers;
    }
    serde_json::from_value(ask).expect("an ask")
}

#[test]
fn a_permission_prompt_is_one_question_of_the_agents_options() {
    let prompt = permission();
    let new = prompt.ask("claude-agent-acp · shop");
    assert_eq!(new.agent.as_deref(), Some("claude-agent-acp · shop"));
    assert_eq!(new.questions.len(), 1);
    let labels: Vec<_> = new.questions[0]
        .options
        .iter()
        .map(|o| o.label.as_str())
        .collect();
    assert_eq!(labels, ["Allow once", "Reject"]);
    assert!(!new.questions[0].multi_select);
    assert!(new
        .title
        .as_deref()
        .is_some_and(|t| t.contains("rm -rf build/")));
}

#[test]
fn the_option_chosen_at_the_desk_is_the_agents_outcome_and_typed_text_refuses() {
    let prompt = permission();
    let chosen = ended(
        &prompt,
        "answered",
        Some(json!([{"id": "permission", "selected": ["Allow once"]}])),
    );
    assert_eq!(
        prompt.result(&chosen),
        Some(json!({"outcome": {"outcome": "selected", "optionId": "allow"}}))
    );
    let typed = ended(
        &prompt,
        "answered",
        Some(json!([{"id": "permission", "selected": [], "custom": "not today"}])),
    );
    assert_eq!(
        prompt.result(&typed),
        Some(json!({"outcome": {"outcome": "selected", "optionId": "reject"}}))
    );
    // Declined, withdrawn: no reply; the editor's dialog answers.
    for status in ["declined", "cancelled", "expired"] {
        assert_eq!(
            prompt.result(&ended(&prompt, status, None)),
            None,
            "{status}"
        );
    }
}

#[test]
fn a_form_keeps_checked_labels_and_typed_text_together() {
    let prompt = Prompt::of(
        "elicitation/create",
        &json!({"sessionId": "s", "mode": "form", "message": "Release",
                "requestedSchema": {"type": "object", "properties": {
                    "envs": {"type": "array", "title": "Where?",
                             "items": {"type": "string", "enum": ["staging", "prod"]}},
                    "note": {"type": "string", "title": "Anything else?"}}}}),
    )
    .expect("askdesk's")
    .expect("askable");
    let new = prompt.ask("agent");
    assert_eq!(new.questions.len(), 2);
    assert!(new.questions[0].multi_select);
    let answered = ended(
        &prompt,
        "answered",
        Some(json!([
        {"id": new.questions[0].id, "selected": ["staging"]},
        {"id": new.questions[1].id, "selected": [], "custom": "after lunch"}])),
    );
    let result = prompt.result(&answered).expect("a reply");
    assert_eq!(result["action"], "accept");
    assert_eq!(result["content"]["envs"], json!(["staging"]));
    assert_eq!(result["content"]["note"], "after lunch");
    assert_eq!(
        prompt.result(&ended(&prompt, "declined", None)),
        Some(json!({"action": "decline"}))
    );
}

#[test]
fn what_the_desk_cannot_ask_stays_in_the_editor() {
    let url = Prompt::of(
        "elicitation/create",
        &json!({"mode": "url", "url": "https://x"}),
    );
    assert!(matches!(url, Some(Err(_))));
    let none = Prompt::of("session/request_permission", &json!({"options": []}));
    assert!(matches!(none, Some(Err(_))));
    assert!(Prompt::of("fs/read_text_file", &json!({})).is_none());
}

/// A desk that never answers.
struct NoDesk;

impl crate::hook::Reach for NoDesk {
    async fn reach(&self) -> Result<crate::backend::Backend, String> {
        Err("no desk in this test".to_owned())
    }
}

fn proxy() -> (
    std::sync::Arc<super::Proxy<NoDesk>>,
    tokio::sync::mpsc::UnboundedReceiver<Option<String>>,
) {
    let (to_agent, agent) = tokio::sync::mpsc::unbounded_channel();
    let (to_editor, _) = tokio::sync::mpsc::unbounded_channel();
    let proxy = super::Proxy {
        desk: NoDesk,
        name: "agent".to_owned(),
        state: std::sync::Mutex::default(),
        to_agent,
        to_editor,
    };
    (std::sync::Arc::new(proxy), agent)
}

#[test]
fn the_editors_reply_after_the_desks_answer_never_reaches_the_agent() {
    let (proxy, mut agent) = proxy();
    proxy.state().pending.insert(
        "7".to_owned(),
        super::Pending {
            ask: None,
            answered: true,
        },
    );
    proxy.editor_line(
        r#"{"jsonrpc":"2.0","id":7,"result":{"outcome":{"outcome":"cancelled"}}}"#.to_owned(),
    );
    assert!(
        agent.try_recv().is_err(),
        "a second reply went to the agent"
    );
    // Any other line goes on unchanged, a reply to a request the desk
    // never had among them.
    for line in [
        r#"{"jsonrpc":"2.0","id":7,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}"#,
        "not json at all",
    ] {
        proxy.editor_line(line.to_owned());
        assert_eq!(agent.try_recv().ok().flatten().as_deref(), Some(line));
    }
}

#[test]
fn the_editors_reply_first_goes_on_and_forgets_the_request() {
    let (proxy, mut agent) = proxy();
    proxy
        .state()
        .pending
        .insert("\"a\"".to_owned(), super::Pending::default());
    let reply = r#"{"jsonrpc":"2.0","id":"a","result":{"outcome":{"outcome":"cancelled"}}}"#;
    proxy.editor_line(reply.to_owned());
    assert_eq!(agent.try_recv().ok().flatten().as_deref(), Some(reply));
    assert!(proxy.state().pending.is_empty());
}

#[test]
fn cursors_questions_are_answered_by_their_options_ids() {
    let prompt = Prompt::of(
        "cursor/ask_question",
        &json!({"toolCallId": "t1", "title": "Set-up",
                "questions": [
                    {"id": "q-db", "prompt": "Which database?", "allowMultiple": false,
                     "options": [{"id": "o1", "label": "SQLite"}, {"id": "o2", "label": "PostgreSQL"}]},
                    {"id": "q-envs", "prompt": "Where to?", "allowMultiple": true,
                     "options": [{"id": "e1", "label": "staging"}, {"id": "e2", "label": "prod"}]}]}),
    )
    .expect("askdesk's")
    .expect("askable");
    let new = prompt.ask("cursor-agent");
    assert_eq!(new.title.as_deref(), Some("Set-up"));
    assert!(!new.questions[0].multi_select && new.questions[1].multi_select);
    let answered = ended(
        &prompt,
        "answered",
        Some(json!([
        {"id": "q-db", "selected": ["PostgreSQL"]},
        {"id": "q-envs", "selected": ["staging", "prod"]}])),
    );
    assert_eq!(
        prompt.result(&answered),
        Some(json!({"outcome": {"outcome": "answered", "answers": [
            {"questionId": "q-db", "selectedOptionIds": ["o2"]},
            {"questionId": "q-envs", "selectedOptionIds": ["e1", "e2"]}]}}))
    );
    // Typed text has no place in Cursor's answer: the editor answers.
    let typed = ended(
        &prompt,
        "answered",
        Some(json!([
        {"id": "q-db", "selected": [], "custom": "MySQL"},
        {"id": "q-envs", "selected": ["staging"]}])),
    );
    assert_eq!(prompt.result(&typed), None);
    assert_eq!(
        prompt.result(&ended(&prompt, "declined", None)),
        Some(json!({"outcome": {"outcome": "skipped", "reason": ""}}))
    );
}

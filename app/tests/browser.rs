//! Mounts real components in headless Chromium (wasm-bindgen-test-runner)
//! and checks the DOM and the draft after user-like interaction:
//!   scripts/dev.sh test wasm
#![cfg(target_arch = "wasm32")]

use app::{ask::state::FormState, ask::AskView, question::QuestionField, rpc::AskPageData};
use interaction::{AnswerItem, Ask, AskStatus, Request, ValidRequest};
use leptos::{prelude::*, wasm_bindgen::JsCast, web_sys};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn request() -> Request {
    serde_json::from_str(
        r#"{"questions": [
          {"id": "features", "header": "Features", "question": "Which features should ship?",
           "multiSelect": true,
           "options": [{"label": "Auth", "description": "Sign-in with a token"},
                       {"label": "Logging"}, {"label": "Metrics"}]},
          {"id": "db", "header": "Database", "question": "Which database?",
           "options": [{"label": "SQLite"}, {"label": "PostgreSQL"}]},
          {"id": "notes", "question": "Anything else?"}
        ]}"#,
    )
    .expect("request")
}

fn mount<F, N>(component: F) -> web_sys::Element
where
    F: FnOnce() -> N + 'static,
    N: IntoView + 'static,
{
    let parent = document().create_element("div").expect("create div");
    document()
        .body()
        .expect("body")
        .append_child(&parent)
        .expect("append");
    let handle = leptos::mount::mount_to(parent.clone().unchecked_into(), component);
    // Keep the view alive for the rest of the test.
    std::mem::forget(handle);
    parent
}

fn find<T: JsCast>(root: &web_sys::Element, selector: &str) -> T {
    root.query_selector(selector)
        .expect("valid selector")
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
        .unchecked_into()
}

fn input(root: &web_sys::Element, selector: &str) -> web_sys::HtmlInputElement {
    find(root, selector)
}

fn type_into(input: &web_sys::HtmlInputElement, text: &str) {
    input.set_value(text);
    let event = web_sys::Event::new("input").expect("input event");
    input.dispatch_event(&event).expect("dispatch");
}

/// Mounts the fields of question `index` over a form the test can read.
fn mount_question(index: usize) -> (web_sys::Element, RwSignal<FormState>) {
    let request = ValidRequest::new(request()).expect("valid");
    let form = RwSignal::new(FormState::new("x", &request, None));
    let question = request.questions()[index].clone();
    let root = mount(move || view! { <QuestionField form index question/> });
    (root, form)
}

fn item(form: RwSignal<FormState>, index: usize) -> AnswerItem {
    form.with_untracked(|f| f.batch().answers().answers[index].clone())
}

fn expected(id: &str, selected: &[&str], custom: Option<&str>) -> AnswerItem {
    AnswerItem {
        id: id.to_owned(),
        selected: selected.iter().map(|s| (*s).to_owned()).collect(),
        custom: custom.map(str::to_owned),
    }
}

#[wasm_bindgen_test]
async fn check_then_type_keeps_the_labels_and_the_text() {
    let (root, batch) = mount_question(0);
    input(&root, "input[value=Logging]").click();
    input(&root, "input[value=Auth]").click();
    type_into(&input(&root, "#features-other"), "Rate limiting");
    leptos::task::tick().await;
    assert_eq!(
        item(batch, 0),
        expected("features", &["Auth", "Logging"], Some("Rate limiting"))
    );
    assert!(input(&root, "input[value=Auth]").checked());
    assert!(input(&root, "input[value=Logging]").checked());
    assert_eq!(input(&root, "#features-other").value(), "Rate limiting");
}

#[wasm_bindgen_test]
async fn type_then_check_keeps_the_text_and_the_labels() {
    let (root, batch) = mount_question(0);
    type_into(&input(&root, "#features-other"), "Rate limiting");
    leptos::task::tick().await;
    input(&root, "input[value=Metrics]").click();
    input(&root, "input[value=Auth]").click();
    leptos::task::tick().await;
    assert_eq!(
        item(batch, 0),
        expected("features", &["Auth", "Metrics"], Some("Rate limiting"))
    );
    assert_eq!(input(&root, "#features-other").value(), "Rate limiting");
}

#[wasm_bindgen_test]
async fn unchecking_keeps_the_text() {
    let (root, batch) = mount_question(0);
    input(&root, "input[value=Auth]").click();
    type_into(&input(&root, "#features-other"), "Rate limiting");
    leptos::task::tick().await;
    input(&root, "input[value=Auth]").click();
    leptos::task::tick().await;
    assert!(!input(&root, "input[value=Auth]").checked());
    assert_eq!(
        item(batch, 0),
        expected("features", &[], Some("Rate limiting"))
    );
    assert_eq!(input(&root, "#features-other").value(), "Rate limiting");
}

#[wasm_bindgen_test]
async fn on_single_select_other_text_overrides_the_radio_and_says_so() {
    let (root, batch) = mount_question(1);
    input(&root, "input[value=SQLite]").click();
    leptos::task::tick().await;
    assert_eq!(item(batch, 1), expected("db", &["SQLite"], None));
    assert!(root
        .query_selector(".override")
        .expect("selector")
        .is_none());

    type_into(&input(&root, "#db-other"), "DuckDB");
    leptos::task::tick().await;
    assert_eq!(item(batch, 1), expected("db", &[], Some("DuckDB")));
    let note = find::<web_sys::Element>(&root, ".override");
    assert!(note
        .text_content()
        .unwrap_or_default()
        .contains("replaces the chosen option"));

    // Picking the other radio moves the choice; the text still overrides.
    input(&root, "input[value=PostgreSQL]").click();
    leptos::task::tick().await;
    assert!(!input(&root, "input[value=SQLite]").checked());
    assert_eq!(item(batch, 1), expected("db", &[], Some("DuckDB")));

    // Clearing the text brings the chosen option back.
    type_into(&input(&root, "#db-other"), "");
    leptos::task::tick().await;
    assert_eq!(item(batch, 1), expected("db", &["PostgreSQL"], None));
}

#[wasm_bindgen_test]
async fn labels_only_answers_carry_no_custom_text() {
    let (root, batch) = mount_question(0);
    input(&root, "input[value=Metrics]").click();
    input(&root, "input[value=Auth]").click();
    leptos::task::tick().await;
    assert_eq!(
        item(batch, 0),
        expected("features", &["Auth", "Metrics"], None)
    );
    // Whitespace-only text is no custom text.
    type_into(&input(&root, "#features-other"), "   ");
    leptos::task::tick().await;
    assert_eq!(
        item(batch, 0),
        expected("features", &["Auth", "Metrics"], None)
    );
}

#[wasm_bindgen_test]
async fn submit_waits_for_every_question_and_the_page_says_why() {
    let ask = Ask {
        id: "0123456789abcdef0123456789abcdef".to_owned(),
        url: String::new(),
        status: AskStatus::Pending,
        title: Some("Release plan".to_owned()),
        agent: None,
        request: request(),
        created_at: "2026-11-30T11:20:00.000Z".to_owned(),
        expires_at: None,
        finished_at: None,
        answers: None,
        decline_reason: None,
        projection: None,
        answered_by: None,
        via: None,
        to: Vec::new(),
    };
    let data = AskPageData {
        ask,
        deliveries: Vec::new(),
        posted: None,
        may_answer: true,
    };
    let root = mount(move || view! { <AskView data=data.clone()/> });
    leptos::task::tick().await;
    let submit = find::<web_sys::HtmlButtonElement>(&root, "button.primary");
    assert!(submit.disabled());
    let blockers = || {
        find::<web_sys::Element>(&root, "#blockers")
            .text_content()
            .unwrap_or_default()
    };
    assert!(
        blockers().contains("Features: unanswered"),
        "{}",
        blockers()
    );
    assert!(blockers().contains("Database: unanswered"));
    assert!(blockers().contains("Question 3: unanswered"));

    input(&root, "input[value=Auth]").click();
    type_into(&input(&root, "#db-other"), "  ");
    leptos::task::tick().await;
    assert!(!blockers().contains("Features"));
    assert!(
        blockers().contains("Database: Other text is blank"),
        "{}",
        blockers()
    );

    // Blank Other text does not hide a chosen option.
    input(&root, "input[value=SQLite]").click();
    let notes: web_sys::HtmlTextAreaElement = find(&root, "#notes-other");
    notes.set_value("Ship on Friday");
    notes
        .dispatch_event(&web_sys::Event::new("input").expect("event"))
        .expect("dispatch");
    leptos::task::tick().await;
    assert!(!submit.disabled());
    assert!(root
        .query_selector("#blockers")
        .expect("selector")
        .is_none());
}

//! Puts the answering form the server writes into headless Chromium
//! (wasm-bindgen-test-runner), lets the ask page's browser code take it
//! over, and checks the DOM and the draft after user-like interaction:
//!   scripts/dev.sh test wasm
#![cfg(target_arch = "wasm32")]

use askform::{
    client::Page,
    form::{Posted, PostedQuestion},
    i18n::Lang,
    markup,
    state::FormState,
    PendingProps, ROOT_ID,
};
use interaction::{AnswerItem, Answers, Ask, AskStatus, ValidRequest};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::wasm_bindgen::JsCast;

wasm_bindgen_test_configure!(run_in_browser);

fn request() -> ValidRequest {
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

fn ask() -> Ask {
    Ask {
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
    }
}

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("document")
}

/// Writes the form as the server would for `posted`, in place of the last
/// test's, and lets the browser code take it over. With `keep_draft` the
/// draft the last form saved stays, as across a reload.
fn mount_with(posted: Option<Posted>, keep_draft: bool) -> (web_sys::Element, Page) {
    let document = document();
    if let Some(old) = document.get_element_by_id(ROOT_ID) {
        old.remove();
    }
    let storage = web_sys::window()
        .and_then(|w| w.session_storage().ok().flatten())
        .expect("sessionStorage");
    if !keep_draft {
        storage.clear().expect("clear");
    }
    let ask = ask();
    let state = FormState::new(&ask.id, &ask.request, posted.as_ref());
    let root = document.create_element("div").expect("div");
    root.set_id(ROOT_ID);
    root.set_inner_html(&markup::form(
        &state,
        ask.request.questions(),
        Lang::En,
        false,
    ));
    document
        .body()
        .expect("body")
        .append_child(&root)
        .expect("append");
    let props = PendingProps {
        id: ask.id,
        request: ask.request,
        posted,
        notify: None,
        lang: Lang::En,
    };
    let page = Page::attach(&root, props).expect("the form is taken over");
    (root, page)
}

fn mount() -> (web_sys::Element, Page) {
    mount_with(None, false)
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

fn type_into(root: &web_sys::Element, selector: &str, text: &str) {
    let element: web_sys::Element = find(root, selector);
    if let Some(input) = element.dyn_ref::<web_sys::HtmlInputElement>() {
        input.set_value(text);
    } else {
        find::<web_sys::HtmlTextAreaElement>(root, selector).set_value(text);
    }
    let event = web_sys::Event::new("input").expect("input event");
    element.dispatch_event(&event).expect("dispatch");
}

fn item(page: &Page, index: usize) -> AnswerItem {
    page.state().batch().answers().answers[index].clone()
}

fn expected(id: &str, selected: &[&str], custom: Option<&str>) -> AnswerItem {
    AnswerItem {
        id: id.to_owned(),
        selected: selected.iter().map(|s| (*s).to_owned()).collect(),
        custom: custom.map(str::to_owned),
    }
}

#[wasm_bindgen_test]
fn check_then_type_keeps_the_labels_and_the_text() {
    let (root, page) = mount();
    input(&root, "input[value=Logging]").click();
    input(&root, "input[value=Auth]").click();
    type_into(&root, "#features-other", "Rate limiting");
    assert_eq!(
        item(&page, 0),
        expected("features", &["Auth", "Logging"], Some("Rate limiting"))
    );
    assert!(input(&root, "input[value=Auth]").checked());
    assert!(input(&root, "input[value=Logging]").checked());
    assert_eq!(input(&root, "#features-other").value(), "Rate limiting");
}

#[wasm_bindgen_test]
fn type_then_check_keeps_the_text_and_the_labels() {
    let (root, page) = mount();
    type_into(&root, "#features-other", "Rate limiting");
    input(&root, "input[value=Metrics]").click();
    input(&root, "input[value=Auth]").click();
    assert_eq!(
        item(&page, 0),
        expected("features", &["Auth", "Metrics"], Some("Rate limiting"))
    );
    assert_eq!(input(&root, "#features-other").value(), "Rate limiting");
}

#[wasm_bindgen_test]
fn unchecking_keeps_the_text() {
    let (root, page) = mount();
    input(&root, "input[value=Auth]").click();
    type_into(&root, "#features-other", "Rate limiting");
    input(&root, "input[value=Auth]").click();
    assert!(!input(&root, "input[value=Auth]").checked());
    assert_eq!(
        item(&page, 0),
        expected("features", &[], Some("Rate limiting"))
    );
    assert_eq!(input(&root, "#features-other").value(), "Rate limiting");
}

#[wasm_bindgen_test]
fn on_single_select_other_text_overrides_the_radio_and_says_so() {
    let (root, page) = mount();
    input(&root, "input[value=SQLite]").click();
    assert_eq!(item(&page, 1), expected("db", &["SQLite"], None));
    assert!(root
        .query_selector(".override")
        .expect("selector")
        .is_none());

    type_into(&root, "#db-other", "DuckDB");
    assert_eq!(item(&page, 1), expected("db", &[], Some("DuckDB")));
    let note = find::<web_sys::Element>(&root, ".override");
    assert!(note
        .text_content()
        .unwrap_or_default()
        .contains("replaces the chosen option"));

    // Picking the other radio moves the choice; the text still overrides.
    input(&root, "input[value=PostgreSQL]").click();
    assert!(!input(&root, "input[value=SQLite]").checked());
    assert_eq!(item(&page, 1), expected("db", &[], Some("DuckDB")));

    // Clearing the text brings the chosen option back.
    type_into(&root, "#db-other", "");
    assert_eq!(item(&page, 1), expected("db", &["PostgreSQL"], None));
    assert!(root
        .query_selector(".override")
        .expect("selector")
        .is_none());
}

#[wasm_bindgen_test]
fn labels_only_answers_carry_no_custom_text() {
    let (root, page) = mount();
    input(&root, "input[value=Metrics]").click();
    input(&root, "input[value=Auth]").click();
    assert_eq!(
        item(&page, 0),
        expected("features", &["Auth", "Metrics"], None)
    );
    // Whitespace-only text is no custom text.
    type_into(&root, "#features-other", "   ");
    assert_eq!(
        item(&page, 0),
        expected("features", &["Auth", "Metrics"], None)
    );
}

#[wasm_bindgen_test]
fn submit_waits_for_every_question_and_the_page_says_why() {
    let (root, _page) = mount();
    let submit = find::<web_sys::HtmlButtonElement>(&root, "button.primary");
    assert!(submit.disabled());
    assert_eq!(
        submit.get_attribute("aria-describedby").as_deref(),
        Some("blockers")
    );
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
    type_into(&root, "#db-other", "  ");
    assert!(!blockers().contains("Features"));
    assert!(
        blockers().contains("Database: Other text is blank"),
        "{}",
        blockers()
    );

    // Blank Other text does not hide a chosen option.
    input(&root, "input[value=SQLite]").click();
    type_into(&root, "#notes-other", "Ship on Friday");
    assert!(!submit.disabled());
    assert_eq!(submit.get_attribute("aria-describedby"), None);
    assert!(root
        .query_selector("#blockers")
        .expect("selector")
        .is_none());
}

#[wasm_bindgen_test]
fn a_reload_puts_back_what_was_typed() {
    let (root, _page) = mount();
    input(&root, "input[value=Logging]").click();
    type_into(&root, "#features-other", "Rate limiting");
    type_into(&root, "#notes-other", "Ship on Friday");

    let (root, page) = mount_with(None, true);
    assert_eq!(
        item(&page, 0),
        expected("features", &["Logging"], Some("Rate limiting"))
    );
    assert!(input(&root, "input[value=Logging]").checked());
    assert_eq!(input(&root, "#features-other").value(), "Rate limiting");
    assert_eq!(
        find::<web_sys::HtmlTextAreaElement>(&root, "#notes-other").value(),
        "Ship on Friday"
    );
}

#[wasm_bindgen_test]
fn a_form_as_served_stores_no_draft_until_something_changes() {
    let stored = || {
        web_sys::window()
            .and_then(|w| w.session_storage().ok().flatten())
            .expect("sessionStorage")
            .length()
            .expect("length")
    };
    let (root, _page) = mount();
    assert_eq!(stored(), 0, "nothing typed, nothing to keep");
    type_into(&root, "#notes-other", "Ship on Friday");
    assert_eq!(stored(), 1, "what was typed is kept");
}

#[wasm_bindgen_test]
fn a_refused_post_shows_its_problems_and_wins_over_a_saved_draft() {
    let (root, _page) = mount();
    type_into(&root, "#notes-other", "saved before the post");

    let problems = request()
        .validate_answers(Answers { answers: vec![] })
        .expect_err("refused")
        .0;
    let posted = Posted {
        ask_id: ask().id,
        questions: vec![PostedQuestion {
            id: "db".to_owned(),
            selected: vec!["SQLite".to_owned()],
            custom: String::new(),
        }],
        reason: String::new(),
        problems,
    };
    let (root, page) = mount_with(Some(posted), true);
    assert_eq!(item(&page, 1), expected("db", &["SQLite"], None));
    assert_eq!(
        find::<web_sys::HtmlTextAreaElement>(&root, "#notes-other").value(),
        ""
    );
    let refused = find::<web_sys::Element>(&root, ".refused");
    assert_eq!(refused.get_attribute("role").as_deref(), Some("alert"));
    // Each question's problems are listed in it and describe its fieldset.
    let fieldset = find::<web_sys::Element>(&root, "fieldset:has(#notes-other)");
    assert_eq!(
        fieldset.get_attribute("aria-describedby").as_deref(),
        Some("notes-problems")
    );
    assert!(find::<web_sys::Element>(&root, "#notes-problems")
        .text_content()
        .unwrap_or_default()
        .contains("has no answer"));
}

/// Waits up to two seconds for something under `root` to match `selector`.
async fn wait_for(root: &web_sys::Element, selector: &str) -> web_sys::Element {
    for _ in 0..100 {
        if let Some(found) = root.query_selector(selector).expect("valid selector") {
            return found;
        }
        let tick = web_sys::js_sys::Promise::new(&mut |resolve, _| {
            web_sys::window()
                .expect("window")
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 20)
                .expect("timer");
        });
        wasm_bindgen_futures::JsFuture::from(tick)
            .await
            .expect("timer fires");
    }
    panic!("nothing matched {selector} within two seconds")
}

#[wasm_bindgen_test]
async fn a_send_that_fails_says_why_and_keeps_the_answers() {
    let (root, page) = mount();
    input(&root, "input[value=Auth]").click();
    input(&root, "input[value=SQLite]").click();
    type_into(&root, "#notes-other", "Ship on Friday");
    let submit = find::<web_sys::HtmlButtonElement>(&root, "button.primary");
    let decline = find::<web_sys::HtmlButtonElement>(&root, "button[value=decline]");
    submit.click();
    // While the answers are on their way, neither button sends again.
    assert!(submit.disabled() && decline.disabled());
    // The test runner's server has no server functions, so no reply is an
    // answer or a refusal.
    let failure = wait_for(&root, ".failure").await;
    assert_eq!(failure.get_attribute("role").as_deref(), Some("alert"));
    let text = failure.text_content().unwrap_or_default();
    assert!(text.contains("Could not reach the server"), "{text}");
    assert!(!submit.disabled() && !decline.disabled());
    assert_eq!(item(&page, 0), expected("features", &["Auth"], None));
    assert_eq!(
        item(&page, 2),
        expected("notes", &[], Some("Ship on Friday"))
    );
}

//! Mounts the Leptos answering form in headless Chromium
//! (wasm-bindgen-test-runner) and drives it as a person would: clicks on
//! the native inputs, text typed into the boxes; then checks what the page
//! shows and what the form would send.
//!   scripts/dev.sh test wasm

// The 100-line rule is `src/`'s: a scenario reads best as one story.
#![allow(clippy::too_many_lines)]
#![cfg(target_arch = "wasm32")]

use app::ask::{form::AskForm, LiveForm, Woken};
use askform::{
    error::ServerError,
    form::{Posted, PostedQuestion},
    state::{FormState, Outgoing},
};
use interaction::{AnswerItem, Answers, ValidRequest};
use leptos::{prelude::*, task::tick};
use std::sync::{Arc, Mutex};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::wasm_bindgen::JsCast;

wasm_bindgen_test_configure!(run_in_browser);

const ID: &str = "0123456789abcdef0123456789abcdef";

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

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("document")
}

fn storage() -> web_sys::Storage {
    web_sys::window()
        .and_then(|w| w.session_storage().ok().flatten())
        .expect("sessionStorage")
}

/// A fresh element to mount into, in place of the last test's.
fn container() -> web_sys::HtmlElement {
    let document = document();
    if let Some(old) = document.get_element_by_id("mounted") {
        old.remove();
    }
    let root: web_sys::HtmlElement = document
        .create_element("div")
        .expect("div")
        .unchecked_into();
    root.set_id("mounted");
    document
        .body()
        .expect("body")
        .append_child(&root)
        .expect("append");
    root
}

/// A mounted form and what it sent.
struct Mounted {
    root: web_sys::HtmlElement,
    form: RwSignal<FormState>,
    sent: Arc<Mutex<Vec<Outgoing>>>,
}

/// Mounts the bare [`AskForm`] over a fresh state; what it lets go is
/// recorded, not sent.
async fn mount_form() -> Mounted {
    let root = container();
    let form = RwSignal::new(FormState::new(ID, &request(), None));
    let sent = Arc::new(Mutex::new(Vec::new()));
    let record = sent.clone();
    let send = Callback::new(move |outgoing: Outgoing| {
        record.lock().expect("lock").push(outgoing);
    });
    let questions = request().questions().to_vec();
    leptos::mount::mount_to(root.clone(), move || {
        view! { <AskForm form questions=questions.clone() send/> }
    })
    .forget();
    tick().await;
    Mounted { root, form, sent }
}

/// Mounts the form at work ([`LiveForm`]), as the island does for
/// `posted`. With `keep_draft` the draft the last form saved stays, as
/// across a reload.
async fn mount_live(posted: Option<Posted>, keep_draft: bool) -> Mounted {
    if !keep_draft {
        storage().clear().expect("clear");
    }
    let root = container();
    // As the island wakes: over no server markup here, so from the saved
    // draft or the post alone.
    let mut state = FormState::new(ID, &request(), posted.as_ref());
    Woken::read("no-markup", ID, &request(), posted.as_ref()).adopt_into(&mut state);
    let form = RwSignal::new(state);
    let questions = request().questions().to_vec();
    leptos::mount::mount_to(root.clone(), move || {
        view! { <LiveForm form questions=questions.clone() notify=None/> }
    })
    .forget();
    tick().await;
    Mounted {
        root,
        form,
        sent: Arc::default(),
    }
}

impl Mounted {
    fn find<T: JsCast>(&self, selector: &str) -> T {
        self.root
            .query_selector(selector)
            .expect("valid selector")
            .unwrap_or_else(|| panic!("nothing matches {selector}"))
            .unchecked_into()
    }

    fn has(&self, selector: &str) -> bool {
        self.root
            .query_selector(selector)
            .expect("valid selector")
            .is_some()
    }

    fn input(&self, selector: &str) -> web_sys::HtmlInputElement {
        self.find(selector)
    }

    fn text(&self, selector: &str) -> String {
        self.find::<web_sys::Element>(selector)
            .text_content()
            .unwrap_or_default()
    }

    /// Clicks the input labelled `label`, as a person does.
    async fn click(&self, label: &str) {
        let label: web_sys::HtmlElement = self
            .root
            .query_selector_all("label")
            .ok()
            .and_then(|labels| {
                (0..labels.length())
                    .filter_map(|i| labels.item(i))
                    .find(|l| l.text_content().as_deref() == Some(label))
            })
            .unwrap_or_else(|| panic!("no label {label}"))
            .unchecked_into();
        label.click();
        tick().await;
    }

    /// Types `text` into the box `selector` in place of what it held.
    async fn type_into(&self, selector: &str, text: &str) {
        let element: web_sys::Element = self.find(selector);
        if let Some(input) = element.dyn_ref::<web_sys::HtmlInputElement>() {
            input.set_value(text);
        } else {
            self.find::<web_sys::HtmlTextAreaElement>(selector)
                .set_value(text);
        }
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        let event = web_sys::Event::new_with_event_init_dict("input", &init).expect("input event");
        element.dispatch_event(&event).expect("dispatch");
        tick().await;
    }

    fn item(&self, index: usize) -> AnswerItem {
        self.form
            .with_untracked(|s| s.batch().answers().answers[index].clone())
    }
}

fn expected(id: &str, selected: &[&str], custom: Option<&str>) -> AnswerItem {
    AnswerItem {
        id: id.to_owned(),
        selected: selected.iter().map(|s| (*s).to_owned()).collect(),
        custom: custom.map(str::to_owned),
    }
}

#[wasm_bindgen_test]
async fn checked_labels_then_other_text_are_kept_together() {
    let page = mount_form().await;
    page.click("Logging").await;
    page.click("Auth").await;
    page.type_into("#features-other", "Rate limiting").await;
    assert_eq!(
        page.item(0),
        expected("features", &["Auth", "Logging"], Some("Rate limiting"))
    );
    assert!(page.input("#features-option-0").checked());
    assert!(page.input("#features-option-1").checked());
    assert_eq!(page.input("#features-other").value(), "Rate limiting");
}

#[wasm_bindgen_test]
async fn other_text_then_checked_labels_are_kept_together() {
    let page = mount_form().await;
    page.type_into("#features-other", "Rate limiting").await;
    page.click("Metrics").await;
    page.click("Auth").await;
    assert_eq!(
        page.item(0),
        expected("features", &["Auth", "Metrics"], Some("Rate limiting"))
    );
    assert_eq!(page.input("#features-other").value(), "Rate limiting");
    // Unchecking a label keeps the text.
    page.click("Auth").await;
    assert!(!page.input("#features-option-0").checked());
    assert_eq!(
        page.item(0),
        expected("features", &["Metrics"], Some("Rate limiting"))
    );
}

#[wasm_bindgen_test]
async fn on_single_select_other_text_overrides_the_radio_and_the_page_says_so() {
    let page = mount_form().await;
    page.click("SQLite").await;
    assert_eq!(page.item(1), expected("db", &["SQLite"], None));
    assert!(!page.has(".override"));

    page.type_into("#db-other", "DuckDB").await;
    assert_eq!(page.item(1), expected("db", &[], Some("DuckDB")));
    assert!(page
        .text(".override")
        .contains("replaces the chosen option"));

    // Picking the other radio moves the choice; the text still overrides.
    page.click("PostgreSQL").await;
    assert!(!page.input("#db-option-0").checked());
    assert!(page.input("#db-option-1").checked());
    assert_eq!(page.item(1), expected("db", &[], Some("DuckDB")));

    // Clearing the text brings the chosen option back.
    page.type_into("#db-other", "").await;
    assert_eq!(page.item(1), expected("db", &["PostgreSQL"], None));
    assert!(!page.has(".override"));
}

#[wasm_bindgen_test]
async fn an_optionless_question_is_answered_in_its_text_box() {
    let page = mount_form().await;
    let area: web_sys::HtmlTextAreaElement = page.find("#notes-other");
    assert_eq!(area.value(), "");
    page.type_into("#notes-other", "Ship on Friday").await;
    assert_eq!(page.item(2), expected("notes", &[], Some("Ship on Friday")));
    // Whitespace-only text is no answer.
    page.type_into("#notes-other", "   ").await;
    assert!(page.text("#blockers").contains("Question 3"));
}

#[wasm_bindgen_test]
async fn submit_waits_for_every_question_then_sends_labels_and_text_together() {
    let page = mount_form().await;
    let submit: web_sys::HtmlButtonElement = page.find("button.primary");
    assert!(submit.disabled());
    assert_eq!(
        submit.get_attribute("aria-describedby").as_deref(),
        Some("blockers")
    );
    let blockers = page.text("#blockers");
    assert!(blockers.contains("Features: unanswered"), "{blockers}");
    assert!(blockers.contains("Database: unanswered"), "{blockers}");
    assert!(blockers.contains("Question 3: unanswered"), "{blockers}");

    page.click("Auth").await;
    page.type_into("#db-other", "  ").await;
    let blockers = page.text("#blockers");
    assert!(!blockers.contains("Features"), "{blockers}");
    assert!(
        blockers.contains("Database: Other text is blank"),
        "{blockers}"
    );

    page.click("SQLite").await;
    page.type_into("#features-other", "Rate limiting").await;
    page.type_into("#notes-other", "Ship on Friday").await;
    assert!(!submit.disabled());
    assert_eq!(submit.get_attribute("aria-describedby"), None);
    assert!(!page.has("#blockers"));

    submit.click();
    tick().await;
    let sent = page.sent.lock().expect("lock").clone();
    let [Outgoing::Answer(Answers { answers })] = sent.as_slice() else {
        panic!("one answer sent, not {sent:?}");
    };
    assert_eq!(
        answers[0],
        expected("features", &["Auth"], Some("Rate limiting"))
    );
    assert_eq!(answers[1], expected("db", &["SQLite"], None));
    // While it is on its way, neither button sends again.
    assert!(submit.disabled());
    assert!(page
        .find::<web_sys::HtmlButtonElement>("button[value=decline]")
        .disabled());
}

#[wasm_bindgen_test]
async fn a_refused_answer_shows_its_problems_beside_their_questions() {
    let page = mount_form().await;
    page.click("Auth").await;
    page.click("SQLite").await;
    page.type_into("#notes-other", "later").await;
    page.find::<web_sys::HtmlButtonElement>("button.primary")
        .click();
    tick().await;
    // The server's validator refuses (here, answers missing the notes).
    let problems = request()
        .validate_answers(Answers {
            answers: vec![expected("features", &["Auth"], None)],
        })
        .expect_err("refused");
    page.form
        .update(|s| s.settle(Err(ServerError::Invalid(problems))));
    tick().await;
    assert_eq!(
        page.find::<web_sys::Element>(".refused")
            .get_attribute("role")
            .as_deref(),
        Some("alert")
    );
    let fieldset: web_sys::Element = page.find("fieldset:has(#notes-other)");
    assert_eq!(
        fieldset.get_attribute("aria-describedby").as_deref(),
        Some("notes-problems")
    );
    assert!(page.text("#notes-problems").contains("has no answer"));
    // What was typed is still there, and the form may send again.
    assert_eq!(
        page.find::<web_sys::HtmlTextAreaElement>("#notes-other")
            .value(),
        "later"
    );
    assert!(!page
        .find::<web_sys::HtmlButtonElement>("button.primary")
        .disabled());
}

#[wasm_bindgen_test]
async fn a_reload_puts_back_what_was_typed() {
    let page = mount_live(None, false).await;
    page.click("Logging").await;
    page.type_into("#features-other", "Rate limiting").await;
    page.type_into("#notes-other", "Ship on Friday").await;

    let page = mount_live(None, true).await;
    assert_eq!(
        page.item(0),
        expected("features", &["Logging"], Some("Rate limiting"))
    );
    assert!(page.input("#features-option-1").checked());
    assert_eq!(page.input("#features-other").value(), "Rate limiting");
    assert_eq!(
        page.find::<web_sys::HtmlTextAreaElement>("#notes-other")
            .value(),
        "Ship on Friday"
    );
}

#[wasm_bindgen_test]
async fn a_form_as_served_stores_no_draft_until_something_changes() {
    let stored = || storage().length().expect("length");
    let page = mount_live(None, false).await;
    assert_eq!(stored(), 0, "nothing typed, nothing to keep");
    page.type_into("#notes-other", "Ship on Friday").await;
    assert_eq!(stored(), 1, "what was typed is kept");
}

#[wasm_bindgen_test]
async fn a_refused_post_shows_its_problems_and_wins_over_a_saved_draft() {
    let page = mount_live(None, false).await;
    page.type_into("#notes-other", "saved before the post")
        .await;

    let problems = request()
        .validate_answers(Answers { answers: vec![] })
        .expect_err("refused")
        .0;
    let posted = Posted {
        ask_id: ID.to_owned(),
        questions: vec![PostedQuestion {
            id: "db".to_owned(),
            selected: vec!["SQLite".to_owned()],
            custom: String::new(),
        }],
        reason: String::new(),
        problems,
    };
    let page = mount_live(Some(posted), true).await;
    assert_eq!(page.item(1), expected("db", &["SQLite"], None));
    assert_eq!(
        page.find::<web_sys::HtmlTextAreaElement>("#notes-other")
            .value(),
        ""
    );
    assert!(page.text("#notes-problems").contains("has no answer"));
}

/// A form as the server rendered it, which a person changed before any
/// script listened: its inputs are set without events, as a browser that
/// runs no island yet leaves them. The state the island wakes with holds
/// all of it, and the form then keeps it.
#[wasm_bindgen_test]
async fn the_woken_form_adopts_what_was_entered_into_the_markup_before() {
    storage().clear().expect("clear");
    let markup = mount_form().await;
    markup.input("#features-option-0").set_checked(true);
    markup.input("#features-other").set_value("Tracing");
    markup.input("#db-option-1").set_checked(true);
    markup.input("#db-other").set_value("DuckDB");
    markup
        .find::<web_sys::HtmlTextAreaElement>("#notes-other")
        .set_value("line one\nline two");
    markup
        .find::<web_sys::HtmlTextAreaElement>("#decline-reason")
        .set_value("busy");
    assert_eq!(
        markup.item(0),
        expected("features", &[], None),
        "no script saw it"
    );

    let mut woken = FormState::new(ID, &request(), None);
    Woken::read("mounted", ID, &request(), None).adopt_into(&mut woken);
    let answers = woken.batch().answers().answers;
    assert_eq!(answers[0], expected("features", &["Auth"], Some("Tracing")));
    assert_eq!(
        answers[1],
        expected("db", &[], Some("DuckDB")),
        "text overrides"
    );
    assert!(woken.batch().drafts()[1].is_checked(1), "the radio is kept");
    assert_eq!(
        answers[2],
        expected("notes", &[], Some("line one\nline two"))
    );
    assert_eq!(woken.reason(), "busy");

    // The live form over that state shows the same, and adds to it.
    markup.root.remove();
    let root = container();
    let form = RwSignal::new(woken);
    let questions = request().questions().to_vec();
    leptos::mount::mount_to(root.clone(), move || {
        view! { <LiveForm form questions=questions.clone() notify=None/> }
    })
    .forget();
    tick().await;
    let page = Mounted {
        root,
        form,
        sent: Arc::default(),
    };
    assert!(page.input("#features-option-0").checked());
    assert_eq!(page.input("#features-other").value(), "Tracing");
    page.click("Logging").await;
    assert_eq!(
        page.item(0),
        expected("features", &["Auth", "Logging"], Some("Tracing"))
    );
}

/// Waits up to two seconds for something under `root` to match `selector`.
async fn wait_for(page: &Mounted, selector: &str) -> web_sys::Element {
    for _ in 0..100 {
        if let Some(found) = page.root.query_selector(selector).expect("valid selector") {
            return found;
        }
        let pause = web_sys::js_sys::Promise::new(&mut |resolve, _| {
            web_sys::window()
                .expect("window")
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 20)
                .expect("timer");
        });
        wasm_bindgen_futures::JsFuture::from(pause)
            .await
            .expect("timer fires");
    }
    panic!("nothing matched {selector} within two seconds")
}

#[wasm_bindgen_test]
async fn a_send_that_fails_says_why_and_keeps_the_answers() {
    let page = mount_live(None, false).await;
    page.click("Auth").await;
    page.click("SQLite").await;
    page.type_into("#notes-other", "Ship on Friday").await;
    let submit: web_sys::HtmlButtonElement = page.find("button.primary");
    submit.click();
    tick().await;
    assert!(submit.disabled());
    // The test runner's server has no server functions, so no reply is an
    // answer or a refusal.
    let failure = wait_for(&page, ".failure").await;
    assert_eq!(failure.get_attribute("role").as_deref(), Some("alert"));
    let text = failure.text_content().unwrap_or_default();
    assert!(text.contains("Could not reach the server"), "{text}");
    assert!(!submit.disabled());
    assert_eq!(page.item(0), expected("features", &["Auth"], None));
    assert_eq!(page.item(2), expected("notes", &[], Some("Ship on Friday")));
}

#[wasm_bindgen_test]
async fn an_ask_withdrawn_while_typing_keeps_the_text_with_copy() {
    let page = mount_live(None, false).await;
    page.click("Auth").await;
    page.type_into("#features-other", "Rate limiting").await;
    let mut ask: interaction::Ask = serde_json::from_value(serde_json::json!({
        "id": ID, "url": "", "status": "cancelled", "request": request(),
        "createdAt": "2026-11-30T11:20:00.000Z", "finishedAt": "2026-11-30T11:25:00.000Z"
    }))
    .expect("ask");
    ask.title = Some("Release plan".to_owned());
    page.form.update(|s| s.end_elsewhere(ask));
    tick().await;
    assert!(page.has(".form-open[hidden] form"), "the form gives way");
    assert!(page.text(".unsent").contains("Rate limiting"));
    assert!(page.text(".unsent button").contains("Copy"));
    assert!(page.text(".outcome").contains("Withdrawn"));
}

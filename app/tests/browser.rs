//! Mounts real components in headless Chromium (wasm-bindgen-test-runner)
//! and checks the DOM after user-like interaction:
//!   scripts/dev.sh test wasm
#![cfg(target_arch = "wasm32")]

use leptos::{prelude::*, wasm_bindgen::JsCast, web_sys};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

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

fn summary(root: &web_sys::Element) -> String {
    find::<web_sys::Element>(root, "#summary")
        .text_content()
        .unwrap_or_default()
}

fn type_into(input: &web_sys::HtmlInputElement, text: &str) {
    input.set_value(text);
    let event = web_sys::Event::new("input").expect("input event");
    input.dispatch_event(&event).expect("dispatch");
}

#[wasm_bindgen_test]
async fn checkbox_and_other_text_update_the_live_summary() {
    let root = mount(app::demo::DemoForm);
    assert_eq!(summary(&root), "unanswered");
    for option in app::demo::demo_question().options {
        let selector = format!("input[type=checkbox][value={:?}]", option.label);
        find::<web_sys::HtmlInputElement>(&root, &selector);
    }

    find::<web_sys::HtmlInputElement>(&root, "input[value=Logging]").click();
    leptos::task::tick().await;
    assert_eq!(summary(&root), "Logging");

    type_into(&find(&root, "#features-other"), "Rate limiting");
    leptos::task::tick().await;
    assert_eq!(summary(&root), r#"Logging + "Rate limiting""#);

    // A label checked after the text keeps option order and the text.
    find::<web_sys::HtmlInputElement>(&root, "input[value=Auth]").click();
    leptos::task::tick().await;
    assert_eq!(summary(&root), r#"Auth, Logging + "Rate limiting""#);
}

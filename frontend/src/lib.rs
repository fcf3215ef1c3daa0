//! The browser half of askdesk: hydrates the page the server rendered.

/// Called by the script `<HydrationScripts>` puts in every page.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(app::App);
}

//! The browser half of askdesk: hydrates the page the server rendered.

// Links `app`, whose `#[island]`s are the wasm exports the page calls.
use app as _;

/// Called by the script `<HydrationScripts>` puts in every page.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // Islands mode: the page is server HTML; only `#[island]`s hydrate.
    leptos::mount::hydrate_islands();
}

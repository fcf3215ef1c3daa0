//! The browser half of askdesk: wakes the page the server rendered. Built
//! once per page with browser code (feature `ask` or `desk`), so each
//! page's bundle carries only its own.

// Links `app`, whose `#[island]`s are the wasm exports the desk calls.
#[cfg(feature = "desk")]
use app as _;

/// Called by the bundle's own script (`scripts/wasm-module.mjs`), which
/// `app::IslandScripts` puts in a page, once the page is parsed.
//
// No panic hook: the bundle is built with -Cpanic=immediate-abort
// (scripts/dev.sh), so a panic traps at once, before any hook could run.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    // The ask page: its form, taken over without Leptos.
    #[cfg(feature = "ask")]
    askform::client::start();
    // The desk: islands mode, the page is server HTML; only `#[island]`s
    // hydrate.
    #[cfg(feature = "desk")]
    leptos::mount::hydrate_islands();
}

//! The browser half of askdesk: wakes the page the server rendered. Built
//! once per page with browser code (feature `ask` or `desk`), so each
//! page's bundle carries only its own island.

// Links `app`, whose `#[island]`s are the wasm exports the page calls.
use app as _;

/// Called by the bundle's own script (`scripts/wasm-module.mjs`), which
/// `app::IslandScripts` puts in a page, once the page is parsed.
//
// No panic hook: the bundle is built with -Cpanic=immediate-abort
// (scripts/dev.sh), so a panic traps at once, before any hook could run.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    // Islands mode: the page is server HTML; only `#[island]`s hydrate.
    leptos::mount::hydrate_islands();
}

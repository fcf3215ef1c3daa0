//! The browser half of askdesk: wakes the page the server rendered. Built
//! once per bundle (feature `ask`, `desk` or `hosted`), so each page's
//! bundle carries only its own island, and the form an agent's host shows
//! (`hosted`) only that.

// Links `app`, whose `#[island]`s are the wasm exports the page calls.
use app as _;

/// Called by the bundle's own script (`scripts/wasm-module.mjs`), which
/// `app::IslandScripts` puts in a page, once the page is parsed.
//
// No panic hook: the bundle is built with -Cpanic=immediate-abort
// (scripts/dev.sh), so a panic traps at once, before any hook could run.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    // The hosted form's document has its element (and no island).
    #[cfg(feature = "hosted")]
    app::hosted::start();
    // Islands mode: the page is server HTML; only `#[island]`s hydrate.
    #[cfg(any(feature = "ask", feature = "desk"))]
    leptos::mount::hydrate_islands();
}

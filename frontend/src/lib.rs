//! The browser half of askdesk: hydrates the page the server rendered.
//! Built once per page that has an island (feature `ask` or `desk`), so
//! each page's bundle carries only its own island.

// Links `app`, whose `#[island]`s are the wasm exports the page calls.
use app as _;

/// Called by the script `app::IslandScripts` puts beside a page's island.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    // No panic hook: the bundle is built with -Cpanic=immediate-abort
    // (scripts/dev.sh), so a panic traps at once, before any hook could run.
    // Islands mode: the page is server HTML; only `#[island]`s hydrate.
    leptos::mount::hydrate_islands();
}

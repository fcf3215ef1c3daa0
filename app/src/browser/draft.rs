//! An ask's draft, kept in sessionStorage so that a reload loses nothing.

#[cfg(feature = "hydrate")]
use super::json;
use crate::form::Posted;
use leptos::prelude::*;

/// The sessionStorage key of an ask's draft.
#[cfg(feature = "hydrate")]
fn draft_key(id: &str) -> String {
    format!("askdesk:draft:{id}")
}

#[cfg(feature = "hydrate")]
fn session_storage() -> Option<leptos::web_sys::Storage> {
    window().session_storage().ok().flatten()
}

/// The draft of ask `id` saved on an earlier visit of this tab, if any.
pub fn saved_draft(id: &str) -> Option<Posted> {
    #[cfg(feature = "hydrate")]
    {
        let json = session_storage()?.get_item(&draft_key(id)).ok()??;
        json::parse::<Posted>(&json).filter(|p| p.ask_id == id)
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = id;
        None
    }
}

/// Keeps an ask's draft in sessionStorage whenever it changes, so a reload
/// loses nothing ([`saved_draft`] reads it back). The draft the form
/// woke with is the saved one, or what the page shows anyway: it is kept
/// from its first change on.
pub fn keep_draft(draft: Memo<Posted>) {
    #[cfg(feature = "hydrate")]
    Effect::new(move |first: Option<()>| {
        let draft = draft.get();
        if first.is_some() {
            save_draft(&draft);
        }
    });
    #[cfg(not(feature = "hydrate"))]
    let _ = draft;
}

/// Saves an ask's draft now (the form keeps saving it with [`keep_draft`]).
pub fn save_draft(draft: &Posted) {
    #[cfg(feature = "hydrate")]
    if let (Some(storage), Some(json)) = (session_storage(), json::stringify(draft)) {
        // A full or disabled storage only costs the reload-safety.
        let _ = storage.set_item(&draft_key(&draft.ask_id), &json);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = draft;
}

/// Forgets the draft of an ask that has been answered.
pub fn forget_draft(id: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(storage) = session_storage() {
        let _ = storage.remove_item(&draft_key(id));
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = id;
}

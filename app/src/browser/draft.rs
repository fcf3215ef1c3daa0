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

/// Keeps an ask's draft in sessionStorage, so a reload loses nothing:
/// first hands the saved one (if any) to `restore`, then saves `draft`
/// whenever it changes. `restore` is `None` when something newer than the
/// saved draft is shown, such as a form post the server just refused; that
/// is saved at once. A form as served is not saved until it changes.
pub fn keep_draft(draft: Memo<Posted>, restore: Option<impl Fn(Posted) + 'static>) {
    #[cfg(feature = "hydrate")]
    {
        let id = draft.with_untracked(|d| d.ask_id.clone());
        let key = draft_key(&id);
        let save = move |draft: &Posted| {
            if let (Some(storage), Some(json)) = (session_storage(), json::stringify(draft)) {
                // A full or disabled storage only costs the reload-safety.
                let _ = storage.set_item(&key, &json);
            }
        };
        // One effect does both, in this order, so that the first save can
        // never overwrite the draft before it was read back. It returns the
        // draft as stored.
        Effect::new(move |stored: Option<Posted>| {
            let first = stored.is_none();
            if first {
                let saved = restore.as_ref().and_then(|_| {
                    let json = session_storage()?.get_item(&draft_key(&id)).ok()??;
                    json::parse::<Posted>(&json).filter(|p| p.ask_id == id)
                });
                if let (Some(restore), Some(saved)) = (&restore, saved) {
                    restore(saved);
                }
            }
            let now = draft.get();
            let changed = match &stored {
                Some(stored) => *stored != now,
                None => restore.is_none(),
            };
            if changed {
                save(&now);
            }
            now
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (draft, restore);
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

//! Everything the islands ask of the browser: the server's event stream,
//! the ask page's server functions, the draft kept in sessionStorage, the
//! clipboard, `postMessage` to an embedding page, notifications, the tab
//! title and the clock.
//!
//! Every function exists in both builds so components call them without
//! `#[cfg]`; on the server (where islands render once, and effects never
//! run) they do nothing. Only the `hydrate` build touches `web_sys`.

use crate::{error::ServerError, form::Posted};
use askform::state::Outgoing;
use interaction::{Ask, AskEvent, ResetEvent};
use leptos::prelude::*;

/// Follows the server-sent events at `url`: `on_ask` for every `ask` event,
/// `on_reset` when the stream cannot say what was missed. The stream is
/// closed, and its listeners dropped, when the calling component is.
pub fn use_event_source(
    url: &str,
    on_ask: impl Fn(AskEvent) + 'static,
    on_reset: impl Fn(ResetEvent) + 'static,
) {
    #[cfg(feature = "hydrate")]
    stream::open(url, on_ask, on_reset);
    #[cfg(not(feature = "hydrate"))]
    let _ = (url, on_ask, on_reset);
}

#[cfg(feature = "hydrate")]
mod stream {
    use interaction::{AskEvent, ResetEvent, ASK_EVENT, RESET_EVENT};
    use leptos::{
        prelude::on_cleanup,
        wasm_bindgen::{closure::Closure, JsCast},
        web_sys::{EventSource, MessageEvent},
    };
    use serde::de::DeserializeOwned;

    type Listener = Closure<dyn FnMut(MessageEvent)>;

    /// A listener that decodes an event's data as `T`. Data this page
    /// cannot read is skipped: a later event, or a reset, brings the page
    /// back in line.
    fn listener<T: DeserializeOwned + 'static>(handle: impl Fn(T) + 'static) -> Listener {
        Closure::new(move |event: MessageEvent| {
            let value = event
                .data()
                .as_string()
                .and_then(|data| serde_json::from_str(&data).ok());
            if let Some(value) = value {
                handle(value);
            }
        })
    }

    pub fn open(
        url: &str,
        on_ask: impl Fn(AskEvent) + 'static,
        on_reset: impl Fn(ResetEvent) + 'static,
    ) {
        let Ok(source) = EventSource::new(url) else {
            return;
        };
        let listeners = [
            (ASK_EVENT, listener(on_ask)),
            (RESET_EVENT, listener(on_reset)),
        ];
        for (name, listener) in &listeners {
            // Adding a listener fails only for a non-function; ours is one.
            let _ =
                source.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
        }
        // Cleanup may be called from any owner, so the browser objects
        // travel in a wrapper; wasm has one thread, where it is unwrapped.
        let open = send_wrapper::SendWrapper::new((source, listeners));
        on_cleanup(move || {
            let (source, listeners) = open.take();
            source.close();
            for (name, listener) in &listeners {
                let _ = source
                    .remove_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
            }
        });
    }
}

/// Whether this page may show notifications.
pub fn notifications_allowed() -> bool {
    #[cfg(feature = "hydrate")]
    {
        use leptos::web_sys::{Notification, NotificationPermission};
        Notification::permission() == NotificationPermission::Granted
    }
    #[cfg(not(feature = "hydrate"))]
    false
}

/// Asks the human to allow notifications; `then` learns the answer.
pub fn ask_notification_permission(then: impl FnOnce(bool) + 'static) {
    #[cfg(feature = "hydrate")]
    {
        let Ok(promise) = leptos::web_sys::Notification::request_permission() else {
            return;
        };
        leptos::task::spawn_local(async move {
            let granted = wasm_bindgen_futures::JsFuture::from(promise)
                .await
                .ok()
                .and_then(|v| v.as_string())
                .is_some_and(|v| v == "granted");
            then(granted);
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = then;
}

/// Shows a notification, unless the page is in view (then the page
/// itself shows the news).
pub fn notify_unless_seen(title: &str, body: &str) {
    #[cfg(feature = "hydrate")]
    if document().hidden() {
        let options = leptos::web_sys::NotificationOptions::new();
        options.set_body(body);
        let _ = leptos::web_sys::Notification::new_with_options(title, &options);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (title, body);
}

/// Sets the browser tab's title.
pub fn set_tab_title(title: &str) {
    #[cfg(feature = "hydrate")]
    document().set_title(title);
    #[cfg(not(feature = "hydrate"))]
    let _ = title;
}

/// Now, in milliseconds since the Unix epoch, ticking every second in the
/// browser (for ages and countdowns) until the calling component is gone.
pub fn use_now() -> ReadSignal<i64> {
    let (now, set_now) = signal(crate::time::now_ms());
    #[cfg(feature = "hydrate")]
    if let Ok(handle) = set_interval_with_handle(
        move || set_now.set(crate::time::now_ms()),
        std::time::Duration::from_secs(1),
    ) {
        on_cleanup(move || handle.clear());
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = set_now;
    now
}

/// Sends what the ask page's form lets go to its server function: the
/// answers to `ask_answer`, a decline to `ask_decline`.
pub async fn send(id: &str, outgoing: Outgoing) -> Result<Ask, ServerError> {
    #[cfg(feature = "hydrate")]
    {
        use askform::rpc::{AnswerArgs, DeclineArgs, ANSWER_ASK, DECLINE_ASK};
        match outgoing {
            Outgoing::Answer(answers) => {
                let args = AnswerArgs {
                    id,
                    answers: &answers,
                };
                rpc::call(ANSWER_ASK, &args).await
            }
            Outgoing::Decline(reason) => {
                let args = DeclineArgs {
                    id,
                    reason: &reason,
                };
                rpc::call(DECLINE_ASK, &args).await
            }
        }
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = (id, outgoing);
        Err(ServerError::Transport("not in a browser".to_owned()))
    }
}

/// Reads the ask `id` again through `ask_load`.
pub async fn load(id: &str) -> Result<Ask, ServerError> {
    #[cfg(feature = "hydrate")]
    {
        use askform::rpc::{LoadArgs, LOAD_ASK};
        /// What the page reads of `ask_load`'s reply (an
        /// [`crate::rpc::AskPageData`]): only the ask.
        #[derive(serde::Deserialize)]
        struct Loaded {
            ask: Ask,
        }
        rpc::call::<Loaded>(LOAD_ASK, &LoadArgs { id })
            .await
            .map(|loaded| loaded.ask)
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = id;
        Err(ServerError::Transport("not in a browser".to_owned()))
    }
}

/// The ask page's server functions, called with the browser's own `fetch`
/// at their paths ([`askform::rpc`], held to the functions' `PATH`s by a
/// test): the island carries no server-function client, and the paths'
/// rules (the link is the capability, sign-in where the desk needs it)
/// stay those of the functions.
#[cfg(feature = "hydrate")]
mod rpc {
    use crate::error::ServerError;
    use leptos::{
        wasm_bindgen::{JsCast, JsValue},
        web_sys::{Headers, RequestInit, Response},
    };
    use serde::{de::DeserializeOwned, Serialize};
    use wasm_bindgen_futures::JsFuture;

    /// A JSON `POST` of `input` to `path`, as `server_fn`'s browser client
    /// makes it: the reply an `O` when its status is below 400, else a
    /// [`ServerError`].
    pub async fn call<O: DeserializeOwned>(
        path: &str,
        input: &impl Serialize,
    ) -> Result<O, ServerError> {
        let body = serde_json::to_string(input)
            .map_err(|e| ServerError::Transport(format!("the call did not encode: {e}")))?;
        let (ok, text) = post(path, &body).await?;
        let reply =
            |e: serde_json::Error| ServerError::Transport(format!("the reply did not decode: {e}"));
        if ok {
            serde_json::from_str(&text).map_err(reply)
        } else {
            Err(serde_json::from_str(&text).map_err(reply)?)
        }
    }

    /// `POST`s the JSON `body` to `path`: whether the reply's status is
    /// below 400, and its text.
    async fn post(path: &str, body: &str) -> Result<(bool, String), ServerError> {
        let transport = |e: JsValue| {
            let text = e
                .dyn_ref::<leptos::web_sys::js_sys::Error>()
                .map(|e| String::from(e.message()))
                .or_else(|| e.as_string())
                .unwrap_or_default();
            ServerError::Transport(text)
        };
        let init = RequestInit::new();
        init.set_method("POST");
        init.set_body(&JsValue::from_str(body));
        let headers = Headers::new().map_err(transport)?;
        headers
            .set("Content-Type", "application/json")
            .map_err(transport)?;
        headers
            .set("Accept", "application/json")
            .map_err(transport)?;
        init.set_headers(&headers);
        let response: Response = JsFuture::from(window().fetch_with_str_and_init(path, &init))
            .await
            .map_err(transport)?
            .unchecked_into();
        let text = JsFuture::from(response.text().map_err(transport)?)
            .await
            .map_err(transport)?
            .as_string()
            .unwrap_or_default();
        Ok((response.status() < 400, text))
    }

    fn window() -> leptos::web_sys::Window {
        leptos::prelude::window()
    }
}

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
            if let (Some(storage), Ok(json)) = (session_storage(), serde_json::to_string(draft)) {
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
                    serde_json::from_str::<Posted>(&json)
                        .ok()
                        .filter(|p| p.ask_id == id)
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

/// Puts `text` on the clipboard.
pub fn copy(text: &str) {
    #[cfg(feature = "hydrate")]
    {
        let promise = window().navigator().clipboard().write_text(text);
        leptos::task::spawn_local(async move {
            // A refused clipboard leaves the text on the page to select.
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = text;
}

/// Posts `{type: "askdesk:finished", id, status, answers}` to the page
/// that embeds this one, for `origin` only.
pub fn tell_host(ask: &Ask, origin: &str) {
    #[cfg(feature = "hydrate")]
    {
        /// What an embedding page is told when the ask ends.
        #[derive(serde::Serialize)]
        struct Finished<'a> {
            #[serde(rename = "type")]
            kind: &'static str,
            id: &'a str,
            status: interaction::AskStatus,
            answers: &'a [interaction::AnswerItem],
        }
        let message = Finished {
            kind: "askdesk:finished",
            id: &ask.id,
            status: ask.status,
            answers: ask.answers.as_deref().unwrap_or_default(),
        };
        let Ok(json) = serde_json::to_string(&message) else {
            return;
        };
        let Ok(parsed) = leptos::web_sys::js_sys::JSON::parse(&json) else {
            return;
        };
        if let Ok(Some(parent)) = window().parent() {
            // A host at another origin gets nothing: the browser checks `origin`.
            let _ = parent.post_message(&parsed, origin);
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (ask, origin);
}

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
                .and_then(|data| super::json::parse(&data));
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

/// An island's props: on the server from the page's context, in the
/// browser from the `data-props` the server wrote on the element `id`
/// around the island, read with the browser's own JSON parser (props of
/// the island itself would bring a JSON parser into the bundle).
pub fn page_props<T>(id: &str) -> Option<T>
where
    T: serde::de::DeserializeOwned + Clone + Send + Sync + 'static,
{
    #[cfg(feature = "hydrate")]
    if let Some(props) = document()
        .get_element_by_id(id)
        .and_then(|element| element.get_attribute("data-props"))
        .and_then(|text| json::parse(&text))
    {
        return Some(props);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = id;
    use_context::<T>()
}

/// Sends what the ask page's form lets go to its server function: the
/// answers to [`crate::rpc::answer_ask`], a decline to
/// [`crate::rpc::decline_ask`].
pub async fn send(id: &str, outgoing: Outgoing) -> Result<Ask, ServerError> {
    use crate::rpc::{AnswerAsk, DeclineAsk};
    let id = id.to_owned();
    match outgoing {
        Outgoing::Answer(answers) => call(&AnswerAsk { id, answers }).await,
        Outgoing::Decline(reason) => call(&DeclineAsk { id, reason }).await,
    }
}

/// Reads the ask `id` again through [`crate::rpc::load_ask`].
pub async fn load(id: &str) -> Result<Ask, ServerError> {
    /// What the page reads of the reply (an [`crate::rpc::AskPageData`]):
    /// only the ask.
    #[derive(serde::Deserialize)]
    struct Loaded {
        ask: Ask,
    }
    let args = crate::rpc::LoadAsk { id: id.to_owned() };
    call::<Loaded, _>(&args).await.map(|loaded| loaded.ask)
}

/// Reads the desk's lists again through [`crate::rpc::list_desk`].
pub async fn list_desk() -> Result<crate::rpc::DeskData, ServerError> {
    call(&crate::rpc::ListDesk {}).await
}

/// Calls the server function whose arguments are `args` with the browser's
/// own `fetch`, as `server_fn`'s browser client does (a JSON `POST` to its
/// `PATH`; the reply an `O` when its status is below 400, else a
/// [`ServerError`]), so the islands carry no server-function client. The
/// path's rules (an ask's link is its capability, sign-in where the desk
/// needs it) are the function's own.
async fn call<O, F>(args: &F) -> Result<O, ServerError>
where
    O: serde::de::DeserializeOwned,
    F: leptos::server_fn::ServerFn + serde::Serialize,
{
    #[cfg(feature = "hydrate")]
    {
        rpc::post_json(F::PATH, args).await
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = args;
        Err(ServerError::Transport("not in a browser".to_owned()))
    }
}

/// `fetch` for [`call`].
#[cfg(feature = "hydrate")]
mod rpc {
    use crate::error::ServerError;
    use leptos::{
        wasm_bindgen::{JsCast, JsValue},
        web_sys::{Headers, RequestInit, Response},
    };
    use serde::{de::DeserializeOwned, Serialize};
    use wasm_bindgen_futures::JsFuture;

    /// A JSON `POST` of `input` to `path`: the reply an `O` when its
    /// status is below 400, else a [`ServerError`].
    pub async fn post_json<O: DeserializeOwned>(
        path: &str,
        input: &impl Serialize,
    ) -> Result<O, ServerError> {
        let body = super::json::stringify(input)
            .ok_or_else(|| ServerError::Transport("the call did not encode".to_owned()))?;
        let (ok, text) = post(path, &body).await?;
        let reply = || ServerError::Transport("the reply did not decode".to_owned());
        if ok {
            super::json::parse(&text).ok_or_else(reply)
        } else {
            Err(super::json::parse::<ServerError>(&text).ok_or_else(reply)?)
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
        let Some(message) = json::value(&message) else {
            return;
        };
        if let Ok(Some(parent)) = window().parent() {
            // A host at another origin gets nothing: the browser checks `origin`.
            let _ = parent.post_message(&message, origin);
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (ask, origin);
}

/// JSON in the browser: the browser's own `JSON.parse` and `JSON.stringify`
/// with serde-wasm-bindgen between JavaScript values and Rust types, so the
/// islands carry no JSON parser of their own.
#[cfg(feature = "hydrate")]
pub(crate) mod json {
    use leptos::{wasm_bindgen::JsValue, web_sys::js_sys::JSON};
    use serde::{de::DeserializeOwned, Serialize};

    /// `value` as a JavaScript value, objects as plain objects (as
    /// `JSON.parse` makes them).
    pub fn value(value: &impl Serialize) -> Option<JsValue> {
        value
            .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
            .ok()
    }

    /// `value` as JSON text.
    pub fn stringify(value: &impl Serialize) -> Option<String> {
        JSON::stringify(&self::value(value)?).ok()?.as_string()
    }

    /// The `T` that the JSON `text` holds, if it holds one.
    pub fn parse<T: DeserializeOwned>(text: &str) -> Option<T> {
        serde_wasm_bindgen::from_value(JSON::parse(text).ok()?).ok()
    }
}

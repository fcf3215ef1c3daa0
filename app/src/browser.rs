//! Everything the islands ask of the browser: the server's event stream,
//! the ask page's server functions, the draft kept in sessionStorage, the
//! clipboard, `postMessage` to an embedding page, notifications, the tab
//! title and the clock.
//!
//! Every function exists in both builds so components call them without
//! `#[cfg]`; on the server (where islands render once, and effects never
//! run) they do nothing. Only the `hydrate` build touches `web_sys`.

mod calls;
mod draft;
pub mod host;
#[cfg(feature = "hydrate")]
pub(crate) mod json;

pub use calls::{list_desk, load, send};
pub use draft::{forget_draft, keep_draft, save_draft, saved_draft};

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
    let (now, set_now) = signal(now_ms());
    #[cfg(feature = "hydrate")]
    if let Ok(handle) = set_interval_with_handle(
        move || set_now.set(now_ms()),
        std::time::Duration::from_secs(1),
    ) {
        on_cleanup(move || handle.clear());
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = set_now;
    now
}

/// Now, in milliseconds since the Unix epoch: the browser's clock in the
/// bundle, the system's on the server.
fn now_ms() -> i64 {
    #[cfg(feature = "hydrate")]
    {
        // Whole milliseconds fit an i64 for the next 290 million years.
        #[allow(clippy::cast_possible_truncation)]
        let now = leptos::web_sys::js_sys::Date::now() as i64;
        now
    }
    #[cfg(not(feature = "hydrate"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    }
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

/// What the form inside the element `id` holds now, as it would post it:
/// each of `names` with its values (checked boxes and radios, text typed
/// so far). The islands read it as they wake, to start from what a person
/// entered before the script arrived. `None` on the server, or when there
/// is no such form.
pub fn form_fields(id: &str, names: &[String]) -> Option<Vec<(String, String)>> {
    #[cfg(feature = "hydrate")]
    {
        use leptos::{wasm_bindgen::JsCast, web_sys::HtmlFormElement};
        let form = document()
            .query_selector(&format!("#{id} form"))
            .ok()??
            .dyn_into::<HtmlFormElement>()
            .ok()?;
        let data = leptos::web_sys::FormData::new_with_form(&form).ok()?;
        let fields = names
            .iter()
            .flat_map(|name| {
                data.get_all(name)
                    .iter()
                    .filter_map(|value| value.as_string())
                    .map(|value| (name.clone(), value))
                    .collect::<Vec<_>>()
            })
            .collect();
        Some(fields)
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = (id, names);
        None
    }
}

/// The `value` of the element `id` (an input or a select) now: what an
/// island that wakes adopts from a control a person may have changed
/// before the script arrived. `None` on the server.
pub fn value_of(id: &str) -> Option<String> {
    #[cfg(feature = "hydrate")]
    {
        let element = document().get_element_by_id(id)?;
        leptos::web_sys::js_sys::Reflect::get(&element, &"value".into())
            .ok()?
            .as_string()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = id;
        None
    }
}

/// Resolves after `wait` in the browser; at once on the server.
pub async fn sleep(wait: std::time::Duration) {
    #[cfg(feature = "hydrate")]
    {
        let ms = i32::try_from(wait.as_millis()).unwrap_or(i32::MAX);
        let promise = leptos::web_sys::js_sys::Promise::new(&mut |resolve, _| {
            let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = wait;
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
/// that embeds this one, for `origin` only, with `defaulted: true` when the
/// answers are the agent's defaults, not a person's.
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
            #[serde(skip_serializing_if = "std::ops::Not::not")]
            defaulted: bool,
        }
        let message = Finished {
            kind: "askdesk:finished",
            id: &ask.id,
            status: ask.status,
            answers: ask.answers.as_deref().unwrap_or_default(),
            defaulted: ask.defaulted,
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

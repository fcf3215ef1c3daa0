//! What the ask page's browser code asks of the browser and the server:
//! the three server functions, the draft in sessionStorage, the clipboard,
//! and `postMessage` to an embedding page.

use crate::{error::ServerError, form::Posted};
use interaction::{Ask, AskStatus};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::wasm_bindgen::{JsCast, JsValue};
use web_sys::{RequestInit, Response, Storage};

/// What the page reads of [`LOAD_ASK`]'s reply, an `app::rpc::AskPageData`:
/// only the ask (its notifications would cost the bundle their decoder,
/// for nothing the page shows).
#[derive(Deserialize)]
pub(super) struct Loaded {
    pub(super) ask: Ask,
}

/// Calls the server function at `path` with `input`, as `server_fn`'s
/// browser client does: a JSON `POST`, the reply an `O` when the status is
/// below 400, else a [`ServerError`].
pub(super) async fn call<O: DeserializeOwned>(
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

/// `POST`s the JSON `body` to `path`: whether the reply's status is below
/// 400, and its text. (One copy for every server function.)
async fn post(path: &str, body: &str) -> Result<(bool, String), ServerError> {
    let transport = |e: JsValue| {
        let text = e
            .dyn_ref::<web_sys::js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_default();
        ServerError::Transport(text)
    };
    let window = web_sys::window().ok_or_else(|| transport(JsValue::NULL))?;
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(body));
    let headers = web_sys::Headers::new().map_err(transport)?;
    headers
        .set("Content-Type", "application/json")
        .map_err(transport)?;
    headers
        .set("Accept", "application/json")
        .map_err(transport)?;
    init.set_headers(&headers);
    let response: Response = JsFuture::from(window.fetch_with_str_and_init(path, &init))
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

/// The sessionStorage key of an ask's draft.
fn draft_key(id: &str) -> String {
    format!("askdesk:draft:{id}")
}

fn session_storage() -> Option<Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// The draft of ask `id` saved before a reload, if any.
pub(super) fn load_draft(id: &str) -> Option<Posted> {
    let json = session_storage()?.get_item(&draft_key(id)).ok()??;
    serde_json::from_str::<Posted>(&json)
        .ok()
        .filter(|p| p.ask_id == id)
}

/// Keeps the draft, so a reload loses nothing.
pub(super) fn save_draft(draft: &Posted) {
    if let (Some(storage), Ok(json)) = (session_storage(), serde_json::to_string(draft)) {
        // A full or disabled storage only costs the reload-safety.
        let _ = storage.set_item(&draft_key(&draft.ask_id), &json);
    }
}

/// Forgets the draft of an ask that has been answered.
pub(super) fn forget_draft(id: &str) {
    if let Some(storage) = session_storage() {
        let _ = storage.remove_item(&draft_key(id));
    }
}

/// Puts `text` on the clipboard.
pub(super) fn copy(text: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(text);
    spawn_local(async move {
        // A refused clipboard leaves the text on the page to select.
        let _ = JsFuture::from(promise).await;
    });
}

/// What an embedding page is told when the ask ends.
#[derive(Serialize)]
struct Finished<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    id: &'a str,
    status: AskStatus,
    answers: &'a [interaction::AnswerItem],
}

/// Posts `{type: "askdesk:finished", id, status, answers}` to the page
/// that embeds this one, for `origin` only.
pub(super) fn tell_host(ask: &Ask, origin: &str) {
    let message = Finished {
        kind: "askdesk:finished",
        id: &ask.id,
        status: ask.status,
        answers: ask.answers.as_deref().unwrap_or_default(),
    };
    let Ok(json) = serde_json::to_string(&message) else {
        return;
    };
    let Ok(parsed) = web_sys::js_sys::JSON::parse(&json) else {
        return;
    };
    if let Some(Ok(Some(parent))) = web_sys::window().map(|w| w.parent()) {
        // A host at another origin gets nothing: the browser checks `origin`.
        let _ = parent.post_message(&parsed, origin);
    }
}

//! The server functions the islands call, through the browser's own
//! `fetch`.

#[cfg(feature = "hydrate")]
use crate::rpc::ListDesk;
use crate::{
    error::ServerError,
    rpc::{AnswerAsk, DeclineAsk, DeskData, LoadAsk},
};
use askform::state::Outgoing;
use interaction::Ask;
#[cfg(feature = "hydrate")]
use leptos::server_fn::ServerFn;

/// Sends what the ask page's form lets go to its server function: the
/// answers to [`crate::rpc::answer_ask`], a decline to
/// [`crate::rpc::decline_ask`].
pub async fn send(id: &str, outgoing: Outgoing) -> Result<Ask, ServerError> {
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
    let args = LoadAsk { id: id.to_owned() };
    call::<Loaded, _>(&args).await.map(|loaded| loaded.ask)
}

/// Reads the desk's lists again through [`crate::rpc::list_desk`]; `None`
/// when they could not be read, and the desk shows what it has until the
/// next try. Why is not decoded: the desk's bundle then carries no reader
/// of [`ServerError`], whose refusals hold whole asks.
pub async fn list_desk() -> Option<DeskData> {
    #[cfg(feature = "hydrate")]
    {
        fetch::post_json_ok(ListDesk::PATH, &ListDesk {}).await
    }
    #[cfg(not(feature = "hydrate"))]
    {
        None
    }
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
        fetch::post_json(F::PATH, args).await
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = args;
        Err(ServerError::Transport("not in a browser".to_owned()))
    }
}

/// `fetch` for [`call`].
#[cfg(feature = "hydrate")]
mod fetch {
    use crate::{browser::json, error::ServerError};
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
        let body = json::stringify(input)
            .ok_or_else(|| ServerError::Transport("the call did not encode".to_owned()))?;
        let (ok, text) = post(path, &body).await?;
        let reply = || ServerError::Transport("the reply did not decode".to_owned());
        if ok {
            json::parse(&text).ok_or_else(reply)
        } else {
            Err(json::parse::<ServerError>(&text).ok_or_else(reply)?)
        }
    }

    /// A JSON `POST` of `input` to `path`: the reply an `O` when its
    /// status is below 400, else `None`.
    pub async fn post_json_ok<O: DeserializeOwned>(
        path: &str,
        input: &impl Serialize,
    ) -> Option<O> {
        let (ok, text) = post(path, &json::stringify(input)?).await.ok()?;
        ok.then(|| json::parse(&text)).flatten()
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

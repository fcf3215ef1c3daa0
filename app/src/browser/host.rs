//! The agent's host, for the form it shows as an MCP App
//! ([`crate::hosted`]): JSON-RPC over `postMessage` with the window that
//! embeds this one, as the MCP Apps extension (`io.modelcontextprotocol/ui`)
//! has it. The view introduces itself (`ui/initialize`, then
//! `ui/notifications/initialized`), hears the tool's result
//! (`ui/notifications/tool-result`), follows the host's theme and style
//! variables (`hostContext`, `ui/notifications/host-context-changed`),
//! calls the server's tools through the host (`tools/call`), and reports
//! its height (`ui/notifications/size-changed`).
//!
//! Messages are JavaScript objects (the browser copies them between
//! windows), read and written with serde-wasm-bindgen; only messages from
//! the parent window are read.

pub mod look;

use crate::error::ServerError;
#[cfg(feature = "hydrate")]
use look::follow_look;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// The revision of the MCP Apps extension this view speaks.
pub const APPS_PROTOCOL: &str = "2026-01-26";

/// What the host tells the view on its own.
#[derive(Debug, Clone)]
pub enum HostNews {
    /// The tool call the view belongs to returned: the ask it opened.
    ToolResult {
        /// The ask's id, from the result's `structuredContent.askId`.
        ask_id: Option<String>,
    },
    /// The tool call failed or was cancelled before it returned.
    ToolCancelled,
}

/// The host's context as `ui/initialize` returned it (or a change sent
/// later): what the view uses.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HostContext {
    /// The person's language (BCP 47).
    #[serde(default)]
    pub locale: Option<String>,
    /// The host's colour theme, `light` or `dark`.
    #[serde(default)]
    theme: Option<String>,
}

/// A `tools/call` through the host: the tool `name` with `arguments`, its
/// `structuredContent` read as `T`.
pub async fn call_tool<T: DeserializeOwned>(
    name: &str,
    arguments: &impl Serialize,
) -> Result<T, ServerError> {
    #[derive(Serialize)]
    struct Call<'a, A> {
        name: &'a str,
        arguments: &'a A,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct CallResult<T> {
        structured_content: Option<T>,
    }
    let result: CallResult<T> = request("tools/call", &Call { name, arguments }).await?;
    result
        .structured_content
        .ok_or_else(|| ServerError::Transport(format!("{name} returned no structured result")))
}

/// Introduces the view to the host and listens to it: `news` hears the
/// tool's result (or its failure). Returns the host's context.
pub async fn connect(news: impl Fn(HostNews) + 'static) -> Result<HostContext, ServerError> {
    #[cfg(feature = "hydrate")]
    {
        wire::listen(news);
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Initialize {
            app_info: Info,
            app_capabilities: Capabilities,
            protocol_version: &'static str,
        }
        #[derive(Serialize)]
        struct Info {
            name: &'static str,
            version: &'static str,
        }
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Capabilities {
            available_display_modes: [&'static str; 1],
        }
        let params = Initialize {
            app_info: Info {
                name: "askdesk",
                version: env!("CARGO_PKG_VERSION"),
            },
            app_capabilities: Capabilities {
                available_display_modes: ["inline"],
            },
            protocol_version: APPS_PROTOCOL,
        };
        let initialized = wire::request_value("ui/initialize", &params).await?;
        let context = leptos::web_sys::js_sys::Reflect::get(&initialized, &"hostContext".into())
            .unwrap_or_default();
        follow_look(&context);
        wire::notify("ui/notifications/initialized", &Empty {});
        wire::report_size();
        Ok(serde_wasm_bindgen::from_value(context).unwrap_or_default())
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = news;
        Err(ServerError::Transport("not in a browser".to_owned()))
    }
}

/// An empty object, for params and results that carry nothing.
#[cfg(feature = "hydrate")]
#[derive(Serialize)]
struct Empty {}

/// A request to the host, its result read as `T`; a JSON-RPC error is a
/// [`ServerError::Transport`] with its message.
async fn request<T: DeserializeOwned>(
    method: &str,
    params: &impl Serialize,
) -> Result<T, ServerError> {
    #[cfg(feature = "hydrate")]
    {
        wire::request(method, params).await
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = (method, params);
        Err(ServerError::Transport("not in a browser".to_owned()))
    }
}

#[cfg(feature = "hydrate")]
mod wire {
    use super::{Empty, HostNews};
    use crate::{browser::json, error::ServerError};
    use leptos::{
        prelude::window,
        wasm_bindgen::{closure::Closure, JsCast, JsValue},
        web_sys::{
            js_sys::{Function, Promise, Reflect},
            MessageEvent, ResizeObserver,
        },
    };
    use serde::{de::DeserializeOwned, Deserialize, Serialize};
    use std::{
        cell::{Cell, RefCell},
        collections::HashMap,
    };
    use wasm_bindgen_futures::JsFuture;

    thread_local! {
        static NEXT_ID: Cell<u32> = const { Cell::new(1) };
        /// Requests sent and not yet answered: their promise's resolve and
        /// reject.
        static WAITING: RefCell<HashMap<u32, (Function, Function)>> = RefCell::new(HashMap::new());
    }

    #[derive(Serialize)]
    struct Message<'a, P> {
        jsonrpc: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<u32>,
        method: &'a str,
        params: &'a P,
    }

    #[derive(Serialize)]
    struct Reply<R> {
        jsonrpc: &'static str,
        id: f64,
        result: R,
    }

    #[derive(Deserialize)]
    struct RpcError {
        message: String,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct ToolResult {
        structured_content: Option<Opened>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Opened {
        ask_id: Option<String>,
    }

    fn post(message: &impl Serialize) {
        let (Some(message), Ok(Some(parent))) = (json::value(message), window().parent()) else {
            return;
        };
        // The view cannot know its host's origin (its own is opaque); what
        // it sends is what the person typed for the host's own agent.
        let _ = parent.post_message(&message, "*");
    }

    pub fn notify(method: &str, params: &impl Serialize) {
        post(&Message {
            jsonrpc: "2.0",
            id: None,
            method,
            params,
        });
    }

    pub async fn request<T: DeserializeOwned>(
        method: &str,
        params: &impl Serialize,
    ) -> Result<T, ServerError> {
        let value = request_value(method, params).await?;
        serde_wasm_bindgen::from_value(value)
            .map_err(|e| ServerError::Transport(format!("{method} returned {e}")))
    }

    /// A request's result as the host sent it.
    pub async fn request_value(
        method: &str,
        params: &impl Serialize,
    ) -> Result<JsValue, ServerError> {
        let id = NEXT_ID.with(|next| next.replace(next.get() + 1));
        let promise = Promise::new(&mut |resolve, reject| {
            WAITING.with(|waiting| waiting.borrow_mut().insert(id, (resolve, reject)));
        });
        post(&Message {
            jsonrpc: "2.0",
            id: Some(id),
            method,
            params,
        });
        JsFuture::from(promise).await.map_err(|error| {
            let message = serde_wasm_bindgen::from_value::<RpcError>(error)
                .map_or_else(|_| format!("{method} failed"), |e| e.message);
            ServerError::Transport(message)
        })
    }

    fn field(value: &JsValue, name: &str) -> JsValue {
        Reflect::get(value, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
    }

    /// Reads every message of the parent window, for as long as the view
    /// lives.
    pub fn listen(news: impl Fn(HostNews) + 'static) {
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let from_parent = match (event.source(), window().parent()) {
                (Some(source), Ok(Some(parent))) => JsValue::from(source) == JsValue::from(parent),
                _ => false,
            };
            if !from_parent {
                return;
            }
            let data = event.data();
            let id = field(&data, "id").as_f64();
            match (field(&data, "method").as_string(), id) {
                // A request of the host's: ping and teardown need only an
                // answer (nothing is lost: every answer is on the desk).
                (Some(_), Some(id)) => post(&Reply {
                    jsonrpc: "2.0",
                    id,
                    result: Empty {},
                }),
                (Some(method), None) => match method.as_str() {
                    "ui/notifications/tool-result" => {
                        let result =
                            serde_wasm_bindgen::from_value::<ToolResult>(field(&data, "params"));
                        let ask_id = result
                            .ok()
                            .and_then(|r| r.structured_content)
                            .and_then(|o| o.ask_id);
                        news(HostNews::ToolResult { ask_id });
                    }
                    "ui/notifications/tool-cancelled" => news(HostNews::ToolCancelled),
                    "ui/notifications/host-context-changed" => {
                        super::follow_look(&field(&data, "params"));
                    }
                    _ => {}
                },
                (None, Some(id)) => {
                    // Ids this view gave fit a u32.
                    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                    let id = id as u32;
                    let Some((resolve, reject)) =
                        WAITING.with(|waiting| waiting.borrow_mut().remove(&id))
                    else {
                        return;
                    };
                    let error = field(&data, "error");
                    let _ = if error.is_undefined() {
                        resolve.call1(&JsValue::NULL, &field(&data, "result"))
                    } else {
                        reject.call1(&JsValue::NULL, &error)
                    };
                }
                (None, None) => {}
            }
        });
        let _ = window()
            .add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
        // The view listens until it is torn down with its window.
        on_message.forget();
    }

    /// Tells the host the view's size now and whenever it changes, so a
    /// host that sizes its frame to the view shows all of it.
    pub fn report_size() {
        #[derive(Serialize)]
        struct Size {
            width: i32,
            height: i32,
        }
        let send = || {
            if let Some(root) = window().document().and_then(|d| d.document_element()) {
                notify(
                    "ui/notifications/size-changed",
                    &Size {
                        width: root.scroll_width(),
                        height: root.scroll_height(),
                    },
                );
            }
        };
        send();
        let on_resize = Closure::<dyn FnMut()>::new(send);
        let Ok(observer) = ResizeObserver::new(on_resize.as_ref().unchecked_ref()) else {
            return;
        };
        if let Some(body) = window().document().and_then(|d| d.body()) {
            observer.observe(&body);
        }
        on_resize.forget();
    }
}

//! JSON in the browser: the browser's own `JSON.parse` and `JSON.stringify`
//! with serde-wasm-bindgen between JavaScript values and Rust types, so the
//! islands carry no JSON parser of their own.

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

//! The host's look on the view: its theme and style variables, from the
//! context `ui/initialize` returns and each change the host sends.

use super::HostContext;

/// The longest name of a host's style variable the view takes.
const MAX_VARIABLE_NAME: usize = 64;

impl HostContext {
    /// The host's theme, when it names one the stylesheet has.
    pub fn theme(&self) -> Option<&str> {
        self.theme
            .as_deref()
            .filter(|theme| matches!(*theme, "light" | "dark"))
    }
}

/// Whether the view sets the host's style variable `name` to `value`:
/// only custom properties (`--…`), only with a value. The stylesheet reads
/// `--color-background-primary`, `--font-sans` and the like.
pub fn takes_variable(name: &str, value: &str) -> bool {
    name.len() > 2
        && name.len() <= MAX_VARIABLE_NAME
        && name.starts_with("--")
        && !value.trim().is_empty()
}

/// Follows the host's look: its theme on the document (`data-theme` and
/// `color-scheme`, as the extension's own helper sets them) and its style
/// variables (`styles.variables` of the context, read as the plain object
/// it is) as custom properties, which the stylesheet prefers to its own
/// colours, radius and font where given.
#[cfg(feature = "hydrate")]
pub(super) fn follow_look(context: &leptos::wasm_bindgen::JsValue) {
    use leptos::{
        wasm_bindgen::JsCast,
        web_sys::js_sys::{Array, Object, Reflect},
    };
    let Some(root) = leptos::prelude::document()
        .document_element()
        .and_then(|root| root.dyn_into::<leptos::web_sys::HtmlElement>().ok())
    else {
        return;
    };
    let style = root.style();
    let get = |value: &leptos::wasm_bindgen::JsValue, name: &str| {
        Reflect::get(value, &name.into()).unwrap_or_default()
    };
    let theme: Option<HostContext> = serde_wasm_bindgen::from_value(context.clone()).ok();
    if let Some(theme) = theme.as_ref().and_then(HostContext::theme) {
        let _ = root.set_attribute("data-theme", theme);
        let _ = style.set_property("color-scheme", theme);
    }
    let variables = get(&get(context, "styles"), "variables");
    let Some(variables) = variables.dyn_ref::<Object>() else {
        return;
    };
    for entry in Object::entries(variables) {
        let entry = Array::from(&entry);
        if let (Some(name), Some(value)) = (entry.get(0).as_string(), entry.get(1).as_string()) {
            if takes_variable(&name, &value) {
                let _ = style.set_property(&name, &value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_takes_a_theme_it_has_and_custom_properties_with_values() {
        let theme = |value| {
            serde_json::from_value::<HostContext>(value)
                .expect("context")
                .theme()
                .map(str::to_owned)
        };
        assert_eq!(
            theme(serde_json::json!({"theme": "dark"})),
            Some("dark".to_owned())
        );
        assert_eq!(theme(serde_json::json!({"theme": "sepia"})), None);
        assert_eq!(theme(serde_json::json!({})), None);
        assert!(takes_variable("--color-background-primary", "#101010"));
        assert!(takes_variable("--font-sans", "Inter, sans-serif"));
        for (name, value) in [("color", "red"), ("--", "x"), ("--color-text-primary", " ")] {
            assert!(!takes_variable(name, value), "{name}");
        }
        assert!(!takes_variable(
            &format!("--{}", "x".repeat(MAX_VARIABLE_NAME)),
            "1"
        ));
    }
}

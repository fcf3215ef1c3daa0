//! askdesk's web UI: Leptos components and server functions.
//!
//! Compiled twice: with feature `ssr` into the server (rendering and server
//! functions) and with feature `hydrate` into the browser bundle. Server-only
//! code sits behind `#[cfg(feature = "ssr")]`; this crate does no I/O of its
//! own beyond what server functions delegate to the server.

pub mod ask;
pub mod error;
pub mod form;
pub mod home;
pub mod question;
pub mod signin;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, Link, MetaTags, Stylesheet, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    path, SsrMode,
};

/// The HTML document around every page, rendered on the server only.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    set_content_security_policy();
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <AutoReload options=options.clone()/>
                <HydrationScripts options islands=true/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// The Content-Security-Policy of every page: nothing from elsewhere, and
/// of inline scripts only those carrying this response's `nonce` (the
/// hydration script Leptos writes).
#[cfg(feature = "ssr")]
pub fn content_security_policy(nonce: &str, frame_ancestors: &str) -> String {
    format!(
        "default-src 'none'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
         base-uri 'none'; frame-ancestors {frame_ancestors}"
    )
}

#[cfg(feature = "ssr")]
fn set_content_security_policy() {
    let (Some(nonce), Some(response)) = (
        leptos::nonce::use_nonce(),
        use_context::<leptos_axum::ResponseOptions>(),
    ) else {
        return;
    };
    let config = use_context::<PageConfig>().unwrap_or_default();
    let policy = content_security_policy(&nonce, &config.frame_ancestors);
    if let Ok(value) = http::HeaderValue::from_str(&policy) {
        response.insert_header(http::header::CONTENT_SECURITY_POLICY, value);
    }
}

/// Server settings the pages need, provided as context on the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageConfig {
    /// The CSP `frame-ancestors` sources: who may put pages in an iframe.
    pub frame_ancestors: String,
    /// The origin an embedded ask page tells when it finishes
    /// (`postMessage` target); none: it tells nobody.
    pub embed_origin: Option<String>,
}

impl Default for PageConfig {
    fn default() -> Self {
        Self {
            frame_ancestors: "'self'".to_owned(),
            embed_origin: None,
        }
    }
}

/// The root component: routes every page of askdesk.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    view! {
        <Stylesheet id="leptos" href="/pkg/askdesk.css"/>
        <Link rel="icon" href="/favicon.svg" type_="image/svg+xml"/>
        <Title text="askdesk"/>
        <Router>
            <main>
                // Async rendering sends whole pages, so they work without
                // JavaScript (streamed parts would need it to be put in place).
                <Routes fallback=NotFound>
                    <Route path=path!("/") view=home::HomePage ssr=SsrMode::Async/>
                    <Route path=path!("/asks/:id") view=ask::AskPage ssr=SsrMode::Async/>
                    <Route path=path!("/signin") view=signin::SignInPage/>
                </Routes>
            </main>
        </Router>
    }
}

#[component]
fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::NOT_FOUND);
    }
    view! {
        <Title text="askdesk: not found"/>
        <h1>"Page not found"</h1>
        <p><a href="/">"Go to the waiting asks"</a></p>
    }
}

/// An RFC 3339 UTC time as people read it: `2026-11-30 11:20 UTC`.
pub(crate) fn short_time(rfc3339: &str) -> String {
    match (rfc3339.get(..10), rfc3339.get(11..16)) {
        (Some(day), Some(time)) => format!("{day} {time} UTC"),
        _ => rfc3339.to_owned(),
    }
}

/// A page title holding agent text. `leptos_meta` writes `<title>` text
/// unescaped on the server (0.8.7), so a `<` could close the element and
/// start markup; it becomes `‹`, which reads the same.
pub(crate) fn tab_title(text: &str) -> String {
    format!("askdesk: {}", text.replace('<', "\u{2039}"))
}

/// Sets `data-hydrated` on `<body>` once the wasm has taken over the page.
///
/// Effects never run during server rendering, so browser tests can wait for
/// this attribute instead of guessing when the page became interactive.
pub(crate) fn mark_hydrated() {
    Effect::new(|_| {
        if let Some(body) = document().body() {
            // Only a test hook; a failure here changes nothing for the user.
            let _ = body.set_attribute("data-hydrated", "");
        }
    });
}

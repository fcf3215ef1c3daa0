//! askdesk's web UI: Leptos components and server functions.
//!
//! Compiled twice: with feature `ssr` into the server (rendering and server
//! functions) and with feature `hydrate` into the browser bundle. Server-only
//! code sits behind `#[cfg(feature = "ssr")]`; this crate does no I/O of its
//! own beyond what server functions delegate to the server.

pub mod demo;
pub mod error;
pub mod question;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, Link, MetaTags, Stylesheet, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    StaticSegment,
};

/// The HTML document around every page, rendered on the server only.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <AutoReload options=options.clone()/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// The root component: routes every page of askdesk.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    mark_hydrated();
    view! {
        <Stylesheet id="leptos" href="/pkg/askdesk.css"/>
        <Link rel="icon" href="/favicon.svg" type_="image/svg+xml"/>
        <Title text="askdesk"/>
        <Router>
            <main>
                <Routes fallback=|| view! { <p>"Page not found."</p> }>
                    <Route path=StaticSegment("") view=demo::DemoPage/>
                </Routes>
            </main>
        </Router>
    }
}

/// Sets `data-hydrated` on `<body>` once the wasm has taken over the page.
///
/// Effects never run during server rendering, so browser tests can wait for
/// this attribute instead of guessing when the page became interactive.
fn mark_hydrated() {
    Effect::new(|_| {
        if let Some(body) = document().body() {
            // Only a test hook; a failure here changes nothing for the user.
            let _ = body.set_attribute("data-hydrated", "");
        }
    });
}

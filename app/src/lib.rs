//! askdesk's web UI: Leptos components and server functions.
//!
//! Compiled twice: with feature `ssr` into the server (rendering and server
//! functions) and with feature `hydrate` into the browser bundle. Server-only
//! code sits behind `#[cfg(feature = "ssr")]`; this crate does no I/O of its
//! own beyond what server functions delegate to the server.

#![recursion_limit = "256"]

pub mod ask;
pub use askform::{error, form, state};
pub mod browser;
pub mod consent;
mod document;
pub mod history;
pub mod home;
pub mod hosted;
pub mod i18n;
pub mod page_words;
pub mod phone;
pub mod rpc;
pub mod signin;

#[cfg(feature = "ssr")]
pub use document::content_security_policy;
pub use document::{
    shell, Bundle, InlineStyle, IslandScripts, IslandScriptsProps, Loader, PageConfig,
    PrefetchBundle, PrefetchBundleProps,
};

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    path, SsrMode,
};
use page_words::SpeakPage;

/// What a page reads while the server renders it. Boxed: the server
/// function's future as a type would nest too deep in the page's view.
pub(crate) type PageLoad<T> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<T, error::ServerError>> + Send>>;

/// The root component: routes every page of askdesk.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    view! {
        <Title text="askdesk"/>
        <Router>
            <main>
                // Async rendering sends whole pages, so they work without
                // JavaScript (streamed parts would need it to be put in place).
                <Routes fallback=NotFound>
                    <Route path=path!("/") view=home::HomePage ssr=SsrMode::Async/>
                    <Route path=path!("/asks/:id") view=ask::AskPage ssr=SsrMode::Async/>
                    <Route path=path!("/history") view=history::HistoryPage ssr=SsrMode::Async/>
                    <Route path=path!("/signin") view=signin::SignInPage/>
                    <Route path=path!("/signin/done") view=signin::DonePage/>
                    <Route path=path!("/phone") view=phone::PhonePage/>
                    <Route path=path!("/signin/link/:code") view=phone::LinkPage/>
                    <Route path=path!("/oauth/authorize") view=consent::ConsentPage/>
                </Routes>
            </main>
            <footer class="site-footer">
                <SignedIn/>
                <LanguageSwitch/>
            </footer>
        </Router>
    }
}

#[component]
fn NotFound() -> impl IntoView {
    set_status(404);
    let words = i18n::use_lang().page();
    view! {
        <Title text=format!("askdesk: {}", words.page_not_found)/>
        <h1>{words.page_not_found}</h1>
        <p><a href="/">{words.to_waiting}</a></p>
    }
}

/// What a query value keeps as itself: RFC 3986's unreserved characters,
/// and `/`.
const QUERY_VALUE: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~')
    .remove(b'/');

/// A path (and query) of this server as a query value: what `back` and
/// `next` carry.
pub fn encode_path(path: &str) -> String {
    percent_encoding::utf8_percent_encode(path, QUERY_VALUE).to_string()
}

/// The name of the person signed in to this page's request, if any (on
/// the server; the browser never renders this).
pub fn signed_in_name() -> Option<String> {
    #[cfg(feature = "ssr")]
    {
        crate::rpc::ssr::caller().name().map(str::to_owned)
    }
    #[cfg(not(feature = "ssr"))]
    {
        None
    }
}

/// Who is signed in, and a way out: server HTML only.
#[component]
fn SignedIn() -> impl IntoView {
    let words = i18n::use_lang().page();
    signed_in_name().map(|name| {
        view! {
            <form class="signed-in" method="post" action="/signout">
                <span>{(words.signed_in_as)(&name)}</span>
                " "
                <button type="submit" class="quiet">{words.sign_out}</button>
            </form>
        }
    })
}

/// The language switch at the bottom of every page: plain links, so it
/// works without JavaScript; the server sets the cookie and sends you back.
#[component]
fn LanguageSwitch() -> impl IntoView {
    // Server HTML only: the path is read once, as the page is rendered.
    let location = leptos_router::hooks::use_location();
    let path = location.pathname.get_untracked();
    let search = location.search.get_untracked();
    let back = if search.is_empty() {
        path
    } else {
        format!("{path}?{search}")
    };
    // Only a path on this server: never an address elsewhere.
    let back = encode_path(&back);
    let lang = i18n::use_lang();
    let link = move |to: i18n::Lang, label: &'static str| {
        let current = (to == lang).then_some("true");
        let href = format!("/lang/{}?back={back}", to.code());
        view! {
            <a href=href hreflang=to.tag() lang=to.tag() aria-current=current>
                {label}
            </a>
        }
    };
    view! {
        <nav class="lang-switch" aria-label=lang.page().language>
            {link(i18n::Lang::En, "English")}
            " · "
            {link(i18n::Lang::Zh, "中文")}
        </nav>
    }
}

/// Sets the HTTP status of the response being made on the server: of the
/// page being rendered, or of a server function's reply. Nothing in the
/// browser, where there is no response to set.
pub(crate) fn set_status(_code: u16) {
    #[cfg(feature = "ssr")]
    if let (Some(response), Ok(status)) = (
        use_context::<leptos_axum::ResponseOptions>(),
        http::StatusCode::from_u16(_code),
    ) {
        response.set_status(status);
    }
}

/// A page title holding agent text. `leptos_meta` writes `<title>` text
/// unescaped on the server (0.8.7), so a `<` could close the element and
/// start markup; it becomes `‹`, which reads the same.
pub(crate) fn tab_title(text: &str) -> String {
    // Isolated, as `<bdi>` would be: the tab's title is text, not HTML.
    // Its own bidirectional controls are shown, not followed: nothing
    // isolates its parts from each other.
    let text = interaction::with_visible_controls(text);
    format!("askdesk: \u{2068}{}\u{2069}", text.replace('<', "\u{2039}"))
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_path_is_encoded_as_a_query_value_byte_by_byte() {
        assert_eq!(
            super::encode_path("/asks/abc?embed=1&x=é~"),
            "/asks/abc%3Fembed%3D1%26x%3D%C3%A9~"
        );
        assert_eq!(super::encode_path(""), "");
    }
}

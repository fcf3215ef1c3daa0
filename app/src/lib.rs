//! askdesk's web UI: Leptos components and server functions.
//!
//! Compiled twice: with feature `ssr` into the server (rendering and server
//! functions) and with feature `hydrate` into the browser bundle. Server-only
//! code sits behind `#[cfg(feature = "ssr")]`; this crate does no I/O of its
//! own beyond what server functions delegate to the server.

#![recursion_limit = "256"]

pub mod ask;
pub use askform::{error, form};
pub mod browser;
pub mod history;
pub mod home;
pub mod i18n;
pub mod page_words;
pub mod rpc;
pub mod signin;
pub mod time;

use leptos::{either::Either, prelude::*};
use leptos_meta::{provide_meta_context, MetaTags, Script, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    path, SsrMode,
};
use page_words::SpeakPage;
use std::fmt::Write;

/// The HTML document around every page, rendered on the server only.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    set_content_security_policy();
    #[cfg(feature = "ssr")]
    provide_context(request_lang());
    let lang = i18n::use_lang();
    let stylesheet = use_context::<PageConfig>().unwrap_or_default().stylesheet;
    // For `IslandScripts`, on a site cargo-leptos built.
    provide_context(options.clone());
    view! {
        <!DOCTYPE html>
        <html lang=lang.tag()>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <AutoReload options/>
                // What the page registers: its title, and the script that
                // wakes it (`IslandScripts`).
                <MetaTags/>
                <link rel="stylesheet" href=stylesheet/>
                <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
                <link rel="manifest" href="/manifest.webmanifest"/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// What a page reads while the server renders it. Boxed: the server
/// function's future as a type would nest too deep in the page's view.
pub(crate) type PageLoad<T> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<T, error::ServerError>> + Send>>;

/// The script that wakes a page's islands. Rendered beside an island
/// rather than in every page's head, so a page without one (a finished
/// ask, sign-in, not found) loads no JavaScript or wasm at all.
///
/// The page's own bundle is a deferred classic script in the head, with
/// its wasm inside: the preload scanner fetches it before anything runs,
/// and it wakes the page (`scripts/wasm-module.mjs`) in the parser's last
/// task, when every island is in the document, where Leptos' own
/// `<HydrationScripts islands>` waits for an idle moment first (bench/tti.sh
/// measures the difference). A site cargo-leptos built has one module for
/// every island, which Leptos' own loader wakes.
#[component]
pub fn IslandScripts(
    /// The bundle that wakes the island beside: each page loads only its own.
    bundle: Bundle,
) -> impl IntoView {
    // Rendered by the server only, which provides the page's settings.
    use_context::<PageConfig>().map(|config| match config.loader {
        Loader::Bundles => {
            // What `<HydrationScripts islands>` tells the render: below
            // here nothing is hydrated except islands.
            if let Some(context) = Owner::current_shared_context() {
                context.set_is_hydrating(false);
            }
            // The bundle's path carries its hash; the nonce is the page's.
            let js = config.bundle(bundle).to_owned();
            Either::Left(view! { <Script defer="" src=js/> })
        }
        Loader::Leptos => Either::Right(
            use_context::<LeptosOptions>()
                .map(|options| view! { <HydrationScripts options islands=true/> }),
        ),
    })
}

/// How the pages load their islands' code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Loader {
    /// Each page its own bundle ([`Bundle`]), as `scripts/dev.sh` builds
    /// the site.
    #[default]
    Bundles,
    /// One module for every island, as cargo-leptos builds the site,
    /// loaded by Leptos' own `<HydrationScripts islands>`.
    Leptos,
}

/// A browser bundle: the JavaScript, with the wasm in it, that wakes one
/// page's island. The ask page's is built with feature `ask-island`, the
/// desk's with `desk-island`, so the ask page, which a person may open on
/// a phone, loads no code of the desk's, and the desk none of the form's.
///
/// A bundle's discriminant is its place in [`Bundle::ALL`], so tables of
/// bundles are arrays indexed by `bundle as usize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bundle {
    /// The ask page's: the answering form.
    Ask,
    /// The desk's: the live lists.
    Desk,
}

impl Bundle {
    /// Every bundle.
    pub const ALL: [Bundle; 2] = [Bundle::Ask, Bundle::Desk];

    /// Its file name without the extension: `pkg/<name>.js` in the site
    /// `scripts/dev.sh` lays out.
    pub fn name(self) -> &'static str {
        match self {
            Bundle::Ask => "ask",
            Bundle::Desk => "desk",
        }
    }
}

/// The language a request asks for: the switch's cookie, else
/// `Accept-Language`.
#[cfg(feature = "ssr")]
fn request_lang() -> i18n::Lang {
    let Some(parts) = use_context::<http::request::Parts>() else {
        return i18n::Lang::En;
    };
    let chosen = parts
        .headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == i18n::LANG_COOKIE)
        .and_then(|(_, value)| i18n::Lang::parse(value));
    chosen.unwrap_or_else(|| {
        parts
            .headers
            .get(http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .map_or(i18n::Lang::En, i18n::Lang::from_accept_language)
    })
}

/// The Content-Security-Policy of every page: nothing from elsewhere, and
/// of inline scripts only those carrying this response's `nonce` (the
/// hydration script Leptos writes).
/// While a watch serves the pages (`live_reload`, a port), they may also
/// reach its live-reload WebSocket on that port.
#[cfg(feature = "ssr")]
pub fn content_security_policy(
    nonce: &str,
    frame_ancestors: &str,
    live_reload: Option<u16>,
) -> String {
    let reload = live_reload
        .map(|port| format!(" ws://*:{port} wss://*:{port}"))
        .unwrap_or_default();
    format!(
        "default-src 'none'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self'; img-src 'self' data:; connect-src 'self'{reload}; manifest-src 'self'; \
         worker-src 'self'; form-action 'self'; \
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
    let policy = content_security_policy(&nonce, &config.frame_ancestors, config.live_reload);
    if let Ok(value) = http::HeaderValue::from_str(&policy) {
        response.insert_header(http::header::CONTENT_SECURITY_POLICY, value);
    }
}

/// Server settings the pages need, provided as context on the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageConfig {
    /// The CSP `frame-ancestors` sources: who may put pages in an iframe.
    pub frame_ancestors: String,
    /// The stylesheet's path; the server names it by its content, so a
    /// browser may keep it for good.
    pub stylesheet: String,
    /// The origin an embedded ask page tells when it finishes
    /// (`postMessage` target); none: it tells nobody.
    pub embed_origin: Option<String>,
    /// Whether the server pushes asks to browsers (`--web-push`): the desk
    /// offers "Notify this device".
    pub web_push: bool,
    /// Each bundle's path, in [`Bundle::ALL`]'s order; the server names
    /// them by their content, as the stylesheet.
    pub bundles: [String; Bundle::ALL.len()],
    /// How the pages load their islands' code.
    pub loader: Loader,
    /// The port of a watch's live-reload WebSocket, while one serves the
    /// pages (`LEPTOS_WATCH`, as `scripts/dev.sh watch` and cargo-leptos
    /// set it): Leptos' `<AutoReload>` connects to it.
    pub live_reload: Option<u16>,
}

impl PageConfig {
    /// Where `bundle` is: the path of its JavaScript, which holds its wasm.
    pub fn bundle(&self, bundle: Bundle) -> &str {
        &self.bundles[bundle as usize]
    }
}

impl Default for PageConfig {
    fn default() -> Self {
        Self {
            frame_ancestors: "'self'".to_owned(),
            stylesheet: format!("/pkg/{}.css", env!("LEPTOS_OUTPUT_NAME")),
            embed_origin: None,
            web_push: false,
            bundles: Bundle::ALL.map(|bundle| format!("/pkg/{}.js", bundle.name())),
            loader: Loader::Bundles,
            live_reload: None,
        }
    }
}

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

/// A path (and query) of this server as a query value: what `back` and
/// `next` carry.
pub fn encode_path(path: &str) -> String {
    let mut encoded = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                encoded.push(char::from(byte));
            }
            _ => {
                let _ = write!(encoded, "%{byte:02X}");
            }
        }
    }
    encoded
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

//! The HTML document around every page: its head, the script that wakes
//! a page's islands, and the Content-Security-Policy it is sent with, from
//! the server's [`PageConfig`].

use crate::{i18n, App};
use leptos::{either::Either, prelude::*};
use leptos_meta::{Link, MetaTags, Script};

/// The HTML document around every page, rendered on the server only.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    set_content_security_policy();
    #[cfg(feature = "ssr")]
    provide_context(request_lang());
    let lang = i18n::use_lang();
    let config = use_context::<PageConfig>().unwrap_or_default();
    // In the page, the first paint waits for nothing but the page itself;
    // linked (while a watch reloads it), it waits for one more request.
    let style = match config.inline_style {
        // Shared, not copied: every page holds the same text.
        Some(style) => Either::Left(view! { <style inner_html=style.css></style> }),
        None => Either::Right(view! { <link rel="stylesheet" href=config.stylesheet/> }),
    };
    // For `IslandScripts`, on a site cargo-leptos built.
    provide_context(options.clone());
    view! {
        <!DOCTYPE html>
        <html lang=lang.tag()>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <AutoReload options/>
                // The style first, which the first paint needs, then what
                // the page registers: its title, and the script that wakes
                // it (`IslandScripts`), deferred.
                {style}
                <MetaTags/>
                <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
                <link rel="manifest" href="/manifest.webmanifest"/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// The script that wakes a page's islands, rendered beside an island so
/// that a page without one (a finished ask, sign-in, not found) loads no
/// JavaScript or wasm at all.
///
/// The page's bundle is a deferred classic script so that the preload
/// scanner fetches it at once and it wakes the page as the parse ends
/// (`scripts/wasm-module.mjs`), not when the browser is next idle, as
/// Leptos' `<HydrationScripts islands>` does; on a site cargo-leptos built
/// that loader wakes its one module for every island.
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
            #[cfg(feature = "ssr")]
            announce(&js);
            Either::Left(view! { <Script defer="" src=js/> })
        }
        Loader::Leptos => Either::Right(
            use_context::<LeptosOptions>()
                .map(|options| view! { <HydrationScripts options islands=true/> }),
        ),
    })
}

/// Names the page's bundle in a `Link: rel=preload` header, so that the
/// browser asks for it as the response's head arrives, before it parses
/// the page down to the script (pages are rendered whole, so the header
/// is set before anything is sent).
#[cfg(feature = "ssr")]
fn announce(js: &str) {
    let Some(response) = use_context::<leptos_axum::ResponseOptions>() else {
        return;
    };
    if let Ok(value) = http::HeaderValue::from_str(&format!("<{js}>; rel=preload; as=script")) {
        response.append_header(http::header::LINK, value);
    }
}

/// Asks the browser to fetch `bundle` when it is idle, so that a page
/// opened later (an ask opened from a notification, on a phone that has
/// the desk open or signed in) finds it in its cache: the bundle's path
/// carries its hash, and the server lets it be kept for good.
#[component]
pub fn PrefetchBundle(
    /// The bundle a page opened from here will need.
    bundle: Bundle,
) -> impl IntoView {
    use_context::<PageConfig>()
        .filter(|config| config.loader == Loader::Bundles)
        .map(|config| {
            let href = config.bundle(bundle).to_owned();
            view! { <Link rel="prefetch" href as_="script"/> }
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

/// The Content-Security-Policy of every page: nothing from elsewhere, of
/// inline scripts only those carrying this response's `nonce` (the
/// hydration script Leptos writes), and of inline style only the
/// stylesheet whose hash is `style` (`sha256-…`).
/// While a watch serves the pages (`live_reload`, a port), they may also
/// reach its live-reload WebSocket on that port.
#[cfg(feature = "ssr")]
pub fn content_security_policy(
    nonce: &str,
    frame_ancestors: &str,
    live_reload: Option<u16>,
    style: Option<&str>,
) -> String {
    let reload = live_reload
        .map(|port| format!(" ws://*:{port} wss://*:{port}"))
        .unwrap_or_default();
    let style = style.map(|hash| format!(" '{hash}'")).unwrap_or_default();
    format!(
        "default-src 'none'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self'{style}; img-src 'self' data:; connect-src 'self'{reload}; manifest-src 'self'; \
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
    let policy = content_security_policy(
        &nonce,
        &config.frame_ancestors,
        config.live_reload,
        config
            .inline_style
            .as_ref()
            .map(|style| style.hash.as_str()),
    );
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
    /// The stylesheet itself, put in every page instead of linked, when
    /// the server has it and no watch reloads it.
    pub inline_style: Option<InlineStyle>,
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
    /// The name of the identity provider people may sign in with
    /// (`--oidc-issuer`): the sign-in page offers it.
    pub sign_in_with: Option<String>,
    /// The port of a watch's live-reload WebSocket, while one serves the
    /// pages (`LEPTOS_WATCH`, as `scripts/dev.sh watch` and cargo-leptos
    /// set it): Leptos' `<AutoReload>` connects to it.
    pub live_reload: Option<u16>,
}

/// The stylesheet as the pages hold it, and the hash of it their
/// Content-Security-Policy allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlineStyle {
    /// The CSS, shared by every page.
    pub css: std::sync::Arc<str>,
    /// Its CSP hash source, `sha256-<base64>`.
    pub hash: String,
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
            inline_style: None,
            embed_origin: None,
            web_push: false,
            bundles: Bundle::ALL.map(|bundle| format!("/pkg/{}.js", bundle.name())),
            loader: Loader::Bundles,
            sign_in_with: None,
            live_reload: None,
        }
    }
}

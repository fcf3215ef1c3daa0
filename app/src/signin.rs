//! `/signin`: when the server has a token, the desk's pages ask for it once
//! and remember the browser with an HttpOnly cookie. With an identity
//! provider (`--oidc-issuer`) the page offers it too, and `/signin/done`
//! carries a browser it sent back on to where it was going.

use crate::page_words::{PageWords, SpeakPage};
use leptos::prelude::*;
use leptos_meta::{Meta, Title};
use leptos_router::hooks::use_query_map;

/// Where the identity provider's sign-in starts (the server's handler).
pub const OIDC_START_PATH: &str = "/signin/oidc";
/// Where a browser goes once the provider's sign-in opened its session.
pub const DONE_PATH: &str = "/signin/done";

/// Why a sign-in sent the browser back to `/signin`: its query's `failed`,
/// which the page says in words. The server's sign-in routes and this page
/// name each reason here, once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failed {
    /// The token is no one's (and the reason the page gives any code it
    /// does not know).
    WrongToken,
    /// An agent's token: agents use the API.
    AgentToken,
    /// The identity provider verified an agent's email.
    AgentEmail,
    /// The database could not be read or written.
    Unavailable,
    /// The identity provider verified an email no person has.
    Stranger,
    /// The identity provider did not say the email is verified.
    Unverified,
    /// The identity provider refused, failed, or its answer did not check out.
    Provider,
}

impl Failed {
    const ALL: [Failed; 7] = [
        Failed::WrongToken,
        Failed::AgentToken,
        Failed::AgentEmail,
        Failed::Unavailable,
        Failed::Stranger,
        Failed::Unverified,
        Failed::Provider,
    ];

    fn code(self) -> &'static str {
        match self {
            Failed::WrongToken => "1",
            Failed::AgentToken => "agent",
            Failed::AgentEmail => "agent-email",
            Failed::Unavailable => "unavailable",
            Failed::Stranger => "stranger",
            Failed::Unverified => "unverified",
            Failed::Provider => "provider",
        }
    }

    /// The sign-in page saying why.
    pub fn path(self) -> String {
        format!("/signin?failed={}", self.code())
    }

    /// The reason a `failed` code names.
    fn of(code: &str) -> Failed {
        Failed::ALL
            .into_iter()
            .find(|failed| failed.code() == code)
            .unwrap_or(Failed::WrongToken)
    }

    fn words(self, words: &PageWords) -> &'static str {
        match self {
            Failed::WrongToken => words.wrong_token,
            Failed::AgentToken => words.agent_token,
            Failed::AgentEmail => words.agent_email,
            Failed::Unavailable => words.unavailable,
            Failed::Stranger => words.stranger,
            Failed::Unverified => words.not_verified,
            Failed::Provider => words.provider_failed,
        }
    }
}

/// Where to go after signing in: a path of this server, or the desk. The
/// one check of every `next` and `back` the sign-in routes, the OIDC flow
/// and the language switch send a browser on to.
pub fn local_path(next: Option<&str>) -> &str {
    match next {
        Some(path) if is_local_path(path) => path,
        _ => "/",
    }
}

/// Whether a browser reads `path` as a path of the page's own host.
///
/// Browsers read a URL leniently (the WHATWG URL standard): they drop tabs
/// and line breaks wherever they are, trim spaces and controls from its
/// ends, and read `\` as `/`; so `/<TAB>/evil.example` and `/\evil.example`
/// are `//evil.example`, another site. A path with any control character,
/// any white space or a backslash is therefore refused outright. What is
/// left cannot hide anything between its characters, and the standard
/// reads a string that starts with one `/` but not two as a path on the
/// base URL's host, whatever follows. This is checked by hand, not by
/// parsing with the `url` crate, because the browser bundle runs it too.
fn is_local_path(path: &str) -> bool {
    let mut chars = path.chars();
    chars.next() == Some('/')
        && chars.next() != Some('/')
        && !path
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
}

/// The sign-in page. The form posts to the server, which checks the token,
/// sets the cookie and sends the browser on.
#[component]
pub fn SignInPage() -> impl IntoView {
    let query = use_query_map();
    let words = crate::i18n::use_lang().page();
    let failed = move || query.with(|q| q.get("failed").map(|code| Failed::of(&code).words(words)));
    // Back to where signing in was asked for: a path of this server only
    // (the server checks it again).
    let next = query
        .with_untracked(|q| q.get("next"))
        .filter(|n| is_local_path(n));
    let provider = use_context::<crate::PageConfig>()
        .and_then(|config| config.sign_in_with)
        .map(|name| {
            let mut href = OIDC_START_PATH.to_owned();
            if let Some(next) = &next {
                href.push_str("?next=");
                href.push_str(&crate::encode_path(next));
            }
            view! {
                <p><a class="button primary" href=href>{(words.sign_in_with)(&name)}</a></p>
                <p>{words.or_with_token}</p>
            }
        });
    view! {
        <Title text="askdesk: sign in"/>
        <h1>{words.sign_in_title}</h1>
        <p>{words.sign_in_text}</p>
        {move || failed().map(|why| view! { <p class="refused" role="alert">{why}</p> })}
        {provider}
        <form class="signin" method="post" action="/signin">
            {next.map(|next| view! { <input type="hidden" name="next" value=next/> })}
            <label for="token">{words.token}</label>
            <input id="token" name="token" type="password" autocomplete="current-password" required=true/>
            <button type="submit" class="primary">{words.sign_in}</button>
        </form>
    }
}

/// `/signin/done`: the browser the identity provider sent back is signed
/// in; this page, of this site, sends it on. The session cookie is
/// `SameSite=Strict`, which a browser withholds for the rest of a
/// navigation another site started; the navigation this page starts is
/// this site's own, so the next page sees the session.
#[component]
pub fn DonePage() -> impl IntoView {
    let query = use_query_map();
    let words = crate::i18n::use_lang().page();
    let next = query.with_untracked(|q| local_path(q.get("next").as_deref()).to_owned());
    view! {
        <Title text=format!("askdesk: {}", words.signed_in)/>
        <Meta http_equiv="refresh" content=format!("0;url={next}")/>
        <h1>{words.signed_in}</h1>
        <p><a href=next>{words.continue_on}</a></p>
    }
}

#[cfg(test)]
mod tests {
    use super::{local_path, Failed};

    #[test]
    fn each_reason_reads_back_from_its_own_code_and_any_other_is_a_wrong_token() {
        for failed in Failed::ALL {
            let path = failed.path();
            let code = path
                .strip_prefix("/signin?failed=")
                .expect("the sign-in page");
            assert_eq!(Failed::of(code), failed);
        }
        assert_eq!(Failed::of("something"), Failed::WrongToken);
    }

    #[test]
    fn signing_in_goes_on_only_to_a_path_of_this_server() {
        assert_eq!(local_path(Some("/asks/abc")), "/asks/abc");
        assert_eq!(local_path(Some("/history?q=x")), "/history?q=x");
        assert_eq!(local_path(Some("/")), "/");
        for away in ["//evil.example", "https://evil.example", "/\\evil", "asks"] {
            assert_eq!(local_path(Some(away)), "/", "{away}");
        }
        assert_eq!(local_path(None), "/");
    }

    /// Browsers drop tabs and line breaks from a URL, trim spaces and
    /// controls from its ends and read `\` as `/`: each of these would
    /// take the browser to `//evil.example`.
    #[test]
    fn a_path_a_browser_would_read_as_another_host_goes_to_the_desk() {
        for away in [
            "/\t/evil.example",
            "/\n/evil.example",
            "/\r/evil.example",
            "/\r\n/evil.example",
            "\t//evil.example",
            " //evil.example",
            "/ /evil.example",
            "//\tevil.example",
            "/\\evil.example",
            "\\/evil.example",
            "/\\/evil.example",
            "/\u{0}/evil.example",
            "/\u{0b}/evil.example",
            "/\u{0c}/evil.example",
            "/\u{1b}/evil.example",
            "/\u{7f}/evil.example",
            "/\u{85}/evil.example",
            "/\u{a0}/evil.example",
            "/\u{2028}/evil.example",
            "/\u{3000}/evil.example",
            "/asks/abc\t",
        ] {
            assert_eq!(local_path(Some(away)), "/", "{away:?}");
        }
    }

    /// Encoded, those characters are only a path's letters: a browser
    /// does not decode them before it finds the host.
    #[test]
    fn percent_encoded_controls_stay_a_path_of_this_server() {
        for path in [
            "/%09/evil.example",
            "/%2F%2Fevil.example",
            "/%5Cevil.example",
        ] {
            assert_eq!(local_path(Some(path)), path);
        }
    }
}

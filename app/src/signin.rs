//! `/signin`: when the server has a token, the desk's pages ask for it once
//! and remember the browser with an HttpOnly cookie.

use crate::i18n::Speak;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

/// The sign-in page. The form posts to the server, which checks the token,
/// sets the cookie and sends the browser on.
#[component]
pub fn SignInPage() -> impl IntoView {
    use crate::page_words::SpeakPage;
    let query = use_query_map();
    let lang = crate::i18n::use_lang();
    let t = lang.t();
    let words = lang.page();
    let failed = move || {
        query.with(|q| match q.get("failed").as_deref() {
            None => None,
            Some("agent") => Some(words.agent_token),
            Some("unavailable") => Some(words.unavailable),
            Some(_) => Some(t.wrong_token),
        })
    };
    // Back to where signing in was asked for: a path of this server only
    // (the server checks it again).
    let next = query
        .with_untracked(|q| q.get("next"))
        .filter(|n| n.starts_with('/'));
    view! {
        <Title text="askdesk: sign in"/>
        <h1>{t.sign_in_title}</h1>
        <p>{t.sign_in_text}</p>
        {move || failed().map(|why| view! { <p class="refused" role="alert">{why}</p> })}
        <form class="signin" method="post" action="/signin">
            {next.map(|next| view! { <input type="hidden" name="next" value=next/> })}
            <label for="token">{t.token}</label>
            <input id="token" name="token" type="password" autocomplete="current-password" required=true/>
            <button type="submit" class="primary">{t.sign_in}</button>
        </form>
    }
}

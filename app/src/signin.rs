//! `/signin`: when the server has a token, the desk's pages ask for it once
//! and remember the browser with an HttpOnly cookie.

use crate::page_words::SpeakPage;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

/// The sign-in page. The form posts to the server, which checks the token,
/// sets the cookie and sends the browser on.
#[component]
pub fn SignInPage() -> impl IntoView {
    let query = use_query_map();
    let words = crate::i18n::use_lang().page();
    let failed = move || {
        query.with(|q| match q.get("failed").as_deref() {
            None => None,
            Some("agent") => Some(words.agent_token),
            Some("unavailable") => Some(words.unavailable),
            Some(_) => Some(words.wrong_token),
        })
    };
    // Back to where signing in was asked for: a path of this server only
    // (the server checks it again).
    let next = query
        .with_untracked(|q| q.get("next"))
        .filter(|n| n.starts_with('/'));
    view! {
        <Title text="askdesk: sign in"/>
        <h1>{words.sign_in_title}</h1>
        <p>{words.sign_in_text}</p>
        {move || failed().map(|why| view! { <p class="refused" role="alert">{why}</p> })}
        <form class="signin" method="post" action="/signin">
            {next.map(|next| view! { <input type="hidden" name="next" value=next/> })}
            <label for="token">{words.token}</label>
            <input id="token" name="token" type="password" autocomplete="current-password" required=true/>
            <button type="submit" class="primary">{words.sign_in}</button>
        </form>
    }
}

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
    let query = use_query_map();
    let failed = move || query.with(|q| q.get("failed").is_some());
    let t = crate::i18n::use_lang().t();
    view! {
        <Title text="askdesk: sign in"/>
        <h1>{t.sign_in_title}</h1>
        <p>{t.sign_in_text}</p>
        {move || failed().then(|| view! { <p class="refused" role="alert">{t.wrong_token}</p> })}
        <form class="signin" method="post" action="/signin">
            <label for="token">{t.token}</label>
            <input id="token" name="token" type="password" autocomplete="current-password" required=true/>
            <button type="submit" class="primary">{t.sign_in}</button>
        </form>
    }
}

//! Writing into the running session of the agent that asked, when it
//! reads what people write (the ask has a `session`): a plain form that
//! posts to `/asks/{id}/messages`, which works without JavaScript, and
//! what was written so far; server HTML only.

use crate::{i18n::use_lang, page_words::SpeakPage};
use interaction::{SessionMessage, MAX_MESSAGE_CHARS};
use leptos::prelude::*;

/// The box that writes to the agent's session, and the messages sent.
#[component]
pub fn ToSession(
    /// The ask's id.
    id: String,
    /// What people wrote on this ask so far, oldest first.
    messages: Vec<SessionMessage>,
    /// Why the last message was refused, if it was.
    refused: Option<String>,
    /// Whether the ask is pending, so that more may be written.
    open: bool,
) -> impl IntoView {
    let words = use_lang().page();
    let sent = (!messages.is_empty()).then(|| {
        let items = messages
            .into_iter()
            .map(|m| {
                view! {
                    <li class="session-message">
                        <p dir="auto">{m.text}</p>
                        <p class="meta">{(words.session_sent)(m.from.as_deref(), &m.at.short())}</p>
                    </li>
                }
            })
            .collect_view();
        view! { <ol class="session-messages">{items}</ol> }
    });
    let refused = refused.map(|why| view! { <p class="refused" role="alert">{why}</p> });
    let form = open.then(|| {
        view! {
            <form method="post" action=format!("/asks/{id}/messages")>
                <label for="session-text">{words.session_hint}</label>
                {refused}
                <textarea
                    id="session-text"
                    name="text"
                    rows="3"
                    dir="auto"
                    required
                    maxlength=MAX_MESSAGE_CHARS.to_string()
                ></textarea>
                <button type="submit" class="button">{words.session_send}</button>
            </form>
        }
    });
    view! {
        <section class="to-session" aria-labelledby="to-session-heading">
            <h2 id="to-session-heading">{words.session_heading}</h2>
            {sent}
            {form}
        </section>
    }
}

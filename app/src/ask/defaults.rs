//! A pending ask's default answers: what the agent goes on with if nobody
//! answers in time, said above the form in server HTML, and the time left,
//! which the ask island counts down.

use super::outcome::answer_list;
use crate::{
    browser,
    i18n::{use_lang, Speak},
    page_words::SpeakPage,
};
use askform::state::FormState;
use interaction::{Ask, AskStatus, Timestamp};
use leptos::prelude::*;

/// When a pending ask's defaults apply, in milliseconds since the epoch:
/// its expiry, if it has default answers.
pub fn applies_at(ask: &Ask) -> Option<i64> {
    let pending = ask.status == AskStatus::Pending;
    ask.default_answers
        .as_ref()
        .filter(|_| pending)
        .and(ask.expires_at)
        .map(Timestamp::ms)
}

/// "If nobody answers by …, the agent goes on with these default answers:"
/// and each question's default, for a pending ask that has them; server
/// HTML only, hidden by the stylesheet once the island shows an outcome.
#[component]
pub fn DefaultsNote(
    /// The ask, pending or not; only a pending one with defaults shows any.
    ask: Ask,
) -> impl IntoView {
    let lang = use_lang();
    let at = applies_at(&ask);
    let Ask {
        request,
        default_answers,
        ..
    } = ask;
    at.zip(default_answers).map(|(at, defaults)| {
        let by = (lang.page().defaults_by)(&Timestamp::from_ms(at).short());
        view! {
            <section class="defaults-note" aria-labelledby="defaults-heading">
                <p id="defaults-heading">{by}</p>
                {answer_list(&request, &defaults, lang.t())}
            </section>
        }
    })
}

/// The time left before the agent's defaults apply, ticking while the form
/// is open; gone once the ask has ended.
#[component]
pub fn Countdown(
    /// When the defaults apply, in milliseconds since the epoch.
    at: i64,
    /// The form, to know when the ask has ended.
    form: RwSignal<FormState>,
) -> impl IntoView {
    let t = use_lang().t();
    let now = browser::use_now();
    let open = Memo::new(move |_| form.with(|s| s.ended().is_none()));
    move || {
        open.get().then(|| {
            view! {
                <p class="countdown" role="timer">
                    {move || (t.defaults_in)(&(t.span)(at - now.get()))}
                </p>
            }
        })
    }
}

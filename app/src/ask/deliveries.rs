//! The ask's notifications on its page, and how each stands; server HTML
//! only.

use crate::{i18n::use_lang, page_words::SpeakPage};
use leptos::prelude::*;

/// The ask's notifications and how each stands; server HTML only.
#[component]
pub fn Deliveries(
    /// The ask's notifications, as the desk keeps them.
    deliveries: Vec<interaction::Delivery>,
) -> impl IntoView {
    let words = use_lang().page();
    (!deliveries.is_empty()).then(|| {
        let items = deliveries
            .into_iter()
            .map(|d| {
                let state = match (&d.delivered_at, &d.failed_at) {
                    (Some(at), _) => (words.delivered_at)(&at.short()),
                    (None, Some(at)) => (words.given_up_at)(&at.short()),
                    (None, None) => (words.not_delivered)(d.attempts),
                };
                let error = d
                    .delivered_at
                    .is_none()
                    .then_some(d.last_error)
                    .flatten()
                    .map(|e| view! { <span class="delivery-error">{e}</span> });
                view! {
                    <li class="delivery" data-state=d.state.as_str()>
                        <span class="delivery-notice">{(words.notice)(d.event)}</span>
                        " → "
                        <span class="delivery-channel">{d.channel}</span>
                        ": "
                        <span class="delivery-state">{state}</span>
                        {error}
                    </li>
                }
            })
            .collect_view();
        view! {
            <section class="deliveries" aria-labelledby="deliveries-heading">
                <h2 id="deliveries-heading">{words.notifications}</h2>
                <ul>{items}</ul>
            </section>
        }
    })
}

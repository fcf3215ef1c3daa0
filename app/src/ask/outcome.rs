//! A finished ask, read-only: how it ended, and what was typed but never
//! sent when it ended meanwhile.

use super::{
    question_name,
    state::{Ended, Unsent},
};
use crate::{
    browser,
    i18n::{use_lang, Speak},
    time::short_time,
};
use interaction::{Ask, AskStatus};
use leptos::prelude::*;

/// An ask that ended while its page was open: a note when it ended
/// elsewhere first, the text that was never sent, and the outcome.
#[component]
pub fn EndedView(
    /// How the ask ended.
    ended: Ended,
) -> impl IntoView {
    let t = use_lang().t();
    let Ended { ask, late, unsent } = ended;
    let note = late.then(|| view! { <p class="refused" role="alert">{t.ended_before}</p> });
    let texts = unsent
        .into_iter()
        .map(|Unsent { index, text }| {
            let name = ask
                .request
                .questions
                .get(index)
                .map(|q| question_name(q, index))
                .unwrap_or_default();
            (name, text)
        })
        .collect();
    view! { {note} <UnsentTexts texts/> <Outcome ask/> }
}

/// What the human typed into an ask that ended meanwhile, kept visible
/// with a copy button rather than dropped.
#[component]
fn UnsentTexts(
    /// Question names and the text typed for them.
    texts: Vec<(String, String)>,
) -> impl IntoView {
    let t = use_lang().t();
    (!texts.is_empty()).then(|| {
        let items = texts
            .into_iter()
            .map(|(name, text)| {
                let copy_text = text.clone();
                view! {
                    <li>
                        <p class="unsent-name">{name}</p>
                        <pre class="unsent-text">{text}</pre>
                        <button type="button" class="quiet" on:click=move |_| browser::copy(&copy_text)>
                            {t.copy}
                        </button>
                    </li>
                }
            })
            .collect_view();
        view! {
            <section class="unsent" aria-labelledby="unsent-heading">
                <h2 id="unsent-heading">{t.unsent_heading}</h2>
                <ul>{items}</ul>
            </section>
        }
    })
}

/// How a finished ask ended, read-only.
#[component]
pub fn Outcome(
    /// The finished ask.
    ask: Ask,
) -> impl IntoView {
    let finished = ask
        .finished_at
        .as_deref()
        .map(short_time)
        .unwrap_or_default();
    let t = use_lang().t();
    let line = match ask.status {
        AskStatus::Answered => (t.answered_line)(&finished),
        AskStatus::Declined => (t.declined_line)(&finished),
        AskStatus::Cancelled => (t.withdrawn_line)(&finished),
        AskStatus::Expired => (t.expired_line)(&finished),
        AskStatus::Pending => String::new(),
    };
    let answers = ask.answers.clone().map(|items| {
        let rows = ask
            .request
            .questions
            .iter()
            .enumerate()
            .map(|(i, q)| {
                let item = items.iter().find(|item| item.id == q.id).cloned();
                let selected = item
                    .as_ref()
                    .filter(|item| !item.selected.is_empty())
                    .map(|item| view! { <p class="selected">{item.selected.join(", ")}</p> });
                let custom = item
                    .and_then(|item| item.custom)
                    .map(|c| view! { <p class="custom">{c}</p> });
                view! {
                    <dt>{question_name(q, i)}": " {q.question.clone()}</dt>
                    <dd>{selected}{custom}</dd>
                }
            })
            .collect_view();
        view! { <dl class="answers">{rows}</dl> }
    });
    let reason = ask.decline_reason.clone().map(|r| {
        view! {
            <p class="reason">{t.your_reason} <q>{r}</q></p>
        }
    });
    view! {
        <section class="outcome" aria-labelledby="outcome-heading">
            <h2 id="outcome-heading">{t.status(ask.status)}</h2>
            <p role="status">{line}</p>
            {reason}
            {answers}
        </section>
        <p class="back"><a href="/">{t.back_to_waiting}</a></p>
    }
}

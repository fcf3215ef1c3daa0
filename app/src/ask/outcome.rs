//! How an ask ended: read-only on the server for a finished ask, and in the
//! ask island when the ask ends while its page is open.

use super::form::question_name;
use crate::{
    browser,
    i18n::{use_lang, Speak, Words},
};
use askform::state::{Ended, Unsent};
use interaction::{AnswerItem, Ask, AskStatus, Timestamp, ValidRequest};
use leptos::prelude::*;

/// An ask that ended while its page was open: a note when it ended
/// elsewhere first, the text typed but never sent, and the outcome.
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
                .questions()
                .get(index)
                .map(|q| question_name(q, index, t))
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

/// How a finished ask ended, read-only: its status, when, the reason or
/// the answers (or the agent's defaults, said to be no person's), and the
/// way back to the desk.
#[component]
pub fn Outcome(
    /// The finished ask.
    ask: Ask,
) -> impl IntoView {
    let t = use_lang().t();
    let finished = ask.finished_at.map(Timestamp::short).unwrap_or_default();
    let line = match ask.status {
        AskStatus::Answered => (t.answered_line)(&finished),
        AskStatus::Declined => (t.declined_line)(&finished),
        AskStatus::Cancelled => (t.withdrawn_line)(&finished),
        AskStatus::Expired if ask.defaulted => (t.defaulted_line)(&finished),
        AskStatus::Expired => (t.expired_line)(&finished),
        AskStatus::Pending => String::new(),
    };
    let Ask {
        request,
        answers,
        decline_reason,
        status,
        ..
    } = ask;
    let answers = answers.map(|items| answer_list(&request, &items, t));
    let reason =
        decline_reason.map(|r| view! { <p class="reason">{t.your_reason}" "<q>{r}</q></p> });
    view! {
        <section class="outcome" aria-labelledby="outcome-heading">
            <h2 id="outcome-heading">{t.status(status)}</h2>
            <p role="status">{line}</p>
            {reason}
            {answers}
        </section>
        <p class="back"><a href="/">{t.back_to_waiting}</a></p>
    }
}

/// Each question of `request` with its item of `items`: the chosen labels
/// and the typed text.
pub fn answer_list(
    request: &ValidRequest,
    items: &[AnswerItem],
    t: &'static Words,
) -> impl IntoView {
    let rows = request
        .questions()
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let item = items.iter().find(|item| item.id == q.id);
            let selected = item.filter(|item| !item.selected.is_empty()).map(
                |item| view! { <p class="selected" dir="auto">{item.selected.join(", ")}</p> },
            );
            let custom = item
                .and_then(|item| item.custom.clone())
                .map(|c| view! { <p class="custom" dir="auto">{c}</p> });
            view! {
                <dt>{question_name(q, i, t)}": "<bdi>{q.question.clone()}</bdi></dt>
                <dd>{selected}{custom}</dd>
            }
        })
        .collect_view();
    view! { <dl class="answers">{rows}</dl> }
}

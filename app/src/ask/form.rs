//! The answering form of a pending ask, as Leptos components over one
//! reactive [`FormState`]. The server renders it as a plain HTML form
//! (posted to `/asks/{id}`); in the browser the ask island hydrates it, and
//! every input changes the state through its own transition.

use super::{field::QuestionField, problems::ProblemList};
use crate::{
    error::ServerError,
    form::{INTENT_FIELD, REASON_FIELD},
    i18n::{use_lang, Speak, Words},
};
use askform::state::{FormState, Outgoing};
use interaction::{Blocker, Problem, Question};
use leptos::prelude::*;

/// How the page names a question: its header, or its number.
pub fn question_name(question: &Question, index: usize, t: &Words) -> String {
    question
        .header
        .clone()
        .unwrap_or_else(|| (t.question_n)(index + 1))
}

/// The form: every question, the problems the server reported, what still
/// blocks Submit, and the decline box.
#[component]
pub fn AskForm(
    /// The form's state; the form shows it and changes it, nothing else.
    form: RwSignal<FormState>,
    /// The questions, in the request's order.
    questions: Vec<Question>,
    /// Carries what the form lets go (answers or a decline) to the server;
    /// the state has already moved to sending.
    send: Callback<Outgoing>,
) -> impl IntoView {
    let t = use_lang().t();
    let id = form.with_untracked(|s| s.ask_id().to_owned());
    // Effects run in the browser only: until then (and without JavaScript)
    // Submit stays enabled and the server checks the posted form.
    let live = RwSignal::new(false);
    Effect::new(move |_| live.set(true));
    let blockers = Memo::new(move |_| form.with(FormState::blockers));
    let blocked = Memo::new(move |_| live.get() && !blockers.with(Vec::is_empty));
    let busy = Memo::new(move |_| form.with(FormState::is_sending));
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        start(form, send, FormState::begin_answer);
    };

    let names: Vec<String> = questions
        .iter()
        .enumerate()
        .map(|(i, q)| question_name(q, i, t))
        .collect();
    let fields = questions
        .into_iter()
        .enumerate()
        .map(|(index, question)| view! { <QuestionField form index question/> })
        .collect_view();
    let refused = move || {
        form.with(FormState::refused)
            .then(|| view! { <p class="refused" role="alert">{t.refused}</p> })
    };
    let general_problems = move || {
        let general: Vec<Problem> = form.with(|s| s.problems_of(None).cloned().collect());
        (!general.is_empty()).then(|| view! { <ProblemList problems=general/> })
    };
    let failure = move || {
        form.with(|s| s.failure().map(|e: &ServerError| t.server_error(e)))
            .map(|text| view! { <p class="failure" role="alert">{text}</p> })
    };
    view! {
        <form class="ask" method="post" action=format!("/asks/{id}") on:submit=on_submit>
            {refused}
            {general_problems}
            {fields}
            <div class="submit-row">
                <button
                    type="submit"
                    class="primary"
                    name=INTENT_FIELD
                    value="answer"
                    disabled=move || blocked.get() || busy.get()
                    aria-describedby=move || blocked.get().then_some("blockers")
                >
                    {t.submit}
                </button>
                <BlockerList blockers blocked names/>
            </div>
            {failure}
            <DeclineBox form busy send/>
        </form>
    }
}

/// Moves `form` to sending what `begin` lets go (answers or a decline),
/// and hands it to `send`; nothing when the state lets nothing go.
fn start(
    form: RwSignal<FormState>,
    send: Callback<Outgoing>,
    begin: fn(&mut FormState) -> Option<Outgoing>,
) {
    if let Some(outgoing) = form.try_update(begin).flatten() {
        send.run(outgoing);
    }
}

/// What still blocks Submit, each question named and linked to its legend;
/// shown in the browser only, while something blocks.
#[component]
fn BlockerList(
    /// What blocks Submit now.
    blockers: Memo<Vec<Blocker>>,
    /// Whether the list shows.
    blocked: Memo<bool>,
    /// How the page names each question, in the request's order.
    names: Vec<String>,
) -> impl IntoView {
    let t = use_lang().t();
    move || {
        blocked.get().then(|| {
            let items = blockers
                .get()
                .into_iter()
                .map(|b| {
                    let name = names.get(b.index).cloned().unwrap_or_default();
                    view! {
                        <li>
                            <a href=format!("#{}-legend", b.question_id)>{name}</a>
                            ": "
                            {t.reason(&b.reason)}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="blockers" id="blockers">
                    <p>{t.blockers_intro}</p>
                    <ul>{items}</ul>
                </div>
            }
        })
    }
}

/// Declining to answer: a reason, kept in the form's state like any
/// answer, and the button that sends it.
#[component]
fn DeclineBox(
    /// The whole form's state.
    form: RwSignal<FormState>,
    /// Whether the form is sending (the button waits).
    busy: Memo<bool>,
    /// Carries the decline to the server.
    send: Callback<Outgoing>,
) -> impl IntoView {
    let t = use_lang().t();
    let reason = form.with_untracked(|s| s.reason().to_owned());
    let on_decline = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        start(form, send, FormState::begin_decline);
    };
    view! {
        <details class="decline">
            <summary>{t.decline_to_answer}</summary>
            <label for="decline-reason">{t.decline_reason}</label>
            <textarea
                id="decline-reason"
                name=REASON_FIELD
                rows="3"
                prop:value=move || form.with(|s| s.reason().to_owned())
                on:input=move |ev| form.update(|s| s.set_reason(event_target_value(&ev)))
            >
                {reason}
            </textarea>
            <button
                type="submit"
                name=INTENT_FIELD
                value="decline"
                formnovalidate=true
                disabled=move || busy.get()
                on:click=on_decline
            >
                {t.decline}
            </button>
        </details>
    }
}

//! The answering form of a pending ask. It works as a plain HTML form
//! (posted to `/asks/{id}`) until the wasm takes over; then it checks
//! readiness as the human types and sends through the server functions.

use super::{
    question_name,
    state::{FormState, Outgoing},
};
use crate::{
    browser,
    error::ServerError,
    form::{Posted, INTENT_FIELD, REASON_FIELD},
    i18n::{use_lang, Speak},
    question::{ProblemList, QuestionField},
    rpc::{answer_ask, decline_ask, load_ask},
};
use interaction::{Ask, AskEvent, ValidRequest};
use leptos::{prelude::*, task::spawn_local};

/// The form: every question, the problems the server reported, what still
/// blocks Submit, and the decline box.
#[component]
pub fn AskForm(
    /// The form's state, shared with the island that shows the outcome.
    form: RwSignal<FormState>,
    /// The ask's request, validated.
    request: ValidRequest,
    /// Whether to put back a draft saved before a reload.
    restore_draft: bool,
) -> impl IntoView {
    let t = use_lang().t();
    let id = form.with_untracked(|s| s.ask_id().to_owned());
    // Effects run in the browser only: until then (and without JavaScript)
    // the button stays enabled and the server checks the posted form.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    let blockers = Memo::new(move |_| form.with(FormState::blockers));
    let busy = Memo::new(move |_| form.with(FormState::is_sending));

    let saved = Memo::new(move |_| form.with(FormState::saved));
    let restore = move |draft: Posted| form.update(|s| s.restore(&draft));
    browser::keep_draft(saved, restore_draft.then_some(restore));

    // The agent may withdraw the ask, or it may expire, while the human
    // types: show that at once, and keep what was typed.
    let check = {
        let id = id.clone();
        move || {
            let id = id.clone();
            spawn_local(async move {
                if let Ok(data) = load_ask(id).await {
                    form.update(|s| s.end_elsewhere(data.ask));
                }
            });
        }
    };
    let on_event = {
        let check = check.clone();
        move |event: AskEvent| {
            if event.ask.status.is_finished() {
                check();
            }
        }
    };
    browser::use_event_source(&format!("/asks/{id}/events"), on_event, move |_| check());

    let settle = move |result: Result<Ask, ServerError>| {
        if let Ok(ask) = &result {
            browser::forget_draft(&ask.id);
        }
        form.update(|s| s.settle(result));
    };
    // Sends what `begin` lets go, if anything: the state decides whether
    // the form may send now, the server functions carry it.
    let send = {
        let id = id.clone();
        move |begin: fn(&mut FormState) -> Option<Outgoing>| {
            let Some(outgoing) = form.try_update(begin).flatten() else {
                return;
            };
            let id = id.clone();
            spawn_local(async move {
                settle(match outgoing {
                    Outgoing::Answer(answers) => answer_ask(id, answers).await,
                    Outgoing::Decline(reason) => decline_ask(id, reason).await,
                });
            });
        }
    };
    let on_submit = {
        let send = send.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            send(FormState::begin_answer);
        }
    };
    let on_decline = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        send(FormState::begin_decline);
    };

    let questions = request.questions().to_vec();
    let names: Vec<String> = questions
        .iter()
        .enumerate()
        .map(|(i, q)| question_name(q, i))
        .collect();
    let fields = questions
        .into_iter()
        .enumerate()
        .map(|(index, question)| view! { <QuestionField form index question/> })
        .collect_view();
    let general_problems = move || {
        let general = form.with(|s| s.problems_of(None));
        (!general.is_empty()).then(|| view! { <ProblemList problems=general/> })
    };
    let refused = move || {
        form.with(FormState::refused)
            .then(|| view! { <p class="refused" role="alert">{t.refused}</p> })
    };
    let blocker_list = move || {
        let blockers = blockers.get();
        (hydrated.get() && !blockers.is_empty()).then(|| {
            let items = blockers
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
    };
    let failure = move || {
        form.with(|s| s.failure().map(|e| t.server_error(e)))
            .map(|text| view! { <p class="failure" role="alert">{text}</p> })
    };
    let blocked = move || hydrated.get() && !blockers.with(Vec::is_empty);
    let reason = form.with_untracked(|s| s.reason().to_owned());
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
                    disabled=move || blocked() || busy.get()
                    aria-describedby=move || blocked().then_some("blockers")
                >
                    {t.submit}
                </button>
                {blocker_list}
            </div>
            {failure}
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
        </form>
    }
}

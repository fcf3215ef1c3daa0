//! The answering form at work in the browser: what it adopts as the
//! island wakes ([`Woken`]), how it keeps its draft, follows the ask and
//! sends, and how it gives way to the outcome, on the page
//! ([`LiveForm`]) and in an agent's host ([`FormOrOutcome`]).

use super::{form::AskForm, outcome::EndedView};
use crate::{browser, form::Posted};
use askform::state::{FormState, Outgoing};
use interaction::{Question, ValidRequest};
use leptos::{either::Either, prelude::*};

/// What a person entered into the answering form of ask `id` before its
/// island woke, read from the inputs in the element `root_id` as it wakes
/// (`found`), and the draft saved before a reload (`saved`). Hydration
/// adopts, never resets: the woken form takes these over what the server
/// rendered. A refused post the server shows is newer than any saved draft.
#[derive(Debug, Default)]
pub struct Woken {
    found: Option<Posted>,
    saved: Option<Posted>,
}

impl Woken {
    /// Reads the inputs and the saved draft; nothing on the server.
    pub fn read(root_id: &str, id: &str, request: &ValidRequest, posted: Option<&Posted>) -> Self {
        let names = crate::form::field_names(request);
        Self {
            found: browser::form_fields(root_id, &names)
                .map(|fields| Posted::from_fields(id, request, &fields)),
            saved: posted.is_none().then(|| browser::saved_draft(id)).flatten(),
        }
    }

    /// Puts what was read into `state` (see [`FormState::adopt`]).
    pub fn adopt_into(&self, state: &mut FormState) {
        state.adopt(self.found.as_ref(), self.saved.as_ref());
    }

    /// Adopts what was read into `form` once the island has hydrated the
    /// server's markup, right after: hydrating a state other than the one
    /// the server rendered would not match its markup (a note the server
    /// did not show, for one). Until then nothing runs that could wipe the
    /// inputs, and the person's entries come back at once.
    pub fn adopt_after_hydrating(self, form: RwSignal<FormState>) {
        if self.found.is_none() && self.saved.is_none() {
            return;
        }
        leptos::task::spawn_local(async move {
            form.update(|state| self.adopt_into(state));
        });
    }
}

/// The answering form at work: it keeps its draft across reloads, follows
/// the ask's event stream, sends through the server functions, and gives
/// way to how the ask ended, telling an embedding page.
#[component]
pub fn LiveForm(
    /// The form's state.
    form: RwSignal<FormState>,
    /// The ask's questions, in the request's order.
    questions: Vec<Question>,
    /// In an iframe: the host origin to tell when the ask finishes.
    notify: Option<String>,
) -> impl IntoView {
    let ended = Memo::new(move |_| form.with(|s| s.ended().is_some()));
    if let Some(origin) = notify {
        Effect::new(move |_| {
            if ended.get() {
                form.with_untracked(|s| s.ended().map(|e| browser::tell_host(&e.ask, &origin)));
            }
        });
    }
    let saved = Memo::new(move |_| form.with(FormState::saved));
    browser::keep_draft(saved);
    let id = form.with_untracked(|s| s.ask_id().to_owned());
    follow_events(form, &id);
    let send = Callback::new(move |outgoing: Outgoing| {
        let id = id.clone();
        leptos::task::spawn_local(async move {
            let result = browser::send(&id, outgoing).await;
            if let Ok(ask) = &result {
                browser::forget_draft(&ask.id);
            }
            form.update(|s| s.settle(result));
        });
    });
    view! { <PageFormOrOutcome form questions send/> }
}

/// The form while the ask is open, then how it ended, in an agent's host
/// ([`crate::hosted`]), which mounts it: the form gives way to the outcome.
#[component]
pub fn FormOrOutcome(
    /// The form's state.
    form: RwSignal<FormState>,
    /// The ask's questions, in the request's order.
    questions: Vec<Question>,
    /// Carries what the form lets go to the server.
    send: Callback<Outgoing>,
) -> impl IntoView {
    let ended = Memo::new(move |_| form.with(|s| s.ended().is_some()));
    move || {
        if ended.get() {
            Either::Left(ended_view(form))
        } else {
            Either::Right(view! { <AskForm form questions=questions.clone() send/> })
        }
    }
}

/// The same on the ask page, whose island hydrates the form the server
/// rendered: there the form is hidden once the ask has ended, not swapped
/// for the outcome, so that the page's bundle carries only the code that
/// hydrates the form, not a second copy that builds it afresh and a third
/// that rebuilds it.
#[component]
fn PageFormOrOutcome(
    /// The form's state.
    form: RwSignal<FormState>,
    /// The ask's questions, in the request's order.
    questions: Vec<Question>,
    /// Carries what the form lets go to the server.
    send: Callback<Outgoing>,
) -> impl IntoView {
    let ended = Memo::new(move |_| form.with(|s| s.ended().is_some()));
    view! {
        <div class="form-open" hidden=move || ended.get()>
            <AskForm form questions send/>
        </div>
        {move || ended.get().then(|| ended_view(form))}
    }
}

/// How the ask of `form` ended, once it has.
fn ended_view(form: RwSignal<FormState>) -> Option<impl IntoView> {
    let ended = form.with_untracked(|s| s.ended().cloned())?;
    Some(view! { <EndedView ended/> })
}

/// Follows the ask's event stream while its form is open: the agent may
/// withdraw the ask, or it may expire, while the human types. When the
/// stream says the ask ended (or cannot say what was missed), the ask is
/// read again and the form gives way to how it ended, keeping what was
/// typed.
fn follow_events(form: RwSignal<FormState>, id: &str) {
    let check = move || {
        let id = form.with_untracked(|s| s.ask_id().to_owned());
        leptos::task::spawn_local(async move {
            if let Ok(ask) = browser::load(&id).await {
                form.update(|s| s.end_elsewhere(ask));
            }
        });
    };
    let on_event = move |event: interaction::AskEvent| {
        if event.ask.status.is_finished() {
            check();
        }
    };
    browser::use_event_source(&format!("/asks/{id}/events"), on_event, move |_| check());
}

//! The page where a human answers one ask: `/asks/{id}`.
//!
//! The page is server HTML; only a pending ask's [`PendingAsk`] island runs
//! in the browser. Its state is one [`FormState`] (from `askform`) in a
//! signal; the form itself is in [`form`], how an ask ended in
//! [`outcome`].

pub mod defaults;
mod deliveries;
pub mod form;
pub mod outcome;

use crate::page_words::SpeakPage;
use crate::{
    browser,
    error::ServerError,
    form::Posted,
    i18n::{use_lang, Lang, Speak},
    rpc::AskPageData,
};
use askform::state::{FormState, Outgoing};
use defaults::{Countdown, DefaultsNote};
use deliveries::Deliveries;
use form::{question_name, AskForm};
use interaction::{Ask, AskStatus, Question, ValidRequest};
use leptos::{either::Either, prelude::*};
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use outcome::{EndedView, Outcome};
use std::sync::{Arc, Mutex};

/// The element id around a pending ask's form.
pub const ROOT_ID: &str = "pending-ask";

/// The ask page's data, which the server's handler of `/asks/{id}` reads
/// before it renders the page and puts in the render's context; the page
/// takes it once. So the page renders in one pass, with no suspense
/// around a read.
#[derive(Clone)]
pub struct AskPageLoad(Arc<Mutex<Option<Result<AskPageData, ServerError>>>>);

impl AskPageLoad {
    /// The page's data as read, or why it could not be.
    pub fn new(data: Result<AskPageData, ServerError>) -> Self {
        Self(Arc::new(Mutex::new(Some(data))))
    }

    fn take(&self) -> Option<Result<AskPageData, ServerError>> {
        self.0.lock().ok().and_then(|mut data| data.take())
    }
}

/// The page at `/asks/{id}`.
#[component]
pub fn AskPage() -> impl IntoView {
    let query = use_query_map();
    let embed = query.with_untracked(|q| q.get("embed").is_some_and(|v| v == "1"));
    let data = use_context::<AskPageLoad>()
        .and_then(|load| load.take())
        // Only the server's handler renders this page, and it reads first.
        .unwrap_or(Err(ServerError::Internal));
    match data {
        Ok(data) => view! { <AskView data embed/> }.into_any(),
        Err(ServerError::NotFound) => {
            crate::set_status(404);
            view! { <NotFound/> }.into_any()
        }
        Err(e) => {
            crate::set_status(500);
            let t = use_lang().t();
            let words = use_lang().page();
            view! {
                <Title text="askdesk: error"/>
                <h1>{words.something_wrong}</h1>
                <p class="error">{t.server_error(&e)}</p>
            }
            .into_any()
        }
    }
}

#[component]
fn NotFound() -> impl IntoView {
    let t = use_lang().t();
    let words = use_lang().page();
    view! {
        <Title text="askdesk: no such ask"/>
        <h1>{t.no_such_ask}</h1>
        <p>{words.no_such_ask_text}</p>
        <p><a href="/">{words.to_waiting}</a></p>
    }
}

/// An ask: its form while pending, its outcome once finished.
#[component]
pub fn AskView(
    /// The ask and a refused form post, as loaded.
    data: AskPageData,
    /// Shown inside another page's iframe: just the form, and the host is
    /// told when the ask finishes.
    #[prop(optional)]
    embed: bool,
) -> impl IntoView {
    let AskPageData {
        ask,
        deliveries,
        posted,
        may_answer,
    } = data;
    // Whom an embedded page tells of the outcome: the configured origin only.
    let notify = if embed {
        use_context::<crate::PageConfig>().and_then(|c| c.embed_origin)
    } else {
        None
    };
    let lang = use_lang();
    let t = lang.t();
    let words = lang.page();
    let title = ask.title.clone().unwrap_or_else(|| t.untitled.to_owned());
    // The agent's words are isolated from the server's around them, so a
    // right-to-left override in them reorders nothing but themselves.
    let agent = ask.agent.clone().unwrap_or_else(|| t.an_agent.to_owned());
    let meta = {
        let mut parts = Vec::new();
        parts.push((words.asked_at)(&ask.created_at.short()));
        if !ask.to.is_empty() {
            parts.push((lang.page().for_people)(&ask.to.join(", ")));
        }
        if let (Some(expires), AskStatus::Pending) = (ask.expires_at, ask.status) {
            parts.push((words.expires_at)(&expires.short()));
        }
        parts.join(" ")
    };
    let note = view! { <DefaultsNote ask=ask.clone()/> };
    let body = if ask.status.is_finished() {
        view! { <FinishedBy ask=ask.clone()/> <Outcome ask/> }.into_any()
    } else if !may_answer {
        view! { <NotYours ask/> }.into_any()
    } else {
        let defaults_at = defaults::applies_at(&ask);
        // Validated when the desk read it.
        let Ask { id, request, .. } = ask;
        let props = AskProps {
            id,
            request,
            posted,
            notify,
            lang,
            defaults_at,
        };
        // The island reads its props from here in the browser (Leptos
        // escapes the attribute), and from the context on the server.
        let json = serde_json::to_string(&props).unwrap_or_default();
        provide_context(props);
        view! {
            <div id=ROOT_ID data-props=json>
                <PendingAsk/>
            </div>
            <crate::IslandScripts bundle=crate::Bundle::Ask/>
        }
        .into_any()
    };
    view! {
        <Title text=crate::tab_title(&title)/>
        <article class="ask-page" class:embed=embed>
            <header class="ask-header">
                <h1 dir="auto">{title}</h1>
                <p class="meta">{words.asked_by}<bdi class="agent">{agent}</bdi>" "{meta}</p>
            </header>
            {note}
            {body}
            <Deliveries deliveries/>
        </article>
    }
}

/// Who finished the ask and through what ("Answered by alice in the
/// terminal."); server HTML only.
#[component]
fn FinishedBy(ask: Ask) -> impl IntoView {
    let words = use_lang().page();
    ask.via.map(|via| {
        view! {
            <p class="finished-by" data-via=via.as_str()>
                {(words.finished_by)(
                    ask.status,
                    ask.answered_by.as_deref(),
                    ask.relayed_by.as_deref(),
                    via,
                )}
            </p>
        }
    })
}

/// A pending ask this viewer may not answer: its questions, read-only, and
/// why (sign in first, or it is for others); server HTML only.
#[component]
fn NotYours(ask: Ask) -> impl IntoView {
    let lang = use_lang();
    let words = lang.page();
    let why = if crate::signed_in_name().is_some() {
        let names = ask.to.join(", ");
        view! { <p class="refused" role="alert">{(words.not_for_you)(&names)}</p> }.into_any()
    } else {
        let next = crate::encode_path(&format!("/asks/{}", ask.id));
        view! {
            <p>{words.sign_in_to_answer_text}</p>
            <p><a class="button primary" href=format!("/signin?next={next}")>{words.sign_in_to_answer}</a></p>
        }
        .into_any()
    };
    let questions = ask
        .request
        .questions()
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let options = q
                .options
                .iter()
                .map(|o| view! { <li dir="auto">{o.label.clone()}</li> })
                .collect_view();
            view! {
                <li>
                    <p class="question-name">{question_name(q, i, lang.t())}</p>
                    <p dir="auto">{q.question.clone()}</p>
                    <ul class="options-read-only">{options}</ul>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="not-yours">
            {why}
            <ol class="questions-read-only">{questions}</ol>
        </section>
    }
}

/// What the ask island needs besides the form the server rendered.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct AskProps {
    /// The pending ask's id.
    id: String,
    /// Its questions.
    request: ValidRequest,
    /// A refused form post whose input and problems to show.
    posted: Option<Posted>,
    /// In an iframe: the host origin to tell when the ask finishes.
    notify: Option<String>,
    /// The page's language.
    lang: Lang,
    /// When the agent's default answers apply, if it gave any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    defaults_at: Option<i64>,
}

/// A pending ask: the answering form, and how the ask ended once it has
/// (by this page or elsewhere). The one part of the page that runs in the
/// browser, from the `ask` bundle (feature `ask-island`), reading its props
/// with the browser's own JSON parser ([`browser::page_props`]); on the
/// server and without JavaScript it is a plain HTML form the server checks
/// when posted.
#[cfg_attr(any(feature = "ssr", feature = "ask-island"), island)]
#[cfg_attr(not(any(feature = "ssr", feature = "ask-island")), component)]
fn PendingAsk() -> impl IntoView {
    browser::page_props::<AskProps>(ROOT_ID).map(|props| {
        let AskProps {
            id,
            request,
            posted,
            notify,
            lang,
            defaults_at,
        } = props;
        provide_context(lang);
        crate::mark_hydrated();
        // Read before the view hydrates; adopted once it has.
        let woken = Woken::read(ROOT_ID, &id, &request, posted.as_ref());
        let form = RwSignal::new(FormState::new(&id, &request, posted.as_ref()));
        if posted.is_some() {
            browser::save_draft(&form.with_untracked(FormState::saved));
        }
        woken.adopt_after_hydrating(form);
        let questions = request.questions().to_vec();
        let countdown = defaults_at.map(|at| view! { <Countdown at form/> });
        view! { {countdown} <LiveForm form questions notify/> }
    })
}

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
        let id = form.with_untracked(|s| s.ask_id().to_owned());
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

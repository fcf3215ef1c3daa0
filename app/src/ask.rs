//! The page where a human answers one ask: `/asks/{id}`.
//!
//! The page is server HTML; only a pending ask's [`PendingAsk`] island runs
//! in the browser. Its state is one [`FormState`] (from `askform`) in a
//! signal; the form itself is in [`form`], how an ask ended in
//! [`outcome`].

pub mod defaults;
mod deliveries;
pub mod field;
pub mod form;
mod live;
pub mod outcome;
mod problems;
mod session;

pub use live::{FormOrOutcome, LiveForm, Woken};

use crate::page_words::SpeakPage;
use crate::{
    browser,
    error::ServerError,
    form::Posted,
    i18n::{use_lang, Lang, Speak},
    rpc::AskPageData,
};
use askform::state::FormState;
use defaults::{Countdown, DefaultsNote};
use deliveries::Deliveries;
use form::question_name;
use interaction::{Ask, AskStatus, ValidRequest};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use outcome::Outcome;
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
        messages,
        message_refused,
    } = data;
    // Not inside another page: a dashboard embeds the form alone.
    // Once the ask has ended its agent has moved on: what was sent stays
    // in view, and nothing more is written.
    let open = ask.status == interaction::AskStatus::Pending;
    let session = (ask.listens && may_answer && !embed).then(|| {
        view! { <session::ToSession id=ask.id.clone() messages refused=message_refused open/> }
    });
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
        if let Some(name) = &ask.asked_by {
            parts.push((words.asked_with)(name));
        }
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
    let context = ask.request.context().map(|text| {
        view! {
            <figure class="agent-context">
                <figcaption>{words.agent_context}</figcaption>
                <blockquote dir="auto" tabindex="0">{text.to_owned()}</blockquote>
            </figure>
        }
    });
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
            {context}
            {note}
            {body}
            {session}
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

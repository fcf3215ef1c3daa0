//! The page where a human answers one ask: `/asks/{id}`.
//!
//! Server functions here are thin: they decode, call the [`desk`] the server
//! put in context (the same code path as the HTTP API) and map its errors.

use crate::{
    error::ServerError,
    form::{Posted, INTENT_FIELD, REASON_FIELD},
    i18n::{use_lang, Lang, Speak},
    question::QuestionField,
    short_time,
};
use interaction::{Answers, Ask, AskStatus, BatchDraft, Problem, Question, ValidRequest};
use leptos::{prelude::*, server_fn::codec::Json, task::spawn_local};
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};
use serde::{Deserialize, Serialize};

/// What the ask page needs to render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AskPageData {
    /// The ask.
    pub ask: Ask,
    /// A plain form post the server just refused, to show again.
    pub posted: Option<Posted>,
}

#[cfg(feature = "ssr")]
pub(crate) fn desk() -> Result<desk::Desk, ServerError> {
    use_context::<desk::Desk>().ok_or_else(|| {
        tracing::error!("no desk in the server function's context");
        ServerError::Internal
    })
}

/// The ask with this id, and a refused form post to show again, if any.
#[server(prefix = "/rpc", endpoint = "ask_load", input = Json)]
pub async fn load_ask(id: String) -> Result<AskPageData, ServerError> {
    let ask = desk()?.get(&id).await.map_err(ServerError::from_desk)?;
    let posted = use_context::<Posted>().filter(|p| p.ask_id == ask.id);
    Ok(AskPageData { ask, posted })
}

/// Answers the ask; the desk validates the answers against the stored request.
#[server(prefix = "/rpc", endpoint = "ask_answer", input = Json)]
pub async fn answer_ask(id: String, answers: Answers) -> Result<Ask, ServerError> {
    desk()?
        .answer(&id, &answers)
        .await
        .map_err(ServerError::from_desk)
}

/// Declines the ask, with an optional reason for the agent.
#[server(prefix = "/rpc", endpoint = "ask_decline", input = Json)]
pub async fn decline_ask(id: String, reason: String) -> Result<Ask, ServerError> {
    let decline = interaction::Decline {
        reason: Some(reason),
    };
    desk()?
        .decline(&id, decline)
        .await
        .map_err(ServerError::from_desk)
}

/// Sets the HTTP status of the page being rendered on the server.
fn page_status(_code: u16) {
    #[cfg(feature = "ssr")]
    if let (Some(response), Ok(status)) = (
        use_context::<leptos_axum::ResponseOptions>(),
        http::StatusCode::from_u16(_code),
    ) {
        response.set_status(status);
    }
}

/// The page at `/asks/{id}`.
#[component]
pub fn AskPage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let id = move || params.with(|p| p.get("id").unwrap_or_default());
    let embed = query.with_untracked(|q| q.get("embed").is_some_and(|v| v == "1"));
    let data = Resource::new(id, load_ask);
    view! {
        <Suspense fallback=move || view! { <p class="loading">{use_lang().t().loading}</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(data) => view! { <AskView data embed/> }.into_any(),
                    Err(ServerError::NotFound) => {
                        page_status(404);
                        view! { <NotFound/> }.into_any()
                    }
                    Err(e) => {
                        page_status(500);
                        view! {
                            <Title text="askdesk: error"/>
                            <h1>{use_lang().t().something_wrong}</h1>
                            <p class="error">{e.to_string()}</p>
                        }
                        .into_any()
                    }
                }
            })}
        </Suspense>
    }
}

#[component]
fn NotFound() -> impl IntoView {
    view! {
        <Title text="askdesk: no such ask"/>
        <h1>{use_lang().t().no_such_ask}</h1>
        <p>
            {use_lang().t().no_such_ask_text}
        </p>
        <p><a href="/">{use_lang().t().to_waiting}</a></p>
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
    let AskPageData { ask, posted } = data;
    // Whom an embedded page tells of the outcome: the configured origin only.
    let notify = if embed {
        use_context::<crate::PageConfig>().and_then(|c| c.embed_origin)
    } else {
        None
    };
    let lang = use_lang();
    let t = lang.t();
    let title = ask.title.clone().unwrap_or_else(|| t.untitled.to_owned());
    let meta = {
        let mut parts = Vec::new();
        let agent = ask.agent.clone().unwrap_or_else(|| t.an_agent.to_owned());
        parts.push((t.asked_by)(&agent));
        parts.push((t.asked_at)(&short_time(&ask.created_at)));
        if let (Some(expires), AskStatus::Pending) = (&ask.expires_at, ask.status) {
            parts.push((t.expires_at)(&short_time(expires)));
        }
        parts.join(" ")
    };
    let body = if ask.status.is_finished() {
        view! { <Outcome ask/> }.into_any()
    } else {
        view! { <PendingAsk ask posted notify lang/> }.into_any()
    };
    view! {
        <Title text=crate::tab_title(&title)/>
        <article class="ask-page" class:embed=embed>
            <header class="ask-header">
                <h1>{title}</h1>
                <p class="meta">{meta}</p>
            </header>
            {body}
        </article>
    }
}

/// A pending ask: the answering form, and its outcome once this page has
/// finished it. The one part of the page that runs in the browser.
#[island]
fn PendingAsk(
    /// The pending ask.
    ask: Ask,
    /// A refused form post whose input and problems to show.
    posted: Option<Posted>,
    /// In an iframe: the host origin to tell when the ask finishes.
    notify: Option<String>,
    /// The page's language.
    lang: Lang,
) -> impl IntoView {
    provide_context(lang);
    crate::mark_hydrated();
    let current = RwSignal::new(ask.clone());
    if let Some(origin) = notify {
        Effect::new(move |_| {
            let ask = current.get();
            if ask.status.is_finished() {
                tell_host(&ask, &origin);
            }
        });
    }
    let late = RwSignal::new(false);
    let unsent = RwSignal::new(Vec::<(String, String)>::new());
    let finished = Memo::new(move |_| current.with(|a| a.status.is_finished()));
    move || {
        if finished.get() {
            let note = late.get().then(|| {
                view! {
                    <p class="refused" role="alert">
                        {lang.t().ended_before}
                    </p>
                }
            });
            view! { {note} <Unsent texts=unsent.get()/> <Outcome ask=current.get()/> }.into_any()
        } else {
            view! { <AskForm ask=ask.clone() posted=posted.clone() current late unsent/> }
                .into_any()
        }
    }
}

/// What the human typed into an ask that ended meanwhile, kept visible
/// with a copy button rather than dropped.
#[component]
fn Unsent(
    /// Question names and the text typed for them.
    texts: Vec<(String, String)>,
) -> impl IntoView {
    (!texts.is_empty()).then(|| {
        let items = texts
            .into_iter()
            .map(|(name, text)| {
                let copy_text = text.clone();
                view! {
                    <li>
                        <p class="unsent-name">{name}</p>
                        <pre class="unsent-text">{text}</pre>
                        <button type="button" class="quiet" on:click=move |_| {
                            #[cfg(feature = "hydrate")]
                            browser::copy(&copy_text);
                            #[cfg(not(feature = "hydrate"))]
                            let _ = &copy_text;
                        }>{use_lang().t().copy}</button>
                    </li>
                }
            })
            .collect_view();
        view! {
            <section class="unsent" aria-labelledby="unsent-heading">
                <h2 id="unsent-heading">{use_lang().t().unsent_heading}</h2>
                <ul>{items}</ul>
            </section>
        }
    })
}

fn question_name(question: &Question, index: usize) -> String {
    question
        .header
        .clone()
        .unwrap_or_else(|| (use_lang().t().question_n)(index + 1))
}

/// The answering form of a pending ask.
#[component]
fn AskForm(
    /// The pending ask.
    ask: Ask,
    /// A refused form post whose input and problems to show.
    posted: Option<Posted>,
    /// Set to the ask as it ended, once it has.
    current: RwSignal<Ask>,
    /// Set when the ask had already ended (elsewhere) when this page sent.
    late: RwSignal<bool>,
    /// Set to the typed text when the ask ends while it is being answered.
    unsent: RwSignal<Vec<(String, String)>>,
) -> impl IntoView {
    let Ok(request) = ValidRequest::new(ask.request.clone()) else {
        return view! { <p class="error">{use_lang().t().invalid_questions}</p> }.into_any();
    };
    let mut initial = BatchDraft::new(&request);
    if let Some(posted) = &posted {
        posted.apply(&mut initial);
    }
    #[cfg(feature = "hydrate")]
    let posted_was_there = posted.is_some();
    let batch = RwSignal::new(initial);
    let problems = RwSignal::new(
        posted
            .as_ref()
            .map(|p| p.problems.clone())
            .unwrap_or_default(),
    );
    let reason = posted.map(|p| p.reason).unwrap_or_default();
    let reason_text = RwSignal::new(reason.clone());
    let failure = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    // Effects run in the browser only: until then (and without JavaScript)
    // the button stays enabled and the server checks the posted form.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    let blockers = Memo::new(move |_| batch.with(BatchDraft::blockers));
    #[cfg(not(feature = "hydrate"))]
    let _ = unsent;
    #[cfg(feature = "hydrate")]
    browser::keep_draft(&ask.id, batch, posted_was_there);
    #[cfg(feature = "hydrate")]
    {
        // The agent may withdraw the ask, or it may expire, while the human
        // types: show that at once, and keep what was typed.
        let id = ask.id.clone();
        browser::watch(&ask.id, move || {
            if busy.get_untracked() || current.with_untracked(|a| a.status.is_finished()) {
                return;
            }
            let typed = batch.with_untracked(|b| {
                b.drafts()
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| !d.custom().trim().is_empty())
                    .map(|(i, d)| (question_name(d.question(), i), d.custom().to_owned()))
                    .collect::<Vec<_>>()
            });
            let id = id.clone();
            spawn_local(async move {
                if let Ok(data) = load_ask(id).await {
                    if data.ask.status.is_finished() {
                        late.set(true);
                        unsent.set(typed);
                        current.set(data.ask);
                    }
                }
            });
        });
    }

    let settle = move |result: Result<Ask, ServerError>| {
        busy.set(false);
        match result {
            Ok(ask) => {
                #[cfg(feature = "hydrate")]
                browser::forget_draft(&ask.id);
                current.set(ask);
            }
            Err(ServerError::Finished(ask)) => {
                late.set(true);
                current.set(*ask);
            }
            Err(ServerError::Invalid(p)) => problems.set(p.0),
            Err(e) => failure.set(Some(e.to_string())),
        }
    };
    let id = ask.id.clone();
    let on_submit = {
        let id = id.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            if busy.get_untracked() || !blockers.with_untracked(Vec::is_empty) {
                return;
            }
            let answers = batch.with_untracked(BatchDraft::answers);
            busy.set(true);
            failure.set(None);
            let id = id.clone();
            spawn_local(async move { settle(answer_ask(id, answers).await) });
        }
    };
    let on_decline = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        failure.set(None);
        let id = id.clone();
        let reason = reason_text.get_untracked();
        spawn_local(async move { settle(decline_ask(id, reason).await) });
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
        .map(|(index, question)| {
            let qid = question.id.clone();
            let own = Signal::derive(move || {
                problems.with(|ps| {
                    ps.iter()
                        .filter(|p| p.question_id.as_deref() == Some(qid.as_str()))
                        .cloned()
                        .collect::<Vec<Problem>>()
                })
            });
            view! { <QuestionField batch index question problems=own/> }
        })
        .collect_view();
    let general_problems = move || {
        let general: Vec<Problem> = problems.with(|ps| {
            ps.iter()
                .filter(|p| p.question_id.is_none())
                .cloned()
                .collect()
        });
        (!general.is_empty()).then(|| {
            view! {
                <ul class="problems">
                    {general.into_iter().map(|p| view! { <li>{p.message}</li> }).collect_view()}
                </ul>
            }
        })
    };
    let refused = move || {
        problems.with(|p| !p.is_empty()).then(|| {
            view! {
                <p class="refused" role="alert">
                    {use_lang().t().refused}
                </p>
            }
        })
    };
    let blocker_list = move || {
        let blockers = blockers.get();
        (hydrated.get() && !blockers.is_empty()).then(|| {
            view! {
                <div class="blockers" id="blockers">
                    <p>{use_lang().t().blockers_intro}</p>
                    <ul>
                        {blockers
                            .into_iter()
                            .map(|b| {
                                let name = names.get(b.index).cloned().unwrap_or_default();
                                view! {
                                    <li>
                                        <a href=format!("#{}-legend", b.question_id)>{name}</a>
                                        ": "
                                        {use_lang().t().reason(&b.reason)}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </div>
            }
        })
    };
    let blocked = move || hydrated.get() && !blockers.with(Vec::is_empty);
    view! {
        <form class="ask" method="post" action=format!("/asks/{}", ask.id) on:submit=on_submit>
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
                    {use_lang().t().submit}
                </button>
                {blocker_list}
            </div>
            {move || failure.get().map(|f| view! { <p class="failure" role="alert">{f}</p> })}
            <details class="decline">
                <summary>{use_lang().t().decline_to_answer}</summary>
                <label for="decline-reason">{use_lang().t().decline_reason}</label>
                <textarea
                    id="decline-reason"
                    name=REASON_FIELD
                    rows="3"
                    prop:value=move || reason_text.get()
                    on:input=move |ev| reason_text.set(event_target_value(&ev))
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
                    {use_lang().t().decline}
                </button>
            </details>
        </form>
    }
    .into_any()
}

/// How a finished ask ended, read-only.
#[component]
fn Outcome(
    /// The finished ask.
    ask: Ask,
) -> impl IntoView {
    let finished = ask
        .finished_at
        .as_deref()
        .map(short_time)
        .unwrap_or_default();
    let t = use_lang().t();
    let (heading, line) = match ask.status {
        AskStatus::Answered => (t.answered, (t.answered_line)(&finished)),
        AskStatus::Declined => (t.declined, (t.declined_line)(&finished)),
        AskStatus::Cancelled => (t.withdrawn, (t.withdrawn_line)(&finished)),
        AskStatus::Expired => (t.expired, (t.expired_line)(&finished)),
        AskStatus::Pending => (t.waiting, String::new()),
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
            <h2 id="outcome-heading">{heading}</h2>
            <p role="status">{line}</p>
            {reason}
            {answers}
        </section>
        <p class="back"><a href="/">{t.back_to_waiting}</a></p>
    }
}

/// Posts `{type: "askdesk:finished", id, status, answers}` to the page
/// that embeds this one, for `origin` only.
fn tell_host(ask: &Ask, origin: &str) {
    let message = serde_json::json!({
        "type": "askdesk:finished",
        "id": ask.id,
        "status": ask.status,
        "answers": ask.answers.clone().unwrap_or_default(),
    });
    let Ok(parsed) = leptos::web_sys::js_sys::JSON::parse(&message.to_string()) else {
        return;
    };
    if let Ok(Some(parent)) = window().parent() {
        // A host at another origin gets nothing: the browser checks `origin`.
        let _ = parent.post_message(&parsed, origin);
    }
}

/// The browser side of the answering page: the draft kept in
/// sessionStorage, the ask's event stream, and the clipboard.
#[cfg(feature = "hydrate")]
mod browser {
    use crate::form::{Posted, PostedQuestion};
    use interaction::BatchDraft;
    use leptos::{
        prelude::*,
        wasm_bindgen::{closure::Closure, JsCast},
        web_sys,
    };

    fn key(id: &str) -> String {
        format!("askdesk:draft:{id}")
    }

    fn storage() -> Option<web_sys::Storage> {
        window().session_storage().ok().flatten()
    }

    /// Restores this ask's draft after a reload (unless the server just
    /// showed a refused post), and saves every change, per ask and question.
    pub fn keep_draft(id: &str, batch: RwSignal<BatchDraft>, posted_was_there: bool) {
        let key = key(id);
        let restore_key = key.clone();
        let ask_id = id.to_owned();
        Effect::new(move |done: Option<()>| {
            if done.is_some() || posted_was_there {
                return;
            }
            let saved = storage()
                .and_then(|s| s.get_item(&restore_key).ok().flatten())
                .and_then(|json| serde_json::from_str::<Posted>(&json).ok())
                .filter(|p| p.ask_id == ask_id);
            if let Some(saved) = saved {
                batch.update(|b| saved.apply(b));
            }
        });
        let ask_id = id.to_owned();
        Effect::new(move |_| {
            let snapshot = batch.with(|b| Posted {
                ask_id: ask_id.clone(),
                questions: b
                    .drafts()
                    .iter()
                    .map(|d| PostedQuestion {
                        id: d.question().id.clone(),
                        selected: d.checked_labels().map(str::to_owned).collect(),
                        custom: d.custom().to_owned(),
                    })
                    .collect(),
                reason: String::new(),
                problems: Vec::new(),
            });
            if let (Some(storage), Ok(json)) = (storage(), serde_json::to_string(&snapshot)) {
                let _ = storage.set_item(&key, &json);
            }
        });
    }

    /// Forgets the draft of an ask that has been answered.
    pub fn forget_draft(id: &str) {
        if let Some(storage) = storage() {
            let _ = storage.remove_item(&key(id));
        }
    }

    /// Calls `on_end` when the ask's stream says it has finished.
    pub fn watch(id: &str, on_end: impl Fn() + 'static) {
        let Ok(source) = web_sys::EventSource::new(&format!("/asks/{id}/events")) else {
            return;
        };
        let on_ask = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                let finished = event
                    .data()
                    .as_string()
                    .and_then(|d| serde_json::from_str::<serde_json::Value>(&d).ok())
                    .and_then(|v| v["ask"]["status"].as_str().map(|s| s != "pending"))
                    .unwrap_or(false);
                if finished {
                    on_end();
                }
            },
        );
        let _ = source.add_event_listener_with_callback("ask", on_ask.as_ref().unchecked_ref());
        on_ask.forget();
        let source = send_wrapper::SendWrapper::new(source);
        on_cleanup(move || source.close());
    }

    /// Puts `text` on the clipboard.
    pub fn copy(text: &str) {
        let promise = window().navigator().clipboard().write_text(text);
        leptos::task::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        });
    }
}

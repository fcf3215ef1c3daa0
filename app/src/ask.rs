//! The page where a human answers one ask: `/asks/{id}`.
//!
//! Server functions here are thin: they decode, call the [`desk`] the server
//! put in context (the same code path as the HTTP API) and map its errors.

use crate::{
    error::ServerError,
    form::{Posted, INTENT_FIELD, REASON_FIELD},
    question::QuestionField,
    short_time,
};
use interaction::{Answers, Ask, AskStatus, BatchDraft, Problem, Question, ValidRequest};
use leptos::{prelude::*, server_fn::codec::Json, task::spawn_local};
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;
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
    let id = move || params.with(|p| p.get("id").unwrap_or_default());
    let data = Resource::new(id, load_ask);
    view! {
        <Suspense fallback=|| view! { <p class="loading">"Loading the questions…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(data) => view! { <AskView data/> }.into_any(),
                    Err(ServerError::NotFound) => {
                        page_status(404);
                        view! { <NotFound/> }.into_any()
                    }
                    Err(e) => {
                        page_status(500);
                        view! {
                            <Title text="askdesk: error"/>
                            <h1>"Something went wrong"</h1>
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
        <h1>"No ask at this address"</h1>
        <p>
            "The link may be mistyped or cut short. Ask links are long on purpose: "
            "they are the only key to the questions."
        </p>
        <p><a href="/">"See the waiting asks"</a></p>
    }
}

/// An ask: its form while pending, its outcome once finished.
#[component]
pub fn AskView(
    /// The ask and a refused form post, as loaded.
    data: AskPageData,
) -> impl IntoView {
    let AskPageData { ask, posted } = data;
    let title = ask
        .title
        .clone()
        .unwrap_or_else(|| "Questions from your agent".to_owned());
    let meta = {
        let mut parts = Vec::new();
        if let Some(agent) = &ask.agent {
            parts.push(format!("Asked by {agent}"));
        } else {
            parts.push("Asked".to_owned());
        }
        parts.push(format!("at {}", short_time(&ask.created_at)));
        if let (Some(expires), AskStatus::Pending) = (&ask.expires_at, ask.status) {
            parts.push(format!("· expires at {}", short_time(expires)));
        }
        parts.join(" ")
    };
    let body = if ask.status.is_finished() {
        view! { <Outcome ask/> }.into_any()
    } else {
        view! { <PendingAsk ask posted/> }.into_any()
    };
    view! {
        <Title text=crate::tab_title(&title)/>
        <article class="ask-page">
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
) -> impl IntoView {
    crate::mark_hydrated();
    let current = RwSignal::new(ask.clone());
    let late = RwSignal::new(false);
    let finished = Memo::new(move |_| current.with(|a| a.status.is_finished()));
    move || {
        if finished.get() {
            let note = late.get().then(|| {
                view! {
                    <p class="refused" role="alert">
                        "This ask ended before your answers arrived, so they were not sent. "
                        "Here is how it ended."
                    </p>
                }
            });
            view! { {note} <Outcome ask=current.get()/> }.into_any()
        } else {
            view! { <AskForm ask=ask.clone() posted=posted.clone() current late/> }.into_any()
        }
    }
}

fn question_name(question: &Question, index: usize) -> String {
    question
        .header
        .clone()
        .unwrap_or_else(|| format!("Question {}", index + 1))
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
) -> impl IntoView {
    let Ok(request) = ValidRequest::new(ask.request.clone()) else {
        return view! { <p class="error">"This ask's questions are invalid."</p> }.into_any();
    };
    let mut initial = BatchDraft::new(&request);
    if let Some(posted) = &posted {
        posted.apply(&mut initial);
    }
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

    let settle = move |result: Result<Ask, ServerError>| {
        busy.set(false);
        match result {
            Ok(ask) => current.set(ask),
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
                    "The answers were not accepted. The problems are shown next to their questions."
                </p>
            }
        })
    };
    let blocker_list = move || {
        let blockers = blockers.get();
        (hydrated.get() && !blockers.is_empty()).then(|| {
            view! {
                <div class="blockers" id="blockers">
                    <p>"Submit becomes available once every question is answered:"</p>
                    <ul>
                        {blockers
                            .into_iter()
                            .map(|b| {
                                let name = names.get(b.index).cloned().unwrap_or_default();
                                view! {
                                    <li>
                                        <a href=format!("#{}-legend", b.question_id)>{name}</a>
                                        ": "
                                        {b.reason.to_string()}
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
                    "Submit answers"
                </button>
                {blocker_list}
            </div>
            {move || failure.get().map(|f| view! { <p class="failure" role="alert">{f}</p> })}
            <details class="decline">
                <summary>"Decline to answer"</summary>
                <label for="decline-reason">"Reason for the agent (optional)"</label>
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
                    "Decline"
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
    let (heading, line) = match ask.status {
        AskStatus::Answered => (
            "Answered",
            format!("Your answers reached the agent at {finished}."),
        ),
        AskStatus::Declined => ("Declined", format!("You declined to answer at {finished}.")),
        AskStatus::Cancelled => (
            "Withdrawn",
            format!("The agent withdrew these questions at {finished}; they need no answer."),
        ),
        AskStatus::Expired => (
            "Expired",
            format!("These questions expired unanswered at {finished}."),
        ),
        AskStatus::Pending => ("Waiting", String::new()),
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
            <p class="reason">"Your reason: " <q>{r}</q></p>
        }
    });
    view! {
        <section class="outcome" aria-labelledby="outcome-heading">
            <h2 id="outcome-heading">{heading}</h2>
            <p role="status">{line}</p>
            {reason}
            {answers}
        </section>
        <p><a href="/">"Back to the waiting asks"</a></p>
    }
}

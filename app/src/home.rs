//! The desk's front page, `/`: the asks waiting for an answer.

use crate::{error::ServerError, short_time};
use interaction::AskSummary;
use leptos::{prelude::*, server_fn::codec::Json};
use leptos_meta::Title;
use serde::{Deserialize, Serialize};

/// What the front page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    /// The pending asks, newest first.
    pub asks: Vec<AskSummary>,
    /// Where agents reach this server, for the how-to in the empty state.
    pub public_url: String,
}

/// The pending asks, newest first.
#[server(prefix = "/rpc", endpoint = "list_asks", input = Json)]
pub async fn list_pending() -> Result<Pending, ServerError> {
    let desk = crate::ask::desk()?;
    let asks = desk
        .list(Some(interaction::AskStatus::Pending))
        .await
        .map_err(ServerError::from_desk)?;
    Ok(Pending {
        asks,
        public_url: desk.public_url().to_owned(),
    })
}

/// The page at `/`.
#[component]
pub fn HomePage() -> impl IntoView {
    let asks = Resource::new(|| (), |()| list_pending());
    view! {
        <Title text="askdesk"/>
        <header class="site">
            <h1>"askdesk"</h1>
            <p>"Questions from your agents, answered here."</p>
        </header>
        <section aria-labelledby="waiting-heading">
            <h2 id="waiting-heading">"Waiting for you"</h2>
            <Suspense fallback=|| view! { <p class="loading">"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match asks.await {
                        Ok(Pending { asks, public_url }) if asks.is_empty() => {
                            view! { <EmptyDesk public_url/> }.into_any()
                        }
                        Ok(Pending { asks, .. }) => view! { <AskList asks/> }.into_any(),
                        Err(e) => view! { <p class="error">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn AskList(
    /// The asks to list, in order.
    asks: Vec<AskSummary>,
) -> impl IntoView {
    let items = asks
        .into_iter()
        .map(|ask| {
            let title = ask
                .title
                .clone()
                .unwrap_or_else(|| "Questions from your agent".to_owned());
            let count = match ask.question_count {
                1 => "1 question".to_owned(),
                n => format!("{n} questions"),
            };
            let agent = ask.agent.clone().unwrap_or_else(|| "An agent".to_owned());
            let expires = ask
                .expires_at
                .as_deref()
                .map(|at| format!(" · expires {}", short_time(at)));
            view! {
                <li class="ask-item">
                    <a href=format!("/asks/{}", ask.id)>{title}</a>
                    <p class="meta">
                        {agent} " · " {count} " · asked "
                        <time datetime=ask.created_at.clone()>{short_time(&ask.created_at)}</time>
                        {expires}
                    </p>
                </li>
            }
        })
        .collect_view();
    view! { <ul class="asks">{items}</ul> }
}

#[component]
fn EmptyDesk(
    /// Where agents reach this server.
    public_url: String,
) -> impl IntoView {
    let example = format!(
        "curl -s -X POST {public_url}/api/v1/asks \\\n  -H 'content-type: application/json' \\\n  \
         -d '{{\"title\": \"Try askdesk\", \"questions\": [{{\"id\": \"color\", \
         \"question\": \"Pick a colour\", \"options\": [{{\"label\": \"Blue\"}}, \
         {{\"label\": \"Green\"}}]}}]}}'"
    );
    view! {
        <div class="empty">
            <p><strong>"No questions are waiting."</strong></p>
            <p>
                "When an agent asks through MCP or the HTTP API, its questions appear here; "
                "reload the page to check. Each ask also has its own link, which the agent is given."
            </p>
            <p>"To try it, ask yourself something from a terminal:"</p>
            <pre><code>{example}</code></pre>
        </div>
    }
}

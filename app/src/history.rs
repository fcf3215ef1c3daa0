//! Every ask, `/history`: a search form (text, agent, status) and 50 asks a
//! page, newest first, with a link to the older ones. Plain server HTML:
//! the form is a GET, so it works without JavaScript, and the page loads
//! no script at all.

use crate::page_words::SpeakPage;
use crate::{
    home::AskItem,
    i18n::{use_lang, Speak},
    rpc::{search_history, HistoryData, Retention},
    PageLoad,
};
use interaction::AskStatus;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

/// The page at `/history`.
#[component]
pub fn HistoryPage() -> impl IntoView {
    let query = use_query_map();
    let param = |name: &str| query.with_untracked(|q| q.get(name).unwrap_or_default());
    let (status, agent, text, cursor) =
        (param("status"), param("agent"), param("q"), param("cursor"));
    let data: PageLoad<HistoryData> = Box::pin(search_history(
        status.clone(),
        agent.clone(),
        text.clone(),
        cursor,
    ));
    let t = use_lang().t();
    let words = use_lang().page();
    let now = crate::browser::use_now();
    let status_option = {
        let chosen = status.clone();
        move |s: AskStatus| {
            view! { <option value=s.as_str() selected=chosen == s.as_str()>{t.status(s)}</option> }
        }
    };
    let older_link = move |older: String| {
        let mut parts = vec![format!("cursor={}", encode(&older))];
        for (name, value) in [("status", &status), ("agent", &agent), ("q", &text)] {
            if !value.is_empty() {
                parts.push(format!("{name}={}", encode(value)));
            }
        }
        format!("/history?{}", parts.join("&"))
    };
    view! {
        <Title text=format!("askdesk: {}", words.all_asks)/>
        <h1>{words.all_asks}</h1>
        <p><a href="/">{words.to_waiting}</a></p>
        <form method="get" action="/history" class="search" role="search">
            <label>{words.search_text} " " <input type="search" name="q" value=param("q")/></label>
            " "
            <label>{words.search_agent} " " <input type="text" name="agent" value=param("agent")/></label>
            " "
            <label>
                {t.show} " "
                <select name="status">
                    <option value="">{t.everything}</option>
                    {AskStatus::ALL.into_iter().map(status_option).collect_view()}
                </select>
            </label>
            " "
            <button type="submit">{words.search}</button>
        </form>
        <Suspense fallback=move || view! { <p class="loading">{words.loading}</p> }>
            {Suspend::new(async move {
                let kept = |retention: Option<Retention>| {
                    retention.map(|r| {
                        view! { <p class="retention">{(words.retention)(r.keep_secs, r.removed)}</p> }
                    })
                };
                match data.await {
                    Ok(HistoryData { asks, older, retention }) if asks.is_empty() && older.is_none() => {
                        view! { <p class="empty-history">{words.no_matches}</p> {kept(retention)} }
                            .into_any()
                    }
                    Ok(HistoryData { asks, older, retention }) => {
                        let items = asks
                            .into_iter()
                            .map(|ask| view! { <AskItem ask now for_you=false/> })
                            .collect_view();
                        let older = older.map(|older| {
                            view! { <p class="older"><a href=older_link(older) rel="next">{words.older}</a></p> }
                        });
                        view! { <ul class="asks history" id="history">{items}</ul> {older} {kept(retention)} }
                            .into_any()
                    }
                    Err(e) => view! { <p class="error">{t.server_error(&e)}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// A query string value, percent-encoded.
fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

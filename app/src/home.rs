//! The desk's front page, `/`: pending asks from every agent, newest first,
//! and the history below, kept current by the server's event stream.

use crate::{
    error::ServerError,
    i18n::{use_lang, Lang, Speak},
    short_time,
};
use interaction::{AskStatus, AskSummary};
use leptos::{prelude::*, server_fn::codec::Json};
use leptos_meta::Title;
use serde::{Deserialize, Serialize};

/// How many finished asks the history shows.
pub const HISTORY: usize = 100;

/// What the front page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeskData {
    /// The pending asks, newest first.
    pub pending: Vec<AskSummary>,
    /// The latest finished asks, newest first.
    pub history: Vec<AskSummary>,
    /// The event number the lists are current to.
    pub version: u64,
    /// Where agents reach this server, for the how-to in the empty state.
    pub public_url: String,
}

/// The pending asks and the recent history.
#[server(prefix = "/rpc", endpoint = "list_asks", input = Json)]
pub async fn list_desk() -> Result<DeskData, ServerError> {
    let desk = crate::ask::desk()?;
    // Read the version first: anything after it comes through the stream.
    let version = desk.version();
    let pending = desk
        .list(Some(AskStatus::Pending))
        .await
        .map_err(ServerError::from_desk)?;
    // The newest asks of any status, finished ones kept for the history.
    let history = desk
        .list(None)
        .await
        .map_err(ServerError::from_desk)?
        .into_iter()
        .filter(|a| a.status != AskStatus::Pending)
        .take(HISTORY)
        .collect();
    Ok(DeskData {
        pending,
        history,
        version,
        public_url: desk.public_url().to_owned(),
    })
}

/// The page at `/`.
#[component]
pub fn HomePage() -> impl IntoView {
    let data = Resource::new(|| (), |()| list_desk());
    let lang = use_lang();
    let t = lang.t();
    view! {
        <Title text="askdesk"/>
        <header class="site">
            <h1>"askdesk"</h1>
            <p>{t.tagline}</p>
        </header>
        <Suspense fallback=move || view! { <p class="loading">{t.loading}</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(DeskData { pending, history, version, public_url }) => {
                        view! { <LiveDesk pending history version public_url lang/> }.into_any()
                    }
                    Err(e) => view! { <p class="error">{e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// Milliseconds since the Unix epoch of an RFC 3339 UTC time
/// (`2026-11-30T11:20:00.000Z`), as the API writes them.
pub fn parse_time(rfc3339: &str) -> Option<i64> {
    let num = |range: std::ops::Range<usize>| rfc3339.get(range)?.parse::<i64>().ok();
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let millis = num(20..23).unwrap_or(0);
    // Days from civil (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis)
}

/// Now, in milliseconds since the Unix epoch.
fn now_ms() -> i64 {
    #[cfg(feature = "hydrate")]
    {
        // Whole milliseconds fit an i64 for the next 290 million years.
        #[allow(clippy::cast_possible_truncation)]
        let now = leptos::web_sys::js_sys::Date::now() as i64;
        now
    }
    #[cfg(not(feature = "hydrate"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    }
}

/// The status of an ask, for people.
fn status_word(lang: Lang, status: AskStatus) -> &'static str {
    let t = lang.t();
    match status {
        AskStatus::Pending => t.waiting,
        AskStatus::Answered => t.answered,
        AskStatus::Declined => t.declined,
        AskStatus::Cancelled => t.withdrawn,
        AskStatus::Expired => t.expired,
    }
}

/// Puts an ask's new state into the lists: a new pending ask on top of the
/// pending list; a finished one out of it and on top of the history.
pub fn apply(pending: &mut Vec<AskSummary>, history: &mut Vec<AskSummary>, ask: AskSummary) {
    pending.retain(|a| a.id != ask.id);
    history.retain(|a| a.id != ask.id);
    if ask.status == AskStatus::Pending {
        pending.insert(0, ask);
    } else {
        history.insert(0, ask);
        history.truncate(HISTORY);
    }
}

/// The live desk: both lists, updated from `GET /api/v1/events` without a
/// reload, with browser notifications on request.
#[island]
fn LiveDesk(
    /// The pending asks when the page was made.
    pending: Vec<AskSummary>,
    /// The finished asks when the page was made.
    history: Vec<AskSummary>,
    /// The event number those lists are current to.
    version: u64,
    /// Where agents reach this server.
    public_url: String,
    /// The page's language.
    lang: Lang,
) -> impl IntoView {
    provide_context(lang);
    let t = lang.t();
    crate::mark_hydrated();
    let pending = RwSignal::new(pending);
    let history = RwSignal::new(history);
    let filter = RwSignal::new(String::new());
    let now = RwSignal::new(now_ms());
    let notify = RwSignal::new(false);
    #[cfg(feature = "hydrate")]
    live::connect(pending, history, version, notify, now, lang);
    #[cfg(not(feature = "hydrate"))]
    let _ = version;

    let pending_list = move || {
        let asks = pending.get();
        if asks.is_empty() {
            return view! { <EmptyDesk public_url=public_url.clone()/> }.into_any();
        }
        let items = asks
            .into_iter()
            .map(|ask| view! { <AskItem ask now/> })
            .collect_view();
        view! { <ul class="asks" id="pending">{items}</ul> }.into_any()
    };
    let history_list = move || {
        let wanted = filter.get();
        let items: Vec<_> = history
            .get()
            .into_iter()
            .filter(|a| wanted.is_empty() || a.status.as_str() == wanted)
            .map(|ask| view! { <AskItem ask now/> })
            .collect();
        if items.is_empty() {
            view! { <p class="empty-history">{t.nothing_yet}</p> }.into_any()
        } else {
            view! { <ul class="asks history" id="history">{items}</ul> }.into_any()
        }
    };
    let notify_button = move || {
        (!notify.get()).then(|| {
            view! {
                <button type="button" class="quiet" on:click=move |_| {
                    #[cfg(feature = "hydrate")]
                    live::ask_permission(notify);
                }>
                    {t.notify_me}
                </button>
            }
        })
    };
    view! {
        <section aria-labelledby="waiting-heading">
            <div class="section-head">
                <h2 id="waiting-heading">
                    {t.waiting_for_you}
                    <span class="count">{move || pending.with(Vec::len)}</span>
                </h2>
                {notify_button}
            </div>
            {pending_list}
        </section>
        <section aria-labelledby="history-heading">
            <div class="section-head">
                <h2 id="history-heading">{t.history}</h2>
                <label class="filter">
                    {t.show}
                    <select on:change=move |ev| filter.set(event_target_value(&ev))>
                        <option value="">{t.everything}</option>
                        <option value="answered">{t.answered}</option>
                        <option value="declined">{t.declined}</option>
                        <option value="cancelled">{t.withdrawn}</option>
                        <option value="expired">{t.expired}</option>
                    </select>
                </label>
            </div>
            {history_list}
        </section>
    }
}

#[component]
fn AskItem(
    /// The ask.
    ask: AskSummary,
    /// Now, for ages and countdowns.
    now: RwSignal<i64>,
) -> impl IntoView {
    let lang = use_lang();
    let t = lang.t();
    let title = ask.title.clone().unwrap_or_else(|| t.untitled.to_owned());
    let count = (t.questions)(ask.question_count);
    let agent = ask.agent.clone().unwrap_or_else(|| t.an_agent.to_owned());
    let created = parse_time(&ask.created_at);
    let age = move || {
        created
            .map(|c| (t.ago)(&(t.span)(now.get() - c)))
            .unwrap_or_default()
    };
    let expires = ask.expires_at.as_deref().and_then(parse_time);
    let pending = ask.status == AskStatus::Pending;
    let countdown = move || {
        let at = expires.filter(|_| pending)?;
        Some((t.expires_in)(&(t.span)(at - now.get())))
    };
    let status = (!pending).then(|| {
        view! { <span class=format!("status {}", ask.status.as_str())>{status_word(lang, ask.status)}</span> " · " }
    });
    view! {
        <li class="ask-item" data-id=ask.id.clone()>
            <a href=format!("/asks/{}", ask.id)>{title}</a>
            <p class="meta">
                {status}
                {agent} " · " {count} {t.asked}
                <time datetime=ask.created_at.clone() title=short_time(&ask.created_at)>{age}</time>
                {countdown}
            </p>
        </li>
    }
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
    let t = use_lang().t();
    view! {
        <div class="empty">
            <p><strong>{t.empty_title}</strong></p>
            <p>{t.empty_text}</p>
            <p>{t.empty_try}</p>
            <pre><code>{example}</code></pre>
        </div>
    }
}

/// The browser side: the event stream, the tab title, notifications and
/// the clock.
#[cfg(feature = "hydrate")]
mod live {
    use super::apply;
    use crate::i18n::Speak;
    use interaction::{AskStatus, AskSummary};
    use leptos::{
        prelude::*,
        wasm_bindgen::{closure::Closure, JsCast},
        web_sys,
    };
    use std::time::Duration;

    #[derive(serde::Deserialize)]
    struct AskEvent {
        ask: AskSummary,
    }

    pub fn connect(
        pending: RwSignal<Vec<AskSummary>>,
        history: RwSignal<Vec<AskSummary>>,
        version: u64,
        notify: RwSignal<bool>,
        now: RwSignal<i64>,
        lang: crate::i18n::Lang,
    ) {
        set_interval(move || now.set(super::now_ms()), Duration::from_secs(1));
        notify.set(web_sys::Notification::permission() == web_sys::NotificationPermission::Granted);
        // The tab title says how many asks wait.
        Effect::new(move |_| {
            let n = pending.with(Vec::len);
            let title = if n == 0 {
                "askdesk".to_owned()
            } else {
                format!("({n}) askdesk")
            };
            document().set_title(&title);
        });
        let Ok(source) = web_sys::EventSource::new(&format!("/api/v1/events?after={version}"))
        else {
            return;
        };
        let on_ask = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                let Some(data) = event.data().as_string() else {
                    return;
                };
                let Ok(AskEvent { ask }) = serde_json::from_str(&data) else {
                    return;
                };
                if ask.status == AskStatus::Pending && notify.get_untracked() && document().hidden()
                {
                    let t = lang.t();
                    let title = ask
                        .title
                        .clone()
                        .unwrap_or_else(|| t.new_ask_notification.to_owned());
                    let options = web_sys::NotificationOptions::new();
                    options.set_body(&ask.agent.clone().unwrap_or_else(|| t.an_agent.to_owned()));
                    let _ = web_sys::Notification::new_with_options(&title, &options);
                }
                let (mut p, mut h) = (pending.get_untracked(), history.get_untracked());
                apply(&mut p, &mut h, ask);
                pending.set(p);
                history.set(h);
            },
        );
        let _ = source.add_event_listener_with_callback("ask", on_ask.as_ref().unchecked_ref());
        on_ask.forget();
        // Fell behind, or the server restarted: read the lists afresh.
        let on_reset = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_| {
            leptos::task::spawn_local(async move {
                if let Ok(data) = super::list_desk().await {
                    pending.set(data.pending);
                    history.set(data.history);
                }
            });
        });
        let _ = source.add_event_listener_with_callback("reset", on_reset.as_ref().unchecked_ref());
        on_reset.forget();
        std::mem::forget(source);
    }

    pub fn ask_permission(notify: RwSignal<bool>) {
        let Ok(promise) = web_sys::Notification::request_permission() else {
            return;
        };
        leptos::task::spawn_local(async move {
            let granted = wasm_bindgen_futures::JsFuture::from(promise)
                .await
                .ok()
                .and_then(|v| v.as_string())
                .is_some_and(|v| v == "granted");
            notify.set(granted);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_to_epoch_milliseconds() {
        assert_eq!(parse_time("1970-01-01T00:00:00.000Z"), Some(0));
        assert_eq!(
            parse_time("2026-12-01T11:16:18.042Z"),
            Some(1_796_123_778_042)
        );
        assert_eq!(
            parse_time("2000-02-29T12:00:00.500Z"),
            Some(951_825_600_500)
        );
        assert_eq!(parse_time("soon"), None);
    }

    #[test]
    fn spans_read_naturally_in_both_languages() {
        let (en, zh) = (Lang::En.t().span, Lang::Zh.t().span);
        assert_eq!(en(45_000), "45 s");
        assert_eq!(en(180_000), "3 min");
        assert_eq!(en(7_500_000), "2 h 5 min");
        assert_eq!(en(-5), "0 s");
        assert_eq!(zh(7_500_000), "2 小时 5 分钟");
    }

    fn summary(id: &str, status: AskStatus) -> AskSummary {
        AskSummary {
            id: id.to_owned(),
            url: String::new(),
            title: None,
            agent: None,
            status,
            created_at: String::new(),
            expires_at: None,
            question_count: 1,
        }
    }

    #[test]
    fn events_move_asks_between_the_lists_without_duplicates() {
        let (mut pending, mut history) = (vec![summary("a", AskStatus::Pending)], vec![]);
        apply(&mut pending, &mut history, summary("b", AskStatus::Pending));
        apply(&mut pending, &mut history, summary("b", AskStatus::Pending));
        assert_eq!(
            pending.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(),
            ["b", "a"]
        );
        apply(
            &mut pending,
            &mut history,
            summary("a", AskStatus::Answered),
        );
        apply(
            &mut pending,
            &mut history,
            summary("a", AskStatus::Answered),
        );
        assert_eq!(pending.len(), 1);
        assert_eq!(
            history.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(),
            ["a"]
        );
    }
}

//! The desk's front page, `/`: pending asks from every agent, newest first,
//! and the history below, kept current by the server's event stream.
//!
//! The lists are one [`lists::Lists`] value, changed only by its `apply`;
//! times come from [`crate::time`], the server function from
//! [`crate::rpc`].

pub mod lists;
mod live;

use crate::page_words::SpeakPage;
use crate::{
    browser,
    i18n::{use_lang, Lang, Speak},
    rpc::{list_desk, DeskData},
    PageLoad,
};
use interaction::{AskStatus, AskSummary, Timestamp};
use leptos::prelude::*;
use leptos_meta::Title;
use lists::Lists;

/// The page at `/`.
#[component]
pub fn HomePage() -> impl IntoView {
    // Read while the server renders, never serialized into the page: only
    // the island's props cross into the browser.
    let data: PageLoad<DeskData> = Box::pin(list_desk());
    let lang = use_lang();
    let t = lang.t();
    let words = lang.page();
    view! {
        <Title text="askdesk"/>
        <header class="site">
            <h1>"askdesk"</h1>
            <p>{words.tagline}</p>
        </header>
        <PushSubscribe/>
        <Suspense fallback=move || view! { <p class="loading">{words.loading}</p> }>
            {Suspend::new(async move {
                match data.await {
                    Ok(DeskData { pending, history, version, public_url, me }) => {
                        let props = DeskProps { pending, history, version, public_url, me, lang };
                        // The island reads its props from here in the
                        // browser (Leptos escapes the attribute), and from
                        // the context on the server.
                        let json = serde_json::to_string(&props).unwrap_or_default();
                        provide_context(props);
                        view! {
                            <div id=DESK_ID data-props=json><LiveDesk/></div>
                            <crate::IslandScripts bundle=crate::Bundle::Desk/>
                            <crate::PrefetchBundle bundle=crate::Bundle::Ask/>
                            <p class="older">
                                <a href="/history">{words.search_all}</a>
                                " · "
                                <a href="/phone">{words.phone_link}</a>
                            </p>
                        }
                        .into_any()
                    }
                    Err(e) => view! { <p class="error">{t.server_error(&e)}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// "Notify this device" (Web Push), when the server pushes: a plain
/// script (`public/push.js`) does the subscribing, so the island's bundle
/// carries none of it. Rendered hidden; the script shows it where the
/// browser can subscribe.
#[component]
fn PushSubscribe() -> impl IntoView {
    let on = use_context::<crate::PageConfig>().is_some_and(|c| c.web_push);
    let words = use_lang().page();
    on.then(|| {
        view! {
            <p class="push">
                <button type="button" id="push-subscribe" class="quiet" hidden
                    data-subscribed=words.push_subscribed data-denied=words.push_denied
                    data-failed=words.push_failed data-unsupported=words.push_unsupported>
                    {words.notify_device}
                </button>
                " "
                <span id="push-state" role="status"></span>
            </p>
            <script type="module" src="/push.js"></script>
        }
    })
}

/// The element id around the live desk, which carries its props.
const DESK_ID: &str = "live-desk";

/// The history's filter by status.
const FILTER_ID: &str = "history-filter";

/// What the desk's island starts from.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct DeskProps {
    /// The pending asks when the page was made.
    pending: Vec<AskSummary>,
    /// The finished asks when the page was made.
    history: Vec<AskSummary>,
    /// The event number those lists are current to.
    version: u64,
    /// Where agents reach this server.
    public_url: String,
    /// The signed-in person: asks for them come first.
    me: Option<String>,
    /// The page's language.
    lang: Lang,
}

/// The live desk: both lists, updated from `GET /api/v1/events` without a
/// reload, with browser notifications on request. In the browser it runs
/// from the `desk` bundle (feature `desk-island`), reading its props with
/// the browser's own JSON parser ([`crate::browser::page_props`]).
#[cfg_attr(any(feature = "ssr", feature = "desk-island"), island)]
#[cfg_attr(not(any(feature = "ssr", feature = "desk-island")), component)]
fn LiveDesk() -> impl IntoView {
    browser::page_props::<DeskProps>(DESK_ID).map(live_desk)
}

fn live_desk(props: DeskProps) -> impl IntoView {
    let DeskProps {
        pending,
        history,
        version,
        public_url,
        me,
        lang,
    } = props;
    provide_context(lang);
    let t = lang.t();
    crate::mark_hydrated();
    let lists = RwSignal::new(Lists { pending, history });
    // A filter chosen before the script arrived is the one the list shows,
    // from right after the island has hydrated the list the server rendered.
    let filter = RwSignal::new(None::<AskStatus>);
    if let Some(chosen) = browser::value_of(FILTER_ID).and_then(|v| AskStatus::parse(&v)) {
        leptos::task::spawn_local(async move { filter.set(Some(chosen)) });
    }
    let now = browser::use_now();
    let notify = RwSignal::new(browser::notifications_allowed());
    let waiting = Memo::new(move |_| lists.with(|l| l.pending.len()));
    // The tab title says how many asks wait.
    Effect::new(move |_| {
        let title = match waiting.get() {
            0 => "askdesk".to_owned(),
            n => format!("({n}) askdesk"),
        };
        browser::set_tab_title(&title);
    });
    live::use_desk_events(lists, notify, version, t);
    view! {
        <section aria-labelledby="waiting-heading">
            <div class="section-head">
                <h2 id="waiting-heading">
                    {t.waiting_for_you}
                    <span class="count">{waiting}</span>
                </h2>
                <live::NotifyButton notify/>
            </div>
            <live::PendingList lists me now public_url/>
        </section>
        <section aria-labelledby="history-heading">
            <div class="section-head">
                <h2 id="history-heading">{t.history}</h2>
                <live::HistoryFilter filter/>
            </div>
            <live::HistoryList lists filter now/>
        </section>
    }
}

/// One ask in a list: its title linked to its page, who asked, when, and
/// (while pending) when it expires.
#[component]
pub(crate) fn AskItem(
    /// The ask.
    ask: AskSummary,
    /// Now, for ages and countdowns.
    now: ReadSignal<i64>,
    /// Whether it is for the signed-in person.
    for_you: bool,
) -> impl IntoView {
    let lang = use_lang();
    let t = lang.t();
    let title = ask.title.clone().unwrap_or_else(|| t.untitled.to_owned());
    let count = (t.questions)(ask.question_count);
    let agent = ask.agent.clone().unwrap_or_else(|| t.an_agent.to_owned());
    // Whose token made it, when that says more than the agent's own name
    // (one text: the desk's bundle carries no view more for it).
    let agent = match &ask.asked_by {
        Some(name) if *name != agent => format!("{agent} ({name})"),
        _ => agent,
    };
    let created = ask.created_at.ms();
    let age = move || (t.ago)(&(t.span)(now.get() - created));
    let expires = ask.expires_at.map(Timestamp::ms);
    let pending = ask.status == AskStatus::Pending;
    let countdown = move || {
        let at = expires.filter(|_| pending)?;
        Some((t.expires_in)(&(t.span)(at - now.get())))
    };
    // The ask's page has the box that writes into the agent's session.
    let to_session = ask.listens.then(|| {
        let href = format!("/asks/{}#to-session-heading", ask.id);
        view! { " · " <a class="to-session" href=href>{t.write_to_agent}</a> }
    });
    let status = (!pending).then(|| {
        view! { <span class=format!("status {}", ask.status.as_str())>{t.status(ask.status)}</span> " · " }
    });
    view! {
        <li class="ask-item" data-id=ask.id.clone()>
            <a href=format!("/asks/{}", ask.id) dir="auto">{title}</a>
            {for_you.then(|| view! { " " <span class="for-you">{t.for_you}</span> })}
            <p class="meta">
                {status}
                <bdi class="agent">{agent}</bdi> " · " {count} {t.asked}
                <time datetime=ask.created_at.to_string() title=ask.created_at.short()>{age}</time>
                {countdown}
                {to_session}
            </p>
        </li>
    }
}

/// What the desk shows when nothing waits: how agents ask.
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

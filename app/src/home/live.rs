//! The live desk's parts: the event stream that keeps its [`Lists`]
//! current, the two lists, the history's filter and "Notify me".
//!
//! A list is rebuilt when its asks change. Keyed lists (`<For>`) would
//! move one item instead, but their diffing grows the desk's bundle by
//! more than rebuilding the few dozen items the desk shows costs (the
//! closing note of this change has the measurement).

use super::{AskItem, EmptyDesk, FILTER_ID};
use crate::{
    browser,
    i18n::{use_lang, Speak, Words},
};
use interaction::{AskEvent, AskStatus};
use leptos::{either::Either, prelude::*};

use super::lists::Lists;

/// Follows the desk's event stream from `version`: each ask's new state
/// into `lists` (with a browser notification for a new pending one while
/// `notify` is on), and the lists read afresh when the stream fell behind
/// or the server restarted.
pub(super) fn use_desk_events(
    lists: RwSignal<Lists>,
    notify: RwSignal<bool>,
    version: u64,
    t: &'static Words,
) {
    let on_ask = move |AskEvent { ask, .. }: AskEvent| {
        if ask.status == AskStatus::Pending && notify.get_untracked() {
            // A notification isolates nothing: its title's bidirectional
            // controls are shown, not followed.
            let title = ask.title.as_deref().unwrap_or(t.new_ask_notification);
            let title = interaction::with_visible_controls(title);
            browser::notify_unless_seen(&title, ask.agent.as_deref().unwrap_or(t.an_agent));
        }
        lists.update(|l| l.apply(ask));
    };
    let on_reset = move |_| {
        leptos::task::spawn_local(async move {
            if let Some(data) = browser::list_desk().await {
                lists.set(Lists {
                    pending: data.pending,
                    history: data.history,
                });
            }
        });
    };
    browser::use_event_source(&format!("/api/v1/events?after={version}"), on_ask, on_reset);
}

/// The asks waiting, those for the signed-in person first; how agents ask
/// when none waits.
#[component]
pub(super) fn PendingList(
    /// The desk's lists.
    lists: RwSignal<Lists>,
    /// The signed-in person.
    me: Option<String>,
    /// Now, for ages and countdowns.
    now: ReadSignal<i64>,
    /// Where agents reach this server.
    public_url: String,
) -> impl IntoView {
    move || {
        let asks = lists.with(|l| l.pending_for(me.as_deref()));
        if asks.is_empty() {
            return Either::Left(view! { <EmptyDesk public_url=public_url.clone()/> });
        }
        let items = asks
            .into_iter()
            .map(|(ask, for_you)| view! { <AskItem ask now for_you/> })
            .collect_view();
        Either::Right(view! { <ul class="asks" id="pending">{items}</ul> })
    }
}

/// The finished asks of the status `filter` names, or all of them.
#[component]
pub(super) fn HistoryList(
    /// The desk's lists.
    lists: RwSignal<Lists>,
    /// The status shown, or every one.
    filter: RwSignal<Option<AskStatus>>,
    /// Now, for ages.
    now: ReadSignal<i64>,
) -> impl IntoView {
    let t = use_lang().t();
    move || {
        let asks = lists.with(|l| l.history_of(filter.get()));
        if asks.is_empty() {
            return Either::Left(view! { <p class="empty-history">{t.nothing_yet}</p> });
        }
        let items = asks
            .into_iter()
            .map(|ask| view! { <AskItem ask now for_you=false/> })
            .collect_view();
        Either::Right(view! { <ul class="asks history" id="history">{items}</ul> })
    }
}

/// The history's filter by status.
#[component]
pub(super) fn HistoryFilter(
    /// The status shown, or every one.
    filter: RwSignal<Option<AskStatus>>,
) -> impl IntoView {
    let t = use_lang().t();
    let status_option = move |status: AskStatus| {
        view! { <option value=status.as_str()>{t.status(status)}</option> }
    };
    view! {
        <label class="filter">
            {t.show}
            <select
                id=FILTER_ID
                on:change=move |ev| filter.set(AskStatus::parse(&event_target_value(&ev)))
            >
                <option value="">{t.everything}</option>
                {AskStatus::ALL
                    .into_iter()
                    .filter(|s| s.is_finished())
                    .map(status_option)
                    .collect_view()}
            </select>
        </label>
    }
}

/// "Notify me", until the browser may show notifications.
#[component]
pub(super) fn NotifyButton(
    /// Whether notifications are on.
    notify: RwSignal<bool>,
) -> impl IntoView {
    let t = use_lang().t();
    move || {
        (!notify.get()).then(|| {
            view! {
                <button
                    type="button"
                    class="quiet"
                    on:click=move |_| browser::ask_notification_permission(move |on| notify.set(on))
                >
                    {t.notify_me}
                </button>
            }
        })
    }
}

//! The OAuth consent page: a signed-in person sees which application asks
//! to connect to the desk as their agent, what it may do, and where their
//! answer takes them, and allows or denies it.
//!
//! Plain server HTML, like `/phone`: the server's handler checks the
//! request and puts what the page shows in the render's context; the
//! buttons post the request back, which the server checks again.

use crate::i18n::use_lang;
use crate::page_words::ConsentWords;
use leptos::prelude::*;
use leptos_meta::Title;

/// What the consent page shows, as the server's handler found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConsentLoad {
    /// A request the signed-in person may allow or deny.
    Ask {
        /// Who asks: a metadata document's host, or a registration's name.
        client: String,
        /// Whether `client` is a host that serves the client's document.
        verified: bool,
        /// Who is signed in.
        who: String,
        /// The host (or scheme) the answer goes back to.
        back_to: String,
        /// The request's parameters, posted back with the answer.
        fields: Vec<(String, String)>,
    },
    /// The request does not check out, and why (in the protocol's words).
    Refused(String),
    /// Whoever is signed in is no person of the desk (the shared token's
    /// holder, an open desk).
    NotAPerson,
}

/// The page at `/oauth/authorize`.
#[component]
pub fn ConsentPage() -> impl IntoView {
    let words = ConsentWords::of(use_lang());
    let load = use_context::<ConsentLoad>()
        .unwrap_or_else(|| ConsentLoad::Refused("no request".to_owned()));
    match load {
        ConsentLoad::Ask {
            client,
            verified,
            who,
            back_to,
            fields,
        } => {
            let about = if verified {
                view! { <p>{(words.verified)(&client)}</p> }.into_any()
            } else {
                view! {
                    <p class="refused" role="note">
                        <strong>{words.unverified}</strong>" "{words.unverified_text}
                    </p>
                }
                .into_any()
            };
            let hidden = fields
                .into_iter()
                .map(|(name, value)| view! { <input type="hidden" name=name value=value/> })
                .collect_view();
            view! {
                <Title text=format!("askdesk: {}", (words.title)(&client))/>
                <h1>{(words.title)(&client)}</h1>
                {about}
                <p>{(words.signed_in_as)(&who)}</p>
                <h2>{words.may_heading}</h2>
                <ul>
                    <li>{words.may_ask}</li>
                    <li>{words.may_read}</li>
                </ul>
                <p>{words.may_not}</p>
                <p>{(words.back_to)(&back_to)}</p>
                <form class="consent" method="post" action=AUTHORIZE_PATH>
                    {hidden}
                    <button type="submit" name="decision" value="allow" class="primary">
                        {words.allow}
                    </button>
                    " "
                    <button type="submit" name="decision" value="deny">{words.deny}</button>
                </form>
            }
            .into_any()
        }
        ConsentLoad::Refused(why) => view! {
            <Title text=format!("askdesk: {}", words.refused_title)/>
            <h1>{words.refused_title}</h1>
            <p class="refused" role="alert">{why}</p>
        }
        .into_any(),
        ConsentLoad::NotAPerson => view! {
            <Title text=format!("askdesk: {}", words.refused_title)/>
            <h1>{words.refused_title}</h1>
            <p class="refused" role="alert">{words.not_a_person}</p>
        }
        .into_any(),
    }
}

/// Where the page's form posts: the authorization endpoint itself.
pub const AUTHORIZE_PATH: &str = "/oauth/authorize";

/// The path that disconnects one of the viewer's applications (`POST`,
/// field `id`).
pub const DISCONNECT_PATH: &str = "/phone/disconnect";

/// An application connected as the viewer's agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connected {
    /// Its grant's id.
    pub id: String,
    /// What the consent page called it.
    pub client: String,
    /// Whether that is its metadata document's host.
    pub verified: bool,
    /// The agent it acts as.
    pub agent: String,
    /// Since when.
    pub since: interaction::Timestamp,
}

/// The viewer's connected applications, each with a way to disconnect it.
#[component]
pub fn ConnectedApps(
    /// The applications, newest first.
    connected: Vec<Connected>,
) -> impl IntoView {
    let words = ConsentWords::of(use_lang());
    let none = connected
        .is_empty()
        .then(|| view! { <p class="quiet-note">{words.none_connected}</p> });
    let rows = connected
        .into_iter()
        .map(|app| {
            let unverified = (!app.verified).then(|| format!(" ({})", words.unverified));
            view! {
                <li class="device">
                    <span>{(words.connected_as)(&app.client, &app.agent, &app.since.short())}{unverified}</span>
                    <form method="post" action=DISCONNECT_PATH>
                        <input type="hidden" name="id" value=app.id/>
                        <button type="submit" class="quiet">{words.disconnect}</button>
                    </form>
                </li>
            }
        })
        .collect_view();
    view! {
        <section aria-labelledby="connected">
            <h2 id="connected">{words.connected}</h2>
            {none}
            <ul class="devices">{rows}</ul>
        </section>
    }
}

//! Signing a phone in. `GET /phone` makes a one-time sign-in link for
//! whoever is signed in and shows it as a QR code, with their signed-in
//! devices and the applications connected as their agents; `POST
//! /phone/sign-out` ends one of those sessions, `POST /phone/disconnect`
//! one of those applications' grants. `GET
//! /signin/link/{code}` shows what a link would do, and `POST` uses it:
//! once, to a session like a token's sign-in gives.
//!
//! Opening the link only shows a button, so a chat app or mail scanner
//! that fetches the link to preview it spends nothing.

use super::{pages::render_with, sign_in::signed_in};
use crate::{
    http::{identity::session_cookies, reply::redirect, security::Security},
    AppState,
};
use app::{
    consent::Connected,
    phone::{Device, HowSignedIn, LinkGone, LinkLoad, PhoneLoad, Reach, LINK_PATH},
};
use axum::{
    extract::{Extension, Form, Path, State},
    http::{request::Parts, StatusCode, Uri},
    response::Response,
};
use desk::{Caller, Grant, Holder, LinkRefusal, Opened, SessionId};
use interaction::Role;
use serde::Deserialize;
use std::net::IpAddr;

/// The page's path.
pub const PHONE_PAGE: &str = "/phone";

/// A sign-in link's page, as axum writes its path.
pub const LINK_PAGE: &str = "/signin/link/{code}";

/// What a sign-in as `caller` would be, for a link they make: their own.
/// `Ok(None)` on an open desk, which has nothing to sign in to.
fn grant_of(caller: &Caller, security: &Security) -> Result<Option<Grant>, PhoneLoad> {
    match caller {
        // Agents use the API; their tokens do not sign in to pages.
        Caller::Person(person) if person.role == Role::Agent => Err(PhoneLoad::Agent),
        Caller::Person(person) => Ok(Some(Grant::Person(person.clone()))),
        // The shared token's holder, or anyone on an open desk.
        Caller::Unnamed => Ok(security.admin_tag().map(|tag| Grant::Admin { tag })),
        // The guard sends a caller without credentials to sign in first.
        Caller::Link | Caller::Action => Err(PhoneLoad::Unavailable),
    }
}

/// Whether a phone could open `url`: not when it names this computer
/// itself (loopback) or no address at all (where the server listens).
fn reach(url: &str) -> Reach {
    let host = url
        .parse::<Uri>()
        .ok()
        .and_then(|uri| uri.host().map(str::to_ascii_lowercase));
    let Some(host) = host else {
        return Reach::ThisComputer;
    };
    let ip = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>();
    let here = host == "localhost"
        || host.ends_with(".localhost")
        || ip.is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified());
    if here {
        Reach::ThisComputer
    } else {
        Reach::Network
    }
}

/// `GET /phone`: a new one-time link for the caller, every visit.
pub async fn page(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    parts: Parts,
) -> Response {
    if caller == Caller::Link {
        return redirect(&format!("/signin?next={PHONE_PAGE}"));
    }
    let load = phone_load(&state, &caller, &parts).await;
    let status = match load {
        PhoneLoad::Agent => StatusCode::FORBIDDEN,
        PhoneLoad::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        PhoneLoad::Open { .. } | PhoneLoad::Link { .. } => StatusCode::OK,
    };
    render_with(&state, parts, status, Some(load)).await
}

/// What `/phone` shows `caller`, making the link it shows.
async fn phone_load(state: &AppState, caller: &Caller, parts: &Parts) -> PhoneLoad {
    let desk = &state.desk;
    let grant = match grant_of(caller, &state.security) {
        Ok(Some(grant)) => grant,
        Ok(None) => {
            return PhoneLoad::Open {
                url: desk.public_url().to_owned(),
                reach: reach(desk.public_url()),
            }
        }
        Err(refused) => return refused,
    };
    let link = match desk.open_sign_in_link(&grant).await {
        Ok(link) => link,
        Err(e) => {
            tracing::warn!("could not make a sign-in link: {e}");
            return PhoneLoad::Unavailable;
        }
    };
    let holder = grant.holder();
    let sessions = match desk.sessions(Some(&holder)).await {
        Ok(sessions) => sessions,
        Err(e) => {
            tracing::warn!("could not list sessions: {e}");
            return PhoneLoad::Unavailable;
        }
    };
    let here: Vec<SessionId> = session_cookies(&parts.headers)
        .map(SessionId::of_cookie)
        .collect();
    let devices = sessions
        .into_iter()
        .map(|session| Device {
            this_device: here.contains(&session.id),
            id: session.id.to_string(),
            how: match session.opened {
                Opened::Token => HowSignedIn::Token,
                Opened::Link => HowSignedIn::Link,
            },
            since: session.created_at,
            until: session.expires_at,
        })
        .collect();
    let connected = match holder.name() {
        Some(name) => match desk.grants(Some(name)).await {
            Ok(grants) => grants.into_iter().map(connected_app).collect(),
            Err(e) => {
                tracing::warn!("could not list connected applications: {e}");
                return PhoneLoad::Unavailable;
            }
        },
        None => Vec::new(),
    };
    let url = format!("{}{LINK_PATH}{}", desk.public_url(), link.code);
    PhoneLoad::Link {
        reach: reach(&url),
        url,
        who: holder.name().map(str::to_owned),
        expires_at: link.expires_at,
        devices,
        connected,
    }
}

/// A grant as the page lists it.
fn connected_app(grant: desk::GrantRecord) -> Connected {
    Connected {
        id: grant.id,
        client: grant.terms.client_name,
        verified: grant.terms.verified,
        agent: grant.agent,
        since: interaction::Timestamp::from_ms(grant.created_at),
    }
}

/// `POST /phone/disconnect`: revokes one of the caller's own connected
/// applications (a grant they allowed), and back to the page.
pub async fn disconnect(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    Form(form): Form<SignOutDevice>,
) -> Response {
    let Ok(Some(Grant::Person(person))) = grant_of(&caller, &state.security) else {
        return redirect(PHONE_PAGE);
    };
    match state.desk.grants(Some(&person.name)).await {
        Ok(grants) if grants.iter().any(|g| g.id == form.id) => {
            match state.desk.revoke_grant(&form.id).await {
                Ok(_) => tracing::info!(person = %person.name, "an application was disconnected"),
                Err(e) => tracing::warn!("could not revoke a grant: {e}"),
            }
        }
        Ok(_) => {}
        Err(e) => tracing::warn!("could not list grants: {e}"),
    }
    redirect(PHONE_PAGE)
}

/// The form of `POST /phone/sign-out`.
#[derive(Deserialize)]
pub struct SignOutDevice {
    id: String,
}

/// `POST /phone/sign-out`: ends one of the caller's own sessions, and back
/// to the page.
pub async fn sign_out_device(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    Form(form): Form<SignOutDevice>,
) -> Response {
    let holder = match grant_of(&caller, &state.security) {
        Ok(Some(grant)) => grant.holder(),
        Ok(None) | Err(_) => return redirect(PHONE_PAGE),
    };
    if let Some(id) = SessionId::parse(&form.id) {
        match state.desk.end_session(&id, Some(&holder)).await {
            Ok(true) => tracing::info!(session = %id, "a device was signed out"),
            Ok(false) => {}
            Err(e) => tracing::warn!("could not end a session: {e}"),
        }
    }
    redirect(PHONE_PAGE)
}

/// Whether `code` looks like a link's secret: 32 hex digits. Anything
/// else is no link, without asking the database.
fn well_formed(code: &str) -> bool {
    code.len() == 32 && code.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Why a link is refused, as its page says it.
fn gone(refusal: LinkRefusal) -> LinkGone {
    match refusal {
        LinkRefusal::Used => LinkGone::Used,
        LinkRefusal::Expired => LinkGone::Expired,
        LinkRefusal::Unknown => LinkGone::Unknown,
    }
}

/// Whether a link of `holder` still signs in to this server: the shared
/// token's links end when the token changes, as its sessions do.
fn still_valid(holder: &Holder, security: &Security) -> bool {
    match holder {
        Holder::Person(_) => true,
        Holder::SharedToken { tag } => security.admin_tag().as_ref() == Some(tag),
    }
}

/// Renders a link's page with `load`, at its status.
async fn link_page(state: &AppState, parts: Parts, load: LinkLoad) -> Response {
    let status = match &load {
        LinkLoad::Valid { .. } => StatusCode::OK,
        LinkLoad::Gone(LinkGone::Unknown) => StatusCode::NOT_FOUND,
        LinkLoad::Gone(LinkGone::Used | LinkGone::Expired) => StatusCode::GONE,
        LinkLoad::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
    };
    render_with(state, parts, status, Some(load)).await
}

/// `GET /signin/link/{code}`: what the link would do, and a button that
/// does it; nothing is used yet.
pub async fn show_link(
    State(state): State<AppState>,
    Path(code): Path<String>,
    parts: Parts,
) -> Response {
    let load = if !well_formed(&code) {
        LinkLoad::Gone(LinkGone::Unknown)
    } else {
        match state.desk.sign_in_link(&code).await {
            Ok(Ok(valid)) if still_valid(&valid.holder, &state.security) => LinkLoad::Valid {
                action: format!("{LINK_PATH}{code}"),
                who: valid.holder.name().map(str::to_owned),
                expires_at: valid.expires_at,
            },
            Ok(Ok(_)) => LinkLoad::Gone(LinkGone::Unknown),
            Ok(Err(refusal)) => LinkLoad::Gone(gone(refusal)),
            Err(e) => {
                tracing::warn!("could not read a sign-in link: {e}");
                LinkLoad::Unavailable
            }
        }
    };
    link_page(&state, parts, load).await
}

/// `POST /signin/link/{code}`: uses the link, once, to sign this browser
/// in (the same cookie as signing in with a token) and on to the desk; or
/// the page saying why it signs nothing in.
pub async fn use_link(
    State(state): State<AppState>,
    Path(code): Path<String>,
    parts: Parts,
) -> Response {
    if !well_formed(&code) {
        return link_page(&state, parts, LinkLoad::Gone(LinkGone::Unknown)).await;
    }
    let load = match state.desk.use_sign_in_link(&code).await {
        Ok(Ok((cookie, grant))) if still_valid(&grant.holder(), &state.security) => {
            tracing::info!(
                person = grant.holder().name(),
                "a device signed in by a one-time link"
            );
            return signed_in(&state.security, &cookie, "/");
        }
        Ok(Ok((cookie, _))) => {
            // The token it was made with is no longer this server's.
            if let Err(e) = state.desk.close_session(&cookie).await {
                tracing::warn!("could not end a session: {e}");
            }
            LinkLoad::Gone(LinkGone::Unknown)
        }
        Ok(Err(refusal)) => LinkLoad::Gone(gone(refusal)),
        Err(e) => {
            tracing::warn!("could not use a sign-in link: {e}");
            LinkLoad::Unavailable
        }
    };
    link_page(&state, parts, load).await
}

#[cfg(test)]
mod tests {
    use super::{reach, Reach};

    #[test]
    fn a_phone_cannot_reach_loopback_or_unspecified_addresses() {
        for here in [
            "http://127.0.0.1:3000",
            "http://localhost:3000",
            "http://[::1]:3000",
            "http://0.0.0.0:3000",
            "http://desk.localhost",
        ] {
            assert_eq!(reach(here), Reach::ThisComputer, "{here}");
        }
        for there in [
            "http://192.168.1.20:3000",
            "https://desk.example.com",
            "http://[fd00::1]:3000",
        ] {
            assert_eq!(reach(there), Reach::Network, "{there}");
        }
    }
}

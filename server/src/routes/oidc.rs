//! Signing in with the company's identity provider (`--oidc-issuer`):
//! `GET /signin/oidc` sends the browser to the provider, and
//! `GET /signin/oidc/callback` takes it back, opening a session for the
//! person whose email the provider verified. What is checked is
//! [`crate::oidc`]'s; here are the cookies, the person and the pages.

use crate::{
    http::{identity::cookies_named, reply::redirect},
    oidc::{Callback, Refusal, CALLBACK_PATH, FLOW_COOKIE, FLOW_SECONDS},
    AppState,
};
use app::signin::{local_path, Failed, DONE_PATH};
use axum::{
    extract::{Query, State},
    http::{header::SET_COOKIE, HeaderMap, HeaderValue},
    response::Response,
};
use desk::Grant;
use interaction::Role;
use serde::Deserialize;

/// `GET /signin/oidc`'s query.
#[derive(Deserialize)]
pub struct Start {
    #[serde(default)]
    next: Option<String>,
}

/// The flow cookie's attributes: sent back only to the callback, and on
/// the provider's top-level redirect there (`Lax`: `Strict` would
/// withhold it on a navigation another site started).
fn flow_cookie(state: &AppState, value: &str, max_age: u64) -> Option<HeaderValue> {
    let secure = if state.security.secure_cookie() {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{FLOW_COOKIE}={value}; Path={CALLBACK_PATH}; HttpOnly; SameSite=Lax; \
         Max-Age={max_age}{secure}"
    ))
    .ok()
}

/// The time, in Unix seconds, as the desk keeps it.
fn now(state: &AppState) -> u64 {
    u64::try_from(state.desk.now_ms() / 1000).unwrap_or_default()
}

/// `GET /signin/oidc`: to the provider, with a new sign-in's cookie.
pub async fn start(State(state): State<AppState>, Query(query): Query<Start>) -> Response {
    let Some(oidc) = &state.oidc else {
        return redirect("/signin");
    };
    let next = local_path(query.next.as_deref());
    let (to, sealed) = oidc.begin(next, now(&state)).await;
    let mut response = redirect(&to);
    if let Some(cookie) = flow_cookie(&state, &sealed, FLOW_SECONDS) {
        response.headers_mut().insert(SET_COOKIE, cookie);
    }
    response
}

/// `GET /signin/oidc/callback`: back from the provider. A session for the
/// person whose verified email it is, and on through `/signin/done`; the
/// sign-in page saying why otherwise, with nothing created. The flow's
/// cookie ends either way.
pub async fn callback(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(callback): Query<Callback>,
) -> Response {
    let Some(oidc) = &state.oidc else {
        return redirect("/signin");
    };
    // The newest sign-in's, if a browser holds more than one.
    let sealed = cookies_named(&headers, FLOW_COOKIE).last();
    let mut response = match oidc.finish(sealed, callback, now(&state)).await {
        Ok((email, next)) => signed_in(&state, &email, &next).await,
        Err(refusal) => {
            tracing::warn!("a sign-in with the identity provider was refused: {refusal}");
            redirect(
                &match refusal {
                    Refusal::Unverified => Failed::Unverified,
                    Refusal::Flow | Refusal::Provider(_) | Refusal::Token(_) => Failed::Provider,
                }
                .path(),
            )
        }
    };
    if let Some(gone) = flow_cookie(&state, "", 0) {
        response.headers_mut().append(SET_COOKIE, gone);
    }
    response
}

/// A session for the person whose verified email is `email`, or the
/// sign-in page saying why not.
async fn signed_in(state: &AppState, email: &str, next: &str) -> Response {
    let person = match state.desk.person_by_email(email).await {
        Ok(Some(person)) if person.role == Role::Agent => {
            return redirect(&Failed::AgentEmail.path())
        }
        Ok(Some(person)) => person,
        Ok(None) => {
            // Who they are stays out of the log: the provider knows.
            tracing::info!("a verified email no person of the desk has was refused");
            return redirect(&Failed::Stranger.path());
        }
        Err(e) => {
            tracing::warn!("sign-in could not read the database: {e}");
            return redirect(&Failed::Unavailable.path());
        }
    };
    match state.desk.open_session(&Grant::Person(person)).await {
        Ok(cookie) => {
            let done = format!("{DONE_PATH}?next={}", app::encode_path(next));
            super::sign_in::signed_in(&state.security, &cookie, &done)
        }
        Err(e) => {
            tracing::warn!("sign-in could not keep the session: {e}");
            redirect(&Failed::Unavailable.path())
        }
    }
}

//! Signing in and out of the desk's pages: a session cookie for the
//! shared token or a person's token, and its end.

use crate::{
    http::{
        identity::{session_cookies, SESSION_COOKIE},
        reply::redirect,
        security::{ClientAddr, Security},
    },
    AppState,
};
use app::signin::{local_path, Failed};
use axum::{
    extract::{Extension, Form, State},
    http::{header::SET_COOKIE, HeaderMap, HeaderValue},
    response::Response,
};
use desk::Grant;
use interaction::Role;
use serde::Deserialize;

/// The sign-in form's fields.
#[derive(Deserialize)]
pub struct SignIn {
    token: String,
    #[serde(default)]
    next: Option<String>,
}

/// `POST /signin`: a new session for the shared token or a person's token
/// (a fresh cookie at every sign-in), and on to `next`. Agents' tokens do
/// not sign in.
pub async fn sign_in(
    State(state): State<AppState>,
    Extension(ClientAddr(addr)): Extension<ClientAddr>,
    Form(form): Form<SignIn>,
) -> Response {
    let security = &state.security;
    let token = form.token.trim();
    let next = local_path(form.next.as_deref()).to_owned();
    let grant = if security.is_shared_token(token) {
        security.admin_tag().map(|tag| Grant::Admin { tag })
    } else {
        match state.desk.person_by_token(token).await {
            Ok(Some(person)) if person.role == Role::Agent => {
                return redirect(&Failed::AgentToken.path());
            }
            Ok(person) => person.map(Grant::Person),
            Err(e) => {
                tracing::warn!("sign-in could not read the database: {e}");
                return redirect(&Failed::Unavailable.path());
            }
        }
    };
    let Some(grant) = grant else {
        // A desk without tokens has nothing to sign in to.
        if !security.has_token() && matches!(state.desk.has_people().await, Ok(false)) {
            return redirect("/");
        }
        tracing::warn!(addr = ?addr, "sign-in with a wrong token");
        if let Some(addr) = addr {
            security.failed(addr);
        }
        return redirect(&Failed::WrongToken.path());
    };
    let cookie = match state.desk.open_session(&grant).await {
        Ok(cookie) => cookie,
        Err(e) => {
            tracing::warn!("sign-in could not keep the session: {e}");
            return redirect(&Failed::Unavailable.path());
        }
    };
    signed_in(security, &cookie, &next)
}

/// The redirect to `next` of a browser just signed in to the session
/// `cookie` (by token or by a one-time link alike), which sets the cookie.
pub(super) fn signed_in(security: &Security, cookie: &str, next: &str) -> Response {
    let mut response = redirect(next);
    let secure = if security.secure_cookie() {
        "; Secure"
    } else {
        ""
    };
    let max_age = desk::SESSION_MS / 1000;
    let value = format!(
        "{SESSION_COOKIE}={cookie}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    );
    if let Ok(value) = HeaderValue::from_str(&value) {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    response
}

/// `POST /signout`: ends this browser's session.
pub async fn sign_out(State(state): State<AppState>, headers: HeaderMap) -> Response {
    for cookie in session_cookies(&headers) {
        if let Err(e) = state.desk.close_session(cookie).await {
            tracing::warn!("sign-out could not end the session: {e}");
        }
    }
    let mut response = redirect("/signin");
    let gone = format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    if let Ok(value) = HeaderValue::from_str(&gone) {
        response.headers_mut().insert(SET_COOKIE, value);
    }
    response
}

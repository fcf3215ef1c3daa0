//! Who is asking: the caller a request's credentials name (the shared
//! token, a person's token, a signed-in browser's session, or only an
//! ask's link), what their role lets them do, and signing in and out.
//!
//! Every check of a person's token or session reads the database, so
//! `askdesk people remove` takes effect on the next request, on every
//! instance.

use crate::{
    limit::Windows,
    security::{redirect, Security},
    AppState,
};
use axum::{
    extract::{Extension, Form, State},
    http::{
        header::{AUTHORIZATION, COOKIE, SET_COOKIE},
        HeaderMap, HeaderValue,
    },
    response::Response,
};
use desk::{Caller, Desk, DeskError, Grant};
use interaction::{Role, Via};
use serde::Deserialize;
use std::{
    sync::{Arc, Mutex, PoisonError},
    time::{Duration, Instant},
};

/// The cookie that remembers a signed-in browser.
pub const SESSION_COOKIE: &str = "askdesk_session";

/// The header a client of the API names its surface with: `tui` (the
/// terminal UI) or `mcp-client` (an MCP client reporting the answer its
/// person gave in its own form). Anything else is `api`.
pub use client::VIA_HEADER;

/// How long "does the desk have people?" is remembered when the server has
/// no shared token: the first person added protects the desk within this.
const PEOPLE_CHECK_EVERY: Duration = Duration::from_secs(1);

/// What the guard knows of a request's credentials.
#[derive(Debug, Clone)]
pub enum Identified {
    /// Whose they are.
    Caller(Caller),
    /// A bearer token was sent and is no token of this desk.
    WrongToken,
}

/// Whether a desk without a shared token has people (and so needs a
/// token), asked of the database at most once a [`PEOPLE_CHECK_EVERY`].
#[derive(Debug, Default)]
pub struct PeopleCheck {
    last: Mutex<Option<(Instant, bool)>>,
}

impl PeopleCheck {
    async fn has_people(&self, desk: &Desk) -> Result<bool, DeskError> {
        let now = Instant::now();
        if let Some((at, has)) = *self.last.lock().unwrap_or_else(PoisonError::into_inner) {
            if now.saturating_duration_since(at) < PEOPLE_CHECK_EVERY {
                return Ok(has);
            }
        }
        let has = desk.has_people().await?;
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some((now, has));
        Ok(has)
    }
}

/// The credentials' caller. A desk that has neither a shared token nor
/// people is open: everyone is [`Caller::Unnamed`], as before people
/// existed. On a protected desk a request without credentials is
/// [`Caller::Link`]: it reaches only what an ask's link opens.
pub async fn identify(
    security: &Security,
    desk: &Desk,
    people: &PeopleCheck,
    headers: &HeaderMap,
) -> Result<Identified, DeskError> {
    let bearer = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    if let Some(token) = bearer {
        if security.is_shared_token(token) {
            return Ok(Identified::Caller(Caller::Unnamed));
        }
        if let Some(person) = desk.person_by_token(token).await? {
            return Ok(Identified::Caller(Caller::Person(person)));
        }
    } else {
        for cookie in session_cookies(headers) {
            match desk.session(cookie).await? {
                Some(Grant::Person(person)) => {
                    return Ok(Identified::Caller(Caller::Person(person)))
                }
                Some(Grant::Admin { tag }) if security.admin_tag().is_some_and(|t| t == tag) => {
                    return Ok(Identified::Caller(Caller::Unnamed))
                }
                _ => {}
            }
        }
    }
    let protected = security.has_token() || people.has_people(desk).await?;
    Ok(match (protected, bearer) {
        (false, _) => Identified::Caller(Caller::Unnamed),
        (true, Some(_)) => Identified::WrongToken,
        (true, None) => Identified::Caller(Caller::Link),
    })
}

/// The values of the session cookies a request carries.
fn session_cookies(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value)
        // One look in the database each, so not many.
        .take(3)
}

/// The surface an API request says it comes from (`X-Askdesk-Via`).
pub fn api_via(headers: &HeaderMap) -> Via {
    match headers.get(VIA_HEADER).and_then(|v| v.to_str().ok()) {
        Some("tui") => Via::Tui,
        Some("mcp-client") => Via::McpClient,
        _ => Via::Api,
    }
}

/// Who acts when `caller` answers through an API request: an MCP client
/// reporting its person's answer acts as the ask's link would (it is not
/// the agent answering, and it cannot be where signing in is required).
pub fn answering(caller: Caller, headers: &HeaderMap) -> desk::Actor {
    match api_via(headers) {
        Via::McpClient => desk::Actor::new(Caller::Link, Via::McpClient),
        via => desk::Actor::new(caller, via),
    }
}

/// Asks created per minute per caller, when `--create-limit` is set:
/// counted per agent (a person's name, or the shared token's holder), on
/// this instance.
#[derive(Debug)]
pub struct CreateLimit {
    windows: Windows<String>,
}

impl CreateLimit {
    /// At most `per_minute` asks a minute from each caller.
    pub fn new(per_minute: u32) -> Self {
        Self {
            windows: Windows::new(per_minute, Duration::from_secs(60)),
        }
    }

    /// Counts one creation by `caller`, or says how long it must wait.
    pub fn take(&self, caller: &Caller) -> Result<(), Duration> {
        let key = caller.name().unwrap_or("").to_owned();
        let now = Instant::now();
        if let Some(wait) = self.windows.refused(&key, now) {
            return Err(wait);
        }
        self.windows.count(key, now);
        Ok(())
    }
}

/// The refusal of a creation over the limit: `429` with `Retry-After`.
pub fn too_many_asks(wait: Duration) -> Response {
    crate::security::too_many(
        "this agent has created too many asks this minute (--create-limit)",
        wait,
    )
}

/// Where to go after signing in: a path of this server, or the desk.
pub(crate) fn local_path(next: Option<&str>) -> &str {
    match next {
        Some(path) if path.starts_with('/') && !path.starts_with("//") && !path.contains('\\') => {
            path
        }
        _ => "/",
    }
}

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
    Extension(crate::security::ClientAddr(addr)): Extension<crate::security::ClientAddr>,
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
                return redirect("/signin?failed=agent");
            }
            Ok(person) => person.map(Grant::Person),
            Err(e) => {
                tracing::warn!("sign-in could not read the database: {e}");
                return redirect("/signin?failed=unavailable");
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
        return redirect("/signin?failed=1");
    };
    let cookie = match state.desk.open_session(&grant).await {
        Ok(cookie) => cookie,
        Err(e) => {
            tracing::warn!("sign-in could not keep the session: {e}");
            return redirect("/signin?failed=unavailable");
        }
    };
    let mut response = redirect(&next);
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

/// The state the guard needs beyond [`Security`].
#[derive(Clone)]
pub struct Gate {
    /// Host, origin and token settings.
    pub security: Arc<Security>,
    /// The people and sessions.
    pub desk: Desk,
    /// Whether a desk without a shared token has people.
    pub people: Arc<PeopleCheck>,
}

#[cfg(test)]
mod tests {
    use super::local_path;

    #[test]
    fn signing_in_goes_on_only_to_a_path_of_this_server() {
        assert_eq!(local_path(Some("/asks/abc")), "/asks/abc");
        assert_eq!(local_path(Some("/history?q=x")), "/history?q=x");
        for away in ["//evil.example", "https://evil.example", "/\\evil", "asks"] {
            assert_eq!(local_path(Some(away)), "/", "{away}");
        }
        assert_eq!(local_path(None), "/");
    }
}

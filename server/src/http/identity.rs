//! Who is asking: the caller a request's credentials name (the shared
//! token, a person's token, an OAuth access token, a signed-in browser's
//! session, or only an ask's link), and the surface a request says it
//! comes from.
//!
//! Every check of a person's token or session reads the database, so
//! `askdesk people remove` takes effect on the next request, on every
//! instance.

use super::security::Security;
use axum::http::{
    header::{AUTHORIZATION, COOKIE},
    HeaderMap,
};
use desk::{Caller, Desk, DeskError, Grant};
use interaction::Via;

/// The cookie that remembers a signed-in browser.
pub const SESSION_COOKIE: &str = "askdesk_session";

/// The header a client of the API names its surface with: `tui` (the
/// terminal UI), `mcp-client` (an agent's MCP client relaying the answer
/// its person gave in its own form) or `mcp-app` (one relaying an answer
/// given in askdesk's form inside its host). Anything else is `api`. It
/// says how, never who: the caller is whoever the credentials name, and
/// the desk decides what they may do before the surface is recorded.
pub use client::VIA_HEADER;

/// What the guard knows of a request's credentials.
#[derive(Debug, Clone)]
pub enum Identified {
    /// Whose they are.
    Caller(Caller),
    /// An OAuth access token's: the agent of a client a person allowed,
    /// and the resource the token is for, which the guard holds it to.
    Granted {
        /// The grant's agent.
        caller: Caller,
        /// The resource (the MCP endpoint) its token was issued for.
        resource: String,
    },
    /// A bearer token was sent and is no token of this desk.
    WrongToken,
}

/// The credentials' caller. A desk that has neither a shared token nor
/// people is open: everyone is [`Caller::Unnamed`], as before people
/// existed. On a protected desk a request without credentials is
/// [`Caller::Link`]: it reaches only what an ask's link opens.
pub async fn identify(
    security: &Security,
    desk: &Desk,
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
        if token.starts_with(desk::ACCESS_PREFIX) {
            return Ok(match desk.bearer(token).await? {
                Some(bearer) => Identified::Granted {
                    caller: Caller::Person(bearer.agent),
                    resource: bearer.grant.terms.resource,
                },
                None => Identified::WrongToken,
            });
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
    let protected = security.has_token() || desk.has_people_lately().await?;
    Ok(match (protected, bearer) {
        (false, _) => Identified::Caller(Caller::Unnamed),
        (true, Some(_)) => Identified::WrongToken,
        (true, None) => Identified::Caller(Caller::Link),
    })
}

/// The values of the session cookies a request carries.
pub fn session_cookies(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    // One look in the database each, so not many.
    cookies_named(headers, SESSION_COOKIE).take(3)
}

/// The values of the cookies called `name` a request carries.
pub fn cookies_named<'a>(headers: &'a HeaderMap, name: &'a str) -> impl Iterator<Item = &'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(move |(found, _)| *found == name)
        .map(|(_, value)| value)
}

/// The surface an API call says it comes from, as [`api_via`] reads it.
pub struct ApiVia(pub Via);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ApiVia {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(Self(api_via(&parts.headers)))
    }
}

/// The surface an API request says it comes from (`X-Askdesk-Via`).
/// Recorded only once the desk has found the caller may act so.
fn api_via(headers: &HeaderMap) -> Via {
    match headers.get(VIA_HEADER).and_then(|v| v.to_str().ok()) {
        Some("tui") => Via::Tui,
        Some("mcp-client") => Via::McpClient,
        Some("mcp-app") => Via::McpApp,
        _ => Via::Api,
    }
}

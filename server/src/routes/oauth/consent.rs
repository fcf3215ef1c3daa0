//! `/oauth/authorize`: the consent page (`GET`) and the person's answer
//! (`POST`). Nothing is issued without a person signed in to the desk in
//! a browser (a session cookie, not a token) who pressed Allow.
//!
//! A browser another site sends here (the client's own page) arrives
//! without its session, whose cookie is `SameSite=Strict`: the guard
//! sends it by `/signin/done`, a page of this site that sends it on, so
//! that it arrives again with its session, or to sign in first.

use crate::{
    http::{identity::session_cookies, reply::redirect},
    routes::pages::render_with,
    AppState,
};
use ::oauth::authorize::{Params, Refusal, Request};
use app::consent::ConsentLoad;
use axum::{
    body::Bytes,
    extract::{Extension, State},
    http::{
        header::{AUTHORIZATION, CONTENT_SECURITY_POLICY},
        request::Parts,
        HeaderMap, HeaderValue, StatusCode,
    },
    response::Response,
};
use desk::Caller;
use interaction::Role;

/// Who may answer a consent page.
enum Who {
    /// A person of the desk, signed in in this browser: their name.
    Person(String),
    /// Nobody signed in here.
    Nobody,
    /// Someone who is no person: the shared token's holder, an agent, or
    /// anyone on an open desk.
    NotAPerson,
}

fn who(caller: &Caller, headers: &HeaderMap) -> Who {
    let by_session = !headers.contains_key(AUTHORIZATION) && session_cookies(headers).count() > 0;
    match caller {
        Caller::Person(person) if person.role != Role::Agent && by_session => {
            Who::Person(person.name.clone())
        }
        Caller::Link | Caller::Action => Who::Nobody,
        Caller::Person(_) | Caller::Unnamed => Who::NotAPerson,
    }
}

/// Where a browser with no session goes: to sign in, and back to `here`
/// after. (The guard sends a browser without credentials there before
/// this runs; this is for one whose session ended in between.)
fn sign_in_first(here: &str) -> Response {
    redirect(&format!("/signin?next={}", app::encode_path(here)))
}

/// The page showing `load`, at `status`.
async fn shown(state: &AppState, parts: Parts, status: StatusCode, load: ConsentLoad) -> Response {
    render_with(state, parts, status, Some(load)).await
}

/// `GET /oauth/authorize`: the request, checked, for the signed-in person
/// to answer.
pub async fn page(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    parts: Parts,
) -> Response {
    let params: Params =
        serde_urlencoded::from_str(parts.uri.query().unwrap_or("")).unwrap_or_default();
    let who = match who(&caller, &parts.headers) {
        Who::Person(name) => name,
        Who::Nobody => return sign_in_first(&parts.uri.to_string()),
        Who::NotAPerson => {
            return shown(
                &state,
                parts,
                StatusCode::FORBIDDEN,
                ConsentLoad::NotAPerson,
            )
            .await
        }
    };
    match state.oauth.check(&state.desk, params).await {
        Ok(request) => {
            let load = ConsentLoad::Ask {
                client: request.client.name.clone(),
                verified: request.client.verified,
                who,
                back_to: shown_host(&request.redirect_uri),
                fields: request
                    .params
                    .pairs()
                    .into_iter()
                    .map(|(name, value)| (name.to_owned(), value))
                    .collect(),
            };
            let response = shown(&state, parts, StatusCode::OK, load).await;
            answerable_towards(response, &request)
        }
        Err(refusal) => refuse(&state, parts, refusal).await,
    }
}

/// The refusal of a request: on the page, or back to the client.
async fn refuse(state: &AppState, parts: Parts, refusal: Refusal) -> Response {
    match refusal {
        Refusal::Shown(why) => {
            shown(
                state,
                parts,
                StatusCode::BAD_REQUEST,
                ConsentLoad::Refused(why),
            )
            .await
        }
        Refusal::Redirect(to) => redirect(&to),
    }
}

/// The consent form's fields: the request's parameters, and the answer.
#[derive(serde::Deserialize)]
struct Answer {
    #[serde(flatten)]
    params: Params,
    decision: Option<String>,
}

/// `POST /oauth/authorize`: the person's answer. The request is checked
/// again; Allow sends the client a code, Deny `access_denied`.
pub async fn decide(
    State(state): State<AppState>,
    Extension(caller): Extension<Caller>,
    parts: Parts,
    body: Bytes,
) -> Response {
    let Ok(answer) = serde_urlencoded::from_bytes::<Answer>(&body) else {
        let load = ConsentLoad::Refused("the answer is not the consent page's form".to_owned());
        return shown(&state, parts, StatusCode::BAD_REQUEST, load).await;
    };
    let owner = match who(&caller, &parts.headers) {
        Who::Person(name) => name,
        // Signed out meanwhile: signing in again leads back to the question.
        Who::Nobody => {
            let query = serde_urlencoded::to_string(answer.params.pairs()).unwrap_or_default();
            return sign_in_first(&format!("{}?{query}", ::oauth::AUTHORIZE_PATH));
        }
        Who::NotAPerson => {
            return shown(
                &state,
                parts,
                StatusCode::FORBIDDEN,
                ConsentLoad::NotAPerson,
            )
            .await
        }
    };
    let request = match state.oauth.check(&state.desk, answer.params).await {
        Ok(request) => request,
        Err(refusal) => return refuse(&state, parts, refusal).await,
    };
    match answer.decision.as_deref() {
        Some("allow") => match state.oauth.allow(&state.desk, &request, &owner).await {
            Ok(to) => {
                tracing::info!(person = %owner, client = %request.client.name, "OAuth: a person allows a client");
                redirect(&to)
            }
            Err(e) => super::refused(&e),
        },
        Some("deny") => redirect(&state.oauth.deny(&request)),
        _ => {
            let load = ConsentLoad::Refused("decision must be allow or deny".to_owned());
            shown(&state, parts, StatusCode::BAD_REQUEST, load).await
        }
    }
}

/// What the person is told their answer goes back to: a web address's
/// host, or an application's own scheme.
fn shown_host(redirect_uri: &str) -> String {
    match url::Url::parse(redirect_uri) {
        Ok(url) => match url.host_str() {
            Some(host) if url.scheme().starts_with("http") => host.to_owned(),
            _ => format!("{}:", url.scheme()),
        },
        Err(_) => redirect_uri.to_owned(),
    }
}

/// The consent page's policy: its form may post here and be sent on to
/// the client's redirect URI (browsers hold a form's redirect to the
/// page's `form-action`), and no other site may frame it (a framed Allow
/// button could be clicked by a trick).
fn answerable_towards(mut response: Response, request: &Request) -> Response {
    let target = match url::Url::parse(&request.redirect_uri) {
        Ok(url) if url.scheme().starts_with("http") => url.origin().ascii_serialization(),
        Ok(url) => format!("{}:", url.scheme()),
        Err(_) => return response,
    };
    let headers = response.headers_mut();
    let form_action = format!("form-action 'self' {target}");
    let policy = headers
        .get(CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .split(';')
        .map(str::trim)
        .filter(|d| {
            !d.is_empty() && !d.starts_with("form-action") && !d.starts_with("frame-ancestors")
        })
        .chain([form_action.as_str(), "frame-ancestors 'none'"])
        .collect::<Vec<_>>()
        .join("; ");
    if let Ok(value) = HeaderValue::from_str(&policy) {
        headers.insert(CONTENT_SECURITY_POLICY, value);
    }
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    response
}

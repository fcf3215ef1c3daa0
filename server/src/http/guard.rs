//! What every request passes through: the `Host` check (DNS rebinding),
//! the `Origin` check (CSRF), who sends it, and the security headers on
//! every response.

use super::{
    gate::Gate,
    identity::{identify, Identified},
    public::{is_public, is_site_file},
    recheck::Recheck,
    reply::{error, redirect, too_many, unauthorized, ApiError},
    security::{host_name, ClientAddr, Security},
};
use axum::{
    extract::{ConnectInfo, Request, State},
    http::{
        header::{
            AUTHORIZATION, CACHE_CONTROL, CONTENT_SECURITY_POLICY, HOST, ORIGIN, REFERRER_POLICY,
            X_CONTENT_TYPE_OPTIONS,
        },
        HeaderMap, HeaderValue, Method, StatusCode,
    },
    middleware::Next,
    response::{IntoResponse, Response},
};
use desk::Caller;
use std::{
    convert::Infallible,
    future::Future,
    net::SocketAddr,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
};
use tower::{Layer, Service};

/// The policy of responses that are not pages: nothing may run or load.
const NON_PAGE_CSP: &str = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/// The guard in front of every route, as a layer: [`Guarded`] around the
/// routes.
#[derive(Clone)]
pub struct Guard(pub Arc<Gate>);

impl<S> Layer<S> for Guard {
    type Service = Guarded<S>;

    fn layer(&self, routes: S) -> Guarded<S> {
        Guarded {
            gate: self.0.clone(),
            routes,
        }
    }
}

/// The routes behind the guard.
///
/// A request that waits behind it (a long-poll) keeps one box: its
/// route's future, inline. The checks run in a box of their own, gone
/// before the route runs, and the request moves on into the route.
#[derive(Clone)]
pub struct Guarded<S> {
    gate: Arc<Gate>,
    routes: S,
}

impl<S> Service<Request> for Guarded<S>
where
    S: Service<Request, Error = Infallible> + Clone + Send + 'static,
    S::Response: IntoResponse,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.routes.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        // The clone that was made ready is the one that serves.
        let ready = self.routes.clone();
        let mut routes = std::mem::replace(&mut self.routes, ready);
        // Boxed apart (a probe's box is a moment's), so that the request's
        // room and the checks' are not in the future held while the route
        // runs.
        let admitted: Pin<Box<dyn Future<Output = Result<Request, Response>> + Send>> =
            if self.gate.open.contains(&request.uri().path()) {
                Box::pin(std::future::ready(Ok(request)))
            } else {
                Box::pin(admitted(self.gate.clone(), request))
            };
        Box::pin(async move {
            let response = match admitted.await {
                Ok(request) => {
                    let Ok(response) = routes.call(request).await;
                    response.into_response()
                }
                Err(refusal) => refusal,
            };
            Ok(with_headers(response))
        })
    }
}

/// The request, marked with who sends it and how to check that again, or
/// the refusal.
async fn admitted(gate: Arc<Gate>, mut request: Request) -> Result<Request, Response> {
    let recheck = Recheck::new(&gate, request.headers());
    request.extensions_mut().insert(recheck);
    admit(&gate, &mut request).await?;
    Ok(request)
}

/// The Content-Security-Policy of `/sw.js`, which governs the service
/// worker: nothing but requests to this server.
pub const SERVICE_WORKER_CSP: &str = "default-src 'none'; connect-src 'self'";

/// Whether a request of `method` may change something, and so must come
/// from the desk's own origin when a browser sends it.
pub fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Whether `request` may pass, noting on it where it came from and who
/// sends it; the refusal if not. In order: the host it names, where it
/// comes from, an address that got the token wrong too often, then who
/// sends it.
async fn admit(gate: &Gate, request: &mut Request) -> Result<(), Response> {
    let security = &*gate.security;
    let addr = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    request.extensions_mut().insert(ClientAddr(addr));
    let host = named_host(security, request).map_err(|(status, message)| error(status, message))?;
    // MCP over HTTP checks Origin on every request, as its specification
    // asks. OAuth's token endpoints read no cookie: any page may call them.
    let path = request.uri().path();
    let checks_origin = (changes_state(request.method()) || path.starts_with("/mcp"))
        && !oauth::CROSS_ORIGIN_PATHS.contains(&path);
    if checks_origin {
        if let Some(refusal) = cross_origin(security, request.headers(), &host) {
            return Err(error(
                StatusCode::FORBIDDEN,
                format!(
                    "cross-origin request refused: {refusal} may not change asks on {}; \
                     requests without an Origin header (agents, scripts) are not affected",
                    security.public_url()
                ),
            ));
        }
    }
    let path = request.uri().path().to_owned();
    // An address that got the token wrong too often waits, whatever it
    // sends next with a token or to the sign-in form.
    let tries_token = request.headers().contains_key(AUTHORIZATION)
        || (path == "/signin" && *request.method() == Method::POST);
    if let (true, Some(addr)) = (tries_token, addr) {
        if let Some(wait) = security.refused(addr) {
            return Err(too_many(
                "too many wrong tokens or failed sign-ins from this address",
                wait,
            ));
        }
    }
    // The site's files are everyone's: no need to ask the database who
    // fetches them.
    if is_site_file(&path) {
        return Ok(());
    }
    let query = request.uri().query().map(str::to_owned);
    let (caller, granted) = caller(gate, request.headers(), query, addr, path).await?;
    if granted {
        // A connector's host ends long calls: its waits return in time.
        let limit = agents::mcp::CallLimit(gate.call_limit);
        request.extensions_mut().insert(limit);
    }
    request.extensions_mut().insert(caller);
    Ok(())
}

/// The host `request` names (its `Host`, or its URI's authority), if this
/// server answers to it; the status and message of the refusal if not.
fn named_host(security: &Security, request: &Request) -> Result<String, (StatusCode, String)> {
    let host = request
        .headers()
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or_else(|| request.uri().authority().map(|a| a.as_str().to_owned()));
    let Some(host) = host else {
        return Err((
            StatusCode::BAD_REQUEST,
            "the request has no Host header".to_owned(),
        ));
    };
    if !security.host_allowed(&host) {
        return Err((
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "this server does not answer to the host {:?}; reach it at {} or start it with \
                 --allowed-host {} (or --public-url)",
                host_name(&host),
                security.public_url(),
                host_name(&host)
            ),
        ));
    }
    Ok(host)
}

/// `401` for a request without a token that holds: on the MCP endpoint
/// with OAuth's challenge, which names where its metadata is.
fn needs_token(gate: &Gate, path: &str, message: &str, invalid: bool) -> Response {
    let mut response = unauthorized(message);
    if path.starts_with(oauth::RESOURCE_PATH) {
        if let Ok(challenge) = HeaderValue::from_str(&gate.oauth.challenge(invalid)) {
            response
                .headers_mut()
                .insert(axum::http::header::WWW_AUTHENTICATE, challenge);
        }
    }
    response
}

/// Who sends `request` to `path`, if they may, and whether by an OAuth
/// grant: a wrong token is refused (and counted against `addr`), a link
/// holder is sent to sign in where this desk needs a token, an OAuth
/// token is taken only by the MCP endpoint it was issued for, and MCP is
/// the agents' door.
async fn caller(
    gate: &Gate,
    headers: &HeaderMap,
    query: Option<String>,
    addr: Option<std::net::IpAddr>,
    path: String,
) -> Result<(Caller, bool), Response> {
    let security = &*gate.security;
    // Programs' paths get 401, people's pages the sign-in page.
    let api = ["/api/", "/rpc/", "/mcp"]
        .iter()
        .any(|prefix| path.starts_with(prefix))
        || path == "/metrics";
    let mut granted = false;
    let caller = match identify(security, &gate.desk, headers).await {
        Ok(Identified::Caller(caller)) => caller,
        Ok(Identified::Granted { caller, resource }) => {
            // Audience binding: a token is for the resource it names, and
            // that is only ever `/mcp` of this desk.
            if !path.starts_with(oauth::RESOURCE_PATH) || !gate.oauth.is_resource(&resource) {
                let message = format!(
                    "this OAuth token is for {resource}; it is taken only there, and this desk's \
                     other paths take a person's token"
                );
                return Err(needs_token(gate, &path, &message, true));
            }
            granted = true;
            caller
        }
        Ok(Identified::WrongToken) => {
            tracing::warn!(addr = ?addr, "a request with a wrong token");
            if let Some(addr) = addr {
                security.failed(addr);
            }
            return Err(needs_token(
                gate,
                &path,
                "this token is not one of this desk's (or it was removed, revoked or expired)",
                true,
            ));
        }
        Err(e) => return Err(ApiError::from(e).into_response()),
    };
    if caller == Caller::Link && !is_public(&path) {
        if api {
            return Err(needs_token(
                gate,
                &path,
                "this server needs a token: send `Authorization: Bearer <token>`, or connect \
                 by OAuth (its metadata is at /.well-known/oauth-protected-resource/mcp)",
                false,
            ));
        }
        // Back to this page once signed in (the desk itself is where
        // signing in goes anyway).
        let back = match query {
            Some(query) => format!("{path}?{query}"),
            None => path,
        };
        // Another site's link (a chat's, a connector's consent request)
        // arrives without the `SameSite=Strict` session: this site's own
        // page sends the browser on, and the next request carries it.
        let fetch_site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
        if let Some("cross-site" | "same-site") = fetch_site {
            return Err(redirect(&format!(
                "{}?next={}",
                app::signin::DONE_PATH,
                app::encode_path(&back)
            )));
        }
        if back == "/" {
            return Err(redirect("/signin"));
        }
        return Err(redirect(&format!(
            "/signin?next={}",
            app::encode_path(&back)
        )));
    }
    // MCP is the agents' door: its tools ask, wait and cancel.
    if path.starts_with("/mcp") {
        if let Err(refusal) = caller.may_create() {
            return Err(ApiError::from(refusal).into_response());
        }
    }
    Ok((caller, granted))
}

/// Why a state-changing request comes from another site, if it does.
///
/// Browsers send `Origin`; with `Referrer-Policy: no-referrer` they send
/// `Origin: null` even for the page's own form posts, so `null` passes when
/// `Sec-Fetch-Site` (which page scripts cannot forge) says `same-origin`.
/// Requests with neither header come from agents and scripts, not from a
/// page an attacker controls.
fn cross_origin(security: &Security, headers: &HeaderMap, host: &str) -> Option<String> {
    let fetch_site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    if let Some(site @ ("cross-site" | "same-site")) = fetch_site {
        return Some(format!("a {site} page"));
    }
    let origin = headers.get(ORIGIN)?.to_str().unwrap_or("");
    let allowed = if origin == "null" {
        fetch_site == Some("same-origin")
    } else {
        security.same_origin(origin, host)
    };
    (!allowed).then(|| format!("a page at {origin:?}"))
}

/// The middleware of a listener that serves no one's asks and reads no
/// credentials (`--metrics-addr`): the [`guard`]'s `Host` check, so that
/// no other site's page reaches it by DNS rebinding, and the security
/// headers.
pub async fn host_checked(
    State(security): State<Arc<Security>>,
    request: Request,
    next: Next,
) -> Response {
    let response = match named_host(&security, &request) {
        Ok(_) => next.run(request).await,
        Err((status, message)) => error(status, message),
    };
    with_headers(response)
}

/// The security headers every response carries.
pub(crate) fn with_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // Ask URLs are capabilities: never send them on in a Referer.
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    if !headers.contains_key(CONTENT_SECURITY_POLICY) {
        headers.insert(
            CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(NON_PAGE_CSP),
        );
    }
    if !headers.contains_key(CACHE_CONTROL) {
        // Pages and API replies hold questions and answers: keep them out
        // of shared and on-disk caches.
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

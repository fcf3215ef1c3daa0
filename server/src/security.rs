//! What every request passes through: the `Host` check (DNS rebinding), the
//! `Origin` check (CSRF), the token, and the security headers on every
//! response.

use crate::{
    access::{identify, Gate, Identified},
    limit::Failures,
};
use axum::{
    extract::{ConnectInfo, Request, State},
    http::{
        header::{
            AUTHORIZATION, CACHE_CONTROL, CONTENT_SECURITY_POLICY, HOST, LOCATION, ORIGIN,
            REFERRER_POLICY, RETRY_AFTER, WWW_AUTHENTICATE, X_CONTENT_TYPE_OPTIONS,
        },
        HeaderMap, HeaderValue, Method, StatusCode, Uri,
    },
    middleware::Next,
    response::{IntoResponse, Response},
};
use desk::Caller;
use interaction::ErrorBody;
use sha2::{Digest, Sha256};
use std::{
    net::{IpAddr, SocketAddr},
    sync::Arc,
    time::Instant,
};

/// The policy of responses that are not pages: nothing may run or load.
const NON_PAGE_CSP: &str = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/// The security settings of a running server.
#[derive(Clone)]
pub struct Security {
    token_digest: Option<[u8; 32]>,
    /// A digest of the shared token that names its sessions: they end
    /// when the token changes.
    admin_tag: Option<String>,
    public_url: String,
    hosts: Vec<String>,
    secure_cookie: bool,
    failures: Arc<Failures>,
}

/// The address a request came from, when the server knows it (the TCP
/// peer; behind a reverse proxy, the proxy's).
#[derive(Debug, Clone, Copy)]
pub struct ClientAddr(pub Option<IpAddr>);

fn digest(parts: &[&[u8]]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize().into()
}

use crate::mac::hex;

/// The host name of a `Host` header or authority, lowercased, without port.
fn host_name(authority: &str) -> String {
    let authority = authority.trim().to_ascii_lowercase();
    if let Some(rest) = authority.strip_prefix('[') {
        // An IPv6 literal: `[::1]:3000`.
        return rest.split(']').next().unwrap_or_default().to_owned();
    }
    authority
        .rsplit_once(':')
        .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
        .map_or(authority.clone(), |(host, _)| host.to_owned())
}

impl Security {
    /// Settings for a server reached at `public_url`, answering to the
    /// loopback names, the public URL's host and `hosts`.
    pub fn new(token: Option<String>, public_url: String, hosts: Vec<String>) -> Self {
        let authority = public_url
            .parse::<Uri>()
            .ok()
            .and_then(|u| u.authority().map(|a| a.as_str().to_owned()))
            .unwrap_or_default();
        let public_host = host_name(&authority);
        let mut hosts: Vec<String> = hosts.iter().map(|h| host_name(h)).collect();
        hosts.extend(["localhost", "127.0.0.1", "::1"].map(str::to_owned));
        hosts.push(public_host);
        Self {
            token_digest: token.as_ref().map(|t| digest(&[t.as_bytes()])),
            admin_tag: token
                .as_ref()
                .map(|t| hex(&digest(&[b"askdesk session v2\0", t.as_bytes()]))),
            secure_cookie: public_url.starts_with("https://"),
            public_url,
            hosts,
            failures: Arc::default(),
        }
    }

    /// Whether a token protects the API and the desk's pages.
    pub fn has_token(&self) -> bool {
        self.token_digest.is_some()
    }

    /// The URL asks' links start with.
    pub fn public_url(&self) -> &str {
        &self.public_url
    }

    fn host_allowed(&self, host: &str) -> bool {
        let name = host_name(host);
        self.hosts.contains(&name)
    }

    /// Whether `origin` is this server: the origin the browser used (the
    /// checked `Host`) or the public URL's.
    fn same_origin(&self, origin: &str, host: &str) -> bool {
        let origin = origin.trim_end_matches('/').to_ascii_lowercase();
        let host = host.to_ascii_lowercase();
        origin == self.public_url.to_ascii_lowercase()
            || origin == format!("http://{host}")
            || origin == format!("https://{host}")
    }

    /// Whether `token` is the server's shared token (compared by digest,
    /// so the comparison's timing does not tell how much was right).
    pub fn is_shared_token(&self, token: &str) -> bool {
        self.token_digest
            .is_some_and(|expected| digest(&[token.trim().as_bytes()]) == expected)
    }

    /// What names the shared token's sessions, when there is a token.
    pub fn admin_tag(&self) -> Option<String> {
        self.admin_tag.clone()
    }

    /// Whether cookies are sent only over HTTPS (the public URL is).
    pub fn secure_cookie(&self) -> bool {
        self.secure_cookie
    }

    /// Counts a failed attempt at a token from `addr`.
    pub fn failed(&self, addr: IpAddr) {
        self.failures.fail(addr, Instant::now());
    }
}

fn error(status: StatusCode, message: String) -> Response {
    let body = ErrorBody {
        message,
        problems: Vec::new(),
        ask: None,
    };
    (status, axum::Json(body)).into_response()
}

/// The middleware in front of every route.
pub async fn guard(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    let worker = request.uri().path() == "/sw.js";
    let mut response = check(&gate, request, next).await;
    if worker {
        // The service worker's own policy: it fetches only this server
        // (a notification's button answers through the API).
        response.headers_mut().insert(
            CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(SERVICE_WORKER_CSP),
        );
    }
    with_headers(response)
}

/// The Content-Security-Policy of `/sw.js`, which governs the service
/// worker: nothing but requests to this server.
pub const SERVICE_WORKER_CSP: &str = "default-src 'none'; connect-src 'self'";

async fn check(gate: &Gate, mut request: Request, next: Next) -> Response {
    match admit(gate, &mut request).await {
        Ok(()) => next.run(request).await,
        Err(refusal) => refusal,
    }
}

/// Whether `request` may pass, noting on it where it came from and who
/// sends it; the refusal if not.
async fn admit(gate: &Gate, request: &mut Request) -> Result<(), Response> {
    let security = &*gate.security;
    let addr = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    request.extensions_mut().insert(ClientAddr(addr));
    let headers = request.headers();
    let host = headers
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or_else(|| request.uri().authority().map(|a| a.as_str().to_owned()));
    let Some(host) = host else {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "the request has no Host header".to_owned(),
        ));
    };
    if !security.host_allowed(&host) {
        return Err(error(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "this server does not answer to the host {:?}; reach it at {} or start it with \
                 --allowed-host {} (or --public-url)",
                host_name(&host),
                security.public_url,
                host_name(&host)
            ),
        ));
    }
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    // MCP over HTTP checks Origin on every request, as its specification asks.
    if !safe || request.uri().path().starts_with("/mcp") {
        if let Some(refusal) = cross_origin(security, headers, &host) {
            return Err(error(
                StatusCode::FORBIDDEN,
                format!(
                    "cross-origin request refused: {refusal} may not change asks on {}; \
                     requests without an Origin header (agents, scripts) are not affected",
                    security.public_url
                ),
            ));
        }
    }
    let path = request.uri().path().to_owned();
    // An address that got the token wrong too often waits, whatever it
    // sends next with a token or to the sign-in form.
    let tries_token = headers.contains_key(AUTHORIZATION)
        || (path == "/signin" && *request.method() == Method::POST);
    if let (true, Some(addr)) = (tries_token, addr) {
        if let Some(wait) = security.failures.refused(addr, Instant::now()) {
            return Err(too_many(
                "too many wrong tokens or failed sign-ins from this address",
                wait,
            ));
        }
    }
    // The site's files are everyone's: no need to ask the database who
    // fetches them.
    if crate::is_site_file(&path) {
        return Ok(());
    }
    let api = ["/api/", "/rpc/", "/mcp"]
        .iter()
        .any(|prefix| path.starts_with(prefix));
    let caller = match identify(security, &gate.desk, &gate.people, headers).await {
        Ok(Identified::Caller(caller)) => caller,
        Ok(Identified::WrongToken) => {
            tracing::warn!(addr = ?addr, "a request with a wrong token");
            if let Some(addr) = addr {
                security.failed(addr);
            }
            return Err(unauthorized(
                "this token is not one of this desk's (or it was removed)",
            ));
        }
        Err(e) => return Err(crate::api::ApiError::from(e).into_response()),
    };
    if caller == Caller::Link && !crate::is_public(&path) {
        if api {
            return Err(unauthorized(
                "this server needs a token: send `Authorization: Bearer <token>`",
            ));
        }
        // Back to this page once signed in (the desk itself is where
        // signing in goes anyway).
        let back = match request.uri().query() {
            Some(query) => format!("{path}?{query}"),
            None => path,
        };
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
            return Err(crate::api::ApiError::from(refusal).into_response());
        }
    }
    request.extensions_mut().insert(caller);
    Ok(())
}

/// `401` for the API, naming what to send.
fn unauthorized(message: &str) -> Response {
    let mut response = error(StatusCode::UNAUTHORIZED, message.to_owned());
    response
        .headers_mut()
        .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

/// `429` with `Retry-After`: `what` happened too often; try again after
/// `wait`.
pub(crate) fn too_many(what: &str, wait: std::time::Duration) -> Response {
    let seconds = wait.as_secs().max(1);
    let mut response = error(
        StatusCode::TOO_MANY_REQUESTS,
        format!("{what}; try again in {seconds} s"),
    );
    response
        .headers_mut()
        .insert(RETRY_AFTER, HeaderValue::from(seconds));
    response
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

fn with_headers(mut response: Response) -> Response {
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

/// `303 See Other` to `to`.
pub(crate) fn redirect(to: &str) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(to) {
        response.headers_mut().insert(LOCATION, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::host_name;

    #[test]
    fn host_names_lose_their_port_and_case() {
        assert_eq!(host_name("LocalHost:3000"), "localhost");
        assert_eq!(host_name("127.0.0.1"), "127.0.0.1");
        assert_eq!(host_name("[::1]:8080"), "::1");
        assert_eq!(host_name("desk.example.com"), "desk.example.com");
    }
}

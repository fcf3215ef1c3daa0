//! Client ID Metadata Documents: a client whose `client_id` is an HTTPS
//! URL is known by the JSON document at that URL, which askdesk fetches
//! (small, quickly, never by a redirect, never from a private address
//! unless told to) and keeps for a while.
//!
//! The address is resolved once and checked, and the fetch connects to
//! the addresses checked, so a name that resolves elsewhere the second
//! time (DNS rebinding) reaches nothing new.

mod addresses;

use serde_json::Value;
use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

/// The most of a document that is read.
pub const MAX_BYTES: usize = 5 * 1024;
/// How long a fetch (resolving, connecting and reading) may take.
const FETCH_TIME: Duration = Duration::from_secs(5);
/// How long a fetched document is used before it is fetched again.
const KEPT: Duration = Duration::from_secs(5 * 60);
/// How many documents are kept at most.
const KEPT_MOST: usize = 1000;

/// How documents are fetched.
#[derive(Debug, Clone, Default)]
pub struct Fetching {
    /// Whether a document may be at a loopback or private address (a desk
    /// whose clients run on its own network; tests).
    pub private_addresses: bool,
    /// A CA certificate (PEM) to trust beside the system's.
    pub extra_root: Option<Vec<u8>>,
}

/// A client's metadata document, as checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// Its URL, which is the client's id.
    pub client_id: String,
    /// The host it is served from: who the client is.
    pub host: String,
    /// The name it gives itself.
    pub client_name: Option<String>,
    /// Where codes may be sent, exactly.
    pub redirect_uris: Vec<String>,
}

/// The documents fetched, kept by URL.
#[derive(Clone)]
pub struct Documents {
    fetching: Fetching,
    roots: Vec<reqwest::Certificate>,
    kept: Arc<Mutex<HashMap<String, (Instant, Document)>>>,
}

impl std::fmt::Debug for Documents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Documents")
            .field("fetching", &self.fetching)
            .finish_non_exhaustive()
    }
}

/// Whether a client id names a metadata document (an HTTPS URL) rather
/// than a registration.
pub fn is_document_id(client_id: &str) -> bool {
    client_id.starts_with("https://")
}

impl Documents {
    /// Documents fetched as `fetching` says; an error if its CA is no PEM
    /// certificate.
    pub fn new(fetching: Fetching) -> Result<Self, String> {
        let roots = match &fetching.extra_root {
            Some(pem) => reqwest::Certificate::from_pem_bundle(pem)
                .map_err(|e| format!("the CA certificate is not PEM: {e}"))?,
            None => Vec::new(),
        };
        if fetching.extra_root.is_some() && roots.is_empty() {
            return Err("the CA file is not PEM: it holds no certificate".to_owned());
        }
        Ok(Self {
            fetching,
            roots,
            kept: Arc::default(),
        })
    }

    /// The document at `url`, kept or fetched now; why not, in words.
    pub async fn get(&self, url: &str) -> Result<Document, String> {
        if let Some(document) = self.kept(url) {
            return Ok(document);
        }
        let document = tokio::time::timeout(FETCH_TIME, self.fetch(url))
            .await
            .map_err(|_| format!("fetching {url} took over {} s", FETCH_TIME.as_secs()))??;
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() >= KEPT_MOST {
                kept.clear();
            }
            kept.insert(url.to_owned(), (Instant::now(), document.clone()));
        }
        Ok(document)
    }

    fn kept(&self, url: &str) -> Option<Document> {
        let kept = self.kept.lock().ok()?;
        let (at, document) = kept.get(url)?;
        (at.elapsed() < KEPT).then(|| document.clone())
    }

    async fn fetch(&self, id: &str) -> Result<Document, String> {
        let url = document_url(id)?;
        let port = url.port_or_known_default().unwrap_or(443);
        let (host, found) = match url.host() {
            Some(url::Host::Domain(name)) => {
                let found: Vec<SocketAddr> = tokio::net::lookup_host((name, port))
                    .await
                    .map_err(|e| format!("{name} does not resolve: {e}"))?
                    .collect();
                (name.to_owned(), found)
            }
            Some(url::Host::Ipv4(ip)) => (ip.to_string(), vec![SocketAddr::from((ip, port))]),
            Some(url::Host::Ipv6(ip)) => (ip.to_string(), vec![SocketAddr::from((ip, port))]),
            None => return Err(format!("client_id {id:?} names no host")),
        };
        if found.is_empty() {
            return Err(format!("{host} has no address"));
        }
        if !self.fetching.private_addresses {
            if let Some(private) = found.iter().find(|a| !addresses::is_public(a.ip())) {
                return Err(format!(
                    "{host} resolves to {}, which is not a public address",
                    private.ip()
                ));
            }
        }
        let mut client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(FETCH_TIME)
            .resolve_to_addrs(&host, &found);
        for root in &self.roots {
            client = client.add_root_certificate(root.clone());
        }
        let client = client.build().map_err(|e| e.to_string())?;
        let mut response = client
            .get(url.clone())
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| format!("fetching {id} failed: {e}"))?;
        if response.status() != reqwest::StatusCode::OK {
            return Err(format!(
                "{id} answered {} (redirects are not followed)",
                response.status()
            ));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| format!("reading {id} failed: {e}"))?
        {
            body.extend_from_slice(&chunk);
            if body.len() > MAX_BYTES {
                return Err(format!("{id} is over {MAX_BYTES} bytes"));
            }
        }
        let value: Value = serde_json::from_slice(&body)
            .map_err(|e| format!("{id} is not a JSON document: {e}"))?;
        checked(id, host, &value)
    }
}

/// `id` as a document's URL: HTTPS, with a path, no credentials or
/// fragment.
fn document_url(id: &str) -> Result<url::Url, String> {
    let url = url::Url::parse(id).map_err(|e| format!("client_id {id:?} is no URL: {e}"))?;
    if url.scheme() != "https" {
        return Err(format!("client_id {id:?} must be an https URL"));
    }
    if !url.username().is_empty() || url.password().is_some() || url.fragment().is_some() {
        return Err(format!(
            "client_id {id:?} may not hold credentials or a fragment"
        ));
    }
    if url.path() == "/" || url.host_str().is_none() {
        return Err(format!("client_id {id:?} must name a document's path"));
    }
    Ok(url)
}

/// The document `value` fetched from `id`, if it is a client's: its
/// `client_id` is `id` exactly, its redirect URIs are URLs, it has no
/// secret.
pub(crate) fn checked(id: &str, host: String, value: &Value) -> Result<Document, String> {
    let field = |name: &str| value.get(name);
    if field("client_id").and_then(Value::as_str) != Some(id) {
        return Err(format!(
            "the document at {id} must have \"client_id\": {id:?}, its own URL"
        ));
    }
    if field("client_secret").is_some() {
        return Err("a metadata document may not hold a client_secret".to_owned());
    }
    match field("token_endpoint_auth_method").and_then(Value::as_str) {
        None | Some("none") => {}
        Some(other) => {
            return Err(format!(
                "token_endpoint_auth_method {other:?} is not supported: only \"none\" (PKCE)"
            ))
        }
    }
    let redirect_uris: Vec<String> = field("redirect_uris")
        .and_then(Value::as_array)
        .map(|uris| {
            uris.iter()
                .filter_map(|u| u.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    if redirect_uris.is_empty() {
        return Err("redirect_uris must be a non-empty array of URLs".to_owned());
    }
    if let Some(bad) = redirect_uris
        .iter()
        .find(|u| crate::redirects::redirect_problem(u).is_some())
    {
        return Err(format!("redirect_uris: {bad:?} is not a redirect URI"));
    }
    let client_name = field("client_name")
        .and_then(Value::as_str)
        .map(|name| name.chars().take(100).collect());
    Ok(Document {
        client_id: id.to_owned(),
        host,
        client_name,
        redirect_uris,
    })
}

#[cfg(test)]
mod tests;

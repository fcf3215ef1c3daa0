//! The security settings of a running server: the token (kept as a
//! digest), the host names it answers to and its public URL, which the
//! guard checks every request against.

use super::limit::Failures;
use axum::http::Uri;
use sha2::{Digest, Sha256};
use std::{
    net::IpAddr,
    sync::Arc,
    time::{Duration, Instant},
};

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

/// The host name of a `Host` header or authority, lowercased, without port.
pub(super) fn host_name(authority: &str) -> String {
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
                .map(|t| hex::encode(digest(&[b"askdesk session v2\0", t.as_bytes()]))),
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

    /// Whether the server answers to `host`.
    pub(super) fn host_allowed(&self, host: &str) -> bool {
        let name = host_name(host);
        self.hosts.contains(&name)
    }

    /// Whether `origin` is this server: the origin the browser used (the
    /// checked `Host`) or the public URL's.
    pub(super) fn same_origin(&self, origin: &str, host: &str) -> bool {
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

    /// How long `addr` must wait before trying a token again, when it
    /// failed too often.
    pub(super) fn refused(&self, addr: IpAddr) -> Option<Duration> {
        self.failures.refused(addr, Instant::now())
    }
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

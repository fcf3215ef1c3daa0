//! askdesk as the OAuth 2.1 authorization server of its own MCP endpoint,
//! as the MCP authorization specification (revision 2026-07-28) asks of
//! one: protected resource metadata (RFC 9728) naming askdesk as the
//! endpoint's authorization server, its own metadata (RFC 8414), clients
//! known by their metadata documents (CIMD) or registered (RFC 7591), the
//! authorization code flow with PKCE S256 only, `iss` on the redirect
//! (RFC 9207), and tokens bound to the endpoint (RFC 8707) that rotate on
//! refresh and are revoked (RFC 7009).
//!
//! The rules are here; what they decide (codes, grants, tokens) the desk
//! keeps, as digests. A grant's tokens act as an agent of the desk owned
//! by the person who allowed the client ([`desk::Desk::open_grant`]), so
//! every rule of who sees what applies to them as to any agent. The HTTP
//! routes, the consent page and who is signed in are the server's.

pub mod authorize;
pub mod cimd;
mod clients;
pub mod metadata;
pub mod pkce;
mod redirects;
pub mod register;
pub mod token;

pub use clients::Client;

use serde::Serialize;
use std::time::Duration;

/// The authorization endpoint: the consent page (`GET`) and the person's
/// decision (`POST`).
pub const AUTHORIZE_PATH: &str = "/oauth/authorize";
/// The token endpoint.
pub const TOKEN_PATH: &str = "/oauth/token";
/// The registration endpoint (RFC 7591).
pub const REGISTER_PATH: &str = "/oauth/register";
/// The revocation endpoint (RFC 7009).
pub const REVOKE_PATH: &str = "/oauth/revoke";
/// Authorization server metadata (RFC 8414).
pub const SERVER_METADATA_PATH: &str = "/.well-known/oauth-authorization-server";
/// Protected resource metadata (RFC 9728), of the server's root.
pub const RESOURCE_METADATA_PATH: &str = "/.well-known/oauth-protected-resource";
/// The path of the protected resource: the MCP endpoint.
pub const RESOURCE_PATH: &str = "/mcp";

/// The endpoints programs call from anywhere, browsers' scripts included
/// (a web client exchanging its code): none of them reads a cookie, so
/// another site's page gains nothing by calling them.
pub const CROSS_ORIGIN_PATHS: &[&str] = &[TOKEN_PATH, REGISTER_PATH, REVOKE_PATH];

/// The one scope: to ask the desk's people, and to read and withdraw
/// what one asked.
pub const SCOPE: &str = "askdesk";

/// How the authorization server is set up.
#[derive(Debug, Clone)]
pub struct AuthServer {
    issuer: String,
    /// How many clients may register (RFC 7591) in all.
    pub registrations: u64,
    /// How long tokens hold.
    pub lifetimes: desk::Lifetimes,
    /// Clients' metadata documents, fetched and cached.
    pub documents: cimd::Documents,
}

/// How long a code may wait to be exchanged.
pub const CODE_LIFETIME: Duration = Duration::from_secs(60);

impl AuthServer {
    /// The authorization server of the desk at `public_url`.
    pub fn new(public_url: &str, registrations: u64, documents: cimd::Documents) -> Self {
        Self {
            issuer: public_url.trim_end_matches('/').to_owned(),
            registrations,
            lifetimes: desk::Lifetimes {
                access: Duration::from_secs(60 * 60),
                refresh: Duration::from_secs(30 * 24 * 60 * 60),
            },
            documents,
        }
    }

    /// Its issuer identifier: the desk's public URL, without a trailing
    /// slash.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The canonical URI of the protected resource: the MCP endpoint.
    pub fn resource(&self) -> String {
        format!("{}{RESOURCE_PATH}", self.issuer)
    }

    /// Where the MCP endpoint's metadata is (RFC 9728 section 3.1: the
    /// well-known path, then the resource's path).
    pub fn resource_metadata_url(&self) -> String {
        format!("{}{RESOURCE_METADATA_PATH}{RESOURCE_PATH}", self.issuer)
    }

    /// The `WWW-Authenticate` value of a request to the MCP endpoint that
    /// has no token, or one that does not hold (`invalid_token`).
    pub fn challenge(&self, invalid: bool) -> String {
        let error = if invalid {
            ", error=\"invalid_token\""
        } else {
            ""
        };
        format!(
            "Bearer resource_metadata=\"{}\", scope=\"{SCOPE}\"{error}",
            self.resource_metadata_url()
        )
    }

    /// Whether `resource`, as a client named it, is the MCP endpoint
    /// (compared as URLs: scheme and host in any case, one trailing slash
    /// or none).
    pub fn is_resource(&self, resource: &str) -> bool {
        same_resource(resource, &self.resource())
    }
}

/// Whether two resource URIs name the same resource.
pub(crate) fn same_resource(a: &str, b: &str) -> bool {
    let canonical = |s: &str| {
        url::Url::parse(s)
            .ok()
            .filter(|u| u.fragment().is_none())
            .map(|u| {
                let mut text = u.to_string();
                if text.ends_with('/') {
                    text.pop();
                }
                text
            })
    };
    matches!((canonical(a), canonical(b)), (Some(a), Some(b)) if a == b)
}

/// An OAuth error reply's body (RFC 6749 section 5.2): the code, and what
/// went wrong in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OAuthError {
    /// The error code: `invalid_request`, `invalid_grant`, …
    pub error: &'static str,
    /// What was wrong, naming the parameter and the rule.
    pub error_description: String,
    /// The HTTP status it goes with.
    #[serde(skip)]
    pub status: u16,
}

impl OAuthError {
    /// `400` with `error`.
    pub fn bad(error: &'static str, description: impl Into<String>) -> Self {
        Self {
            error,
            error_description: description.into(),
            status: 400,
        }
    }

    /// `invalid_request`: a parameter missing or malformed.
    pub fn invalid_request(description: impl Into<String>) -> Self {
        Self::bad("invalid_request", description)
    }

    /// `invalid_grant`: a code or refresh token that does not hold.
    pub fn invalid_grant(description: impl Into<String>) -> Self {
        Self::bad("invalid_grant", description)
    }

    /// `server_error` (500): the desk's storage failed; the log says why.
    pub fn storage(e: &desk::DeskError) -> Self {
        tracing::warn!("OAuth: the desk failed: {e}");
        Self {
            error: "server_error",
            error_description: "the desk could not read or write its storage".to_owned(),
            status: 500,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server() -> AuthServer {
        AuthServer::new(
            "https://desk.example/",
            10,
            cimd::Documents::new(cimd::Fetching::default()).expect("documents"),
        )
    }

    #[test]
    fn the_resource_is_the_mcp_endpoint_named_by_the_issuer() {
        let server = server();
        assert_eq!(server.issuer(), "https://desk.example");
        assert_eq!(server.resource(), "https://desk.example/mcp");
        for same in [
            "https://desk.example/mcp",
            "https://DESK.example/mcp/",
            "HTTPS://desk.example:443/mcp",
        ] {
            assert!(server.is_resource(same), "{same}");
        }
        for other in [
            "https://desk.example",
            "https://desk.example/mcp#x",
            "https://other.example/mcp",
            "http://desk.example/mcp",
            "https://desk.example/mcp/other",
            "mcp",
        ] {
            assert!(!server.is_resource(other), "{other}");
        }
    }

    #[test]
    fn the_challenge_names_the_resource_metadata() {
        let server = server();
        assert_eq!(
            server.challenge(false),
            "Bearer resource_metadata=\"https://desk.example/.well-known/oauth-protected-resource/mcp\", scope=\"askdesk\""
        );
        assert!(server.challenge(true).ends_with("error=\"invalid_token\""));
    }
}

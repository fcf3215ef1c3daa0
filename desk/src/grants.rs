//! What askdesk keeps as the OAuth authorization server of its MCP
//! endpoint: registered clients, the codes a person's consent issues, the
//! grants they open and the grants' tokens. A grant's tokens act as an
//! agent of the desk owned by the person who allowed the client, so every
//! rule of who sees what applies to them as to any agent. Codes and tokens
//! are kept only as digests ([`crate::digest`]).

use crate::{error::StoreError, people::Person};
use async_trait::async_trait;

/// A client registered by dynamic client registration (RFC 7591).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthClient {
    /// The id askdesk gave it.
    pub client_id: String,
    /// The name it gave itself (not verified by anyone).
    pub name: String,
    /// Where it may be sent back to, exactly.
    pub redirect_uris: Vec<String>,
    /// `native` or `web`.
    pub application_type: String,
    /// When it registered (ms).
    pub created_at: i64,
}

/// What a client was allowed, and by whom: a code's or a grant's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    /// The person who allowed it.
    pub owner: String,
    /// The client's id (a metadata document's URL, or a registered id).
    pub client_id: String,
    /// What the consent page called the client.
    pub client_name: String,
    /// Whether the client's name is its metadata document's domain
    /// (`false`: a registration's own name, unverified).
    pub verified: bool,
    /// The scopes allowed, separated by spaces.
    pub scope: String,
    /// The resource (the MCP endpoint's URL) its tokens are for.
    pub resource: String,
}

/// A code, as the authorization endpoint issued it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code {
    /// What the person allowed.
    pub terms: Terms,
    /// The redirect URI the code was sent to: the token request must name
    /// it again.
    pub redirect_uri: String,
    /// The PKCE challenge (S256) the verifier must meet.
    pub challenge: String,
    /// Until when it may be exchanged (ms).
    pub expires_at: i64,
}

/// What taking a code found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeTaken {
    /// The code, taken now for the first time.
    Fresh(Code),
    /// Taken before: the grant it opened then, if it did, is revoked.
    Reused,
    /// No such code.
    Unknown,
}

/// A connected client: the terms a person allowed, acting as `agent`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantRecord {
    /// Its id.
    pub id: String,
    /// The agent its tokens act as.
    pub agent: String,
    /// What was allowed.
    pub terms: Terms,
    /// When it was opened (ms).
    pub created_at: i64,
}

/// A token of a grant, to be stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewToken {
    /// The token's digest.
    pub digest: String,
    /// `access` or `refresh`.
    pub kind: TokenKind,
    /// Until when it holds (ms).
    pub expires_at: i64,
}

/// A token's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// Presented on each request to the MCP endpoint.
    Access,
    /// Exchanged once for new tokens.
    Refresh,
}

impl TokenKind {
    /// As the database keeps it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Access => "access",
            Self::Refresh => "refresh",
        }
    }
}

/// An access token that holds: the agent it acts as, and its grant's
/// terms (the resource it is for, the scopes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bearer {
    /// The agent.
    pub agent: Person,
    /// The grant.
    pub grant: GrantRecord,
}

/// What presenting a refresh token found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refreshed {
    /// It held: the new tokens are stored, it is used up.
    Rotated(GrantRecord),
    /// Used before: its grant is revoked, with every token of it.
    Reused,
    /// No such token, or it expired, or its grant is gone.
    Unknown,
}

/// Where OAuth's state is kept; part of every `Store`.
#[async_trait]
pub trait Grants: Send + Sync {
    /// Registers `client` unless `cap` clients are registered already
    /// (`false`, nothing stored).
    async fn register_client(&self, client: &OAuthClient, cap: u64) -> Result<bool, StoreError>;

    /// The registered client with this id.
    async fn oauth_client(&self, client_id: &str) -> Result<Option<OAuthClient>, StoreError>;

    /// Stores `code` by its digest, forgetting codes that expired before
    /// `now`.
    async fn insert_code(&self, digest: &str, code: &Code, now: i64) -> Result<(), StoreError>;

    /// Takes the code with this digest: once only, and before it expires
    /// at `now`. A second take revokes the grant the first opened.
    async fn take_code(&self, digest: &str, now: i64) -> Result<CodeTaken, StoreError>;

    /// Opens `grant` for the code with digest `code`, with its first
    /// tokens, in one transaction.
    async fn open_grant(
        &self,
        grant: &GrantRecord,
        code: &str,
        tokens: &[NewToken],
    ) -> Result<(), StoreError>;

    /// The access token with this digest, if it holds at `now`: its grant
    /// is not revoked, its owner and agent are people of the desk.
    async fn bearer(&self, digest: &str, now: i64) -> Result<Option<Bearer>, StoreError>;

    /// Uses up the refresh token with digest `digest` at `now` and stores
    /// `tokens` for its grant in its place; one that was used before
    /// revokes the grant.
    async fn refresh(
        &self,
        digest: &str,
        now: i64,
        tokens: &[NewToken],
    ) -> Result<Refreshed, StoreError>;

    /// The grant a token (of either kind) with this digest belongs to.
    async fn grant_of_token(&self, digest: &str) -> Result<Option<GrantRecord>, StoreError>;

    /// Revokes the grant `id` with all its tokens; whether there was one.
    async fn revoke_grant(&self, id: &str) -> Result<bool, StoreError>;

    /// The grants `owner` allowed (every grant without one), newest first.
    async fn grants(&self, owner: Option<&str>) -> Result<Vec<GrantRecord>, StoreError>;
}

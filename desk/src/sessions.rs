//! Signed-in browsers' sessions, and the one-time sign-in links that open
//! one on another device (a phone scanning the desk's code). Cookies and
//! links' secrets are kept only as SHA-256 digests; a session or link is
//! a person's, or the shared token's holder's, and ends with them.

use crate::{error::StoreError, people::Person};
use async_trait::async_trait;
use interaction::Timestamp;
use std::fmt;

/// How long a signed-in browser stays signed in: 30 days.
pub const SESSION_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// How long a one-time sign-in link works: 10 minutes, long enough to
/// pick up a phone and scan, short enough that a link seen over a
/// shoulder or left in a chat is soon worthless.
pub const LINK_MS: i64 = 10 * 60 * 1000;

/// Whose a signed-in session is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grant {
    /// A person's.
    Person(Person),
    /// The holder of the server's shared token, named by `tag` (a digest
    /// of that token: a session outlives no change of the token).
    Admin {
        /// The digest.
        tag: String,
    },
}

impl Grant {
    /// Whose sessions this grant opens, as lists of sessions name them.
    pub fn holder(&self) -> Holder {
        match self {
            Self::Person(person) => Holder::Person(person.name.clone()),
            Self::Admin { tag } => Holder::SharedToken { tag: tag.clone() },
        }
    }
}

/// Whose a session is, as a list of sessions names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// A person, by name.
    Person(String),
    /// The holder of the server's shared token, by the tag of its
    /// sessions ([`Grant::Admin`]).
    SharedToken {
        /// The tag.
        tag: String,
    },
}

impl Holder {
    /// The person's name, when it is a person.
    pub fn name(&self) -> Option<&str> {
        match self {
            Self::Person(name) => Some(name),
            Self::SharedToken { .. } => None,
        }
    }
}

/// How a session was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opened {
    /// With a token, on the sign-in form.
    Token,
    /// With a one-time sign-in link (a phone that scanned the desk's code).
    Link,
}

impl Opened {
    /// How the database and the command line write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Token => "token",
            Self::Link => "link",
        }
    }

    /// The way [`Opened::as_str`] wrote.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "token" => Some(Self::Token),
            "link" => Some(Self::Link),
            _ => None,
        }
    }
}

/// A session's name in lists: the first 16 hex digits of its cookie's
/// digest. It tells nothing of the cookie, so it may be shown and typed
/// (`askdesk people sign-out ID`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionId(String);

impl SessionId {
    /// How many hex digits it has: enough that two sessions of one desk
    /// do not share one.
    pub const LEN: usize = 16;

    /// The id of the session whose cookie has the digest `digest`.
    pub(crate) fn of_digest(digest: &str) -> Self {
        Self(digest.chars().take(Self::LEN).collect())
    }

    /// The id of the session whose cookie is `cookie`.
    pub fn of_cookie(cookie: &str) -> Self {
        Self::of_digest(&crate::people::digest(cookie))
    }

    /// An id as typed; `None` unless it is 16 hex digits.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim().to_ascii_lowercase();
        let hex = text.len() == Self::LEN && text.bytes().all(|b| b.is_ascii_hexdigit());
        hex.then_some(Self(text))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A signed-in session as lists show it: never its cookie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionInfo {
    /// Its name in lists.
    pub id: SessionId,
    /// Whose it is.
    pub holder: Holder,
    /// How it was opened.
    pub opened: Opened,
    /// When it was opened.
    pub created_at: Timestamp,
    /// When it ends, unless it is ended first.
    pub expires_at: Timestamp,
}

/// A one-time sign-in link just made: its secret, shown this once and
/// kept only as a digest, and when it stops working.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignInLink {
    /// The secret the link's URL carries.
    pub code: String,
    /// When it stops working, used or not.
    pub expires_at: Timestamp,
}

/// A one-time sign-in link that works, as its page shows it before use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkValid {
    /// Whose sign-in it gives.
    pub holder: Holder,
    /// When it stops working.
    pub expires_at: Timestamp,
}

/// Why a sign-in link signs nothing in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LinkRefusal {
    /// It signed a device in already: each link does so once.
    #[error("this sign-in link was used already")]
    Used,
    /// Its time is up.
    #[error("this sign-in link has expired")]
    Expired,
    /// No link of this desk has this secret (or its person was removed).
    #[error("this is no sign-in link of this desk")]
    Unknown,
}

impl LinkRefusal {
    /// The HTTP status that stands for it: a link that was is gone (410),
    /// one that never was is not found (404).
    pub fn http_status(self) -> u16 {
        match self {
            Self::Used | Self::Expired => 410,
            Self::Unknown => 404,
        }
    }
}

/// The sessions and sign-in links a store keeps; part of every `Store`.
#[async_trait]
pub trait Sessions: Send + Sync {
    /// Keeps a session, by the digest of its cookie, opened so at `at`,
    /// until `expires_at`.
    async fn add_session(
        &self,
        digest: &str,
        grant: &Grant,
        opened: Opened,
        at: i64,
        expires_at: i64,
    ) -> Result<(), StoreError>;

    /// Whose the session with this digest is, if it is still valid at
    /// `now` (and its person still exists).
    async fn session(&self, digest: &str, now: i64) -> Result<Option<Grant>, StoreError>;

    /// Ends the session with this digest.
    async fn remove_session(&self, digest: &str) -> Result<(), StoreError>;

    /// The sessions still valid at `now` (of `holder` only, when given),
    /// newest first.
    async fn sessions(
        &self,
        holder: Option<&Holder>,
        now: i64,
    ) -> Result<Vec<SessionInfo>, StoreError>;

    /// Ends the session named `id` (only if it is `holder`'s, when given);
    /// whether there was one.
    async fn remove_session_by_id(
        &self,
        id: &SessionId,
        holder: Option<&Holder>,
    ) -> Result<bool, StoreError>;

    /// Keeps a one-time sign-in link for `grant`, by the digest of its
    /// secret, made at `at`, until `expires_at`.
    async fn add_link(
        &self,
        digest: &str,
        grant: &Grant,
        at: i64,
        expires_at: i64,
    ) -> Result<(), StoreError>;

    /// What the link with this digest would do at `now`, without using it.
    async fn link(
        &self,
        digest: &str,
        now: i64,
    ) -> Result<Result<LinkValid, LinkRefusal>, StoreError>;

    /// Uses the link with this digest at `now`, once across every
    /// instance: in one transaction, marks it used if it is unused and
    /// unexpired, and opens a session for its grant by the cookie digest
    /// `session` until `session_expires_at`. Whose the session is, or why
    /// the link opened none.
    async fn use_link(
        &self,
        digest: &str,
        now: i64,
        session: &str,
        session_expires_at: i64,
    ) -> Result<Result<Grant, LinkRefusal>, StoreError>;
}

//! What the guard knows beyond the request: the settings and the desk it
//! checks requests against, shared by the guard and the check it leaves on
//! each request ([`Recheck`](super::recheck::Recheck)).

use super::security::Security;
use desk::Desk;
use std::sync::Arc;

/// What the guard checks requests against.
#[derive(Clone)]
pub struct Gate {
    /// Host, origin and token settings.
    pub security: Arc<Security>,
    /// The people and sessions.
    pub desk: Desk,
    /// The authorization server whose tokens `/mcp` takes.
    pub oauth: Arc<oauth::AuthServer>,
    /// How long a connector's tool call may wait (`--oauth-call-seconds`).
    pub call_limit: std::time::Duration,
    /// Paths open to anyone from any Host, without a token (the probes):
    /// they pass unchecked, and their responses carry the security
    /// headers.
    pub open: &'static [&'static str],
}

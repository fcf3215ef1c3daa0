//! What belongs to whom besides asks: an agent's session belongs to the
//! agent that first named it, and an MCP session to the credential that
//! opened it. Owners are named by [`crate::record::AskedBy::scope`]: a
//! person's name, or `""` for a caller with every right.

use crate::error::StoreError;
use async_trait::async_trait;

/// Where owners are kept.
#[async_trait]
pub trait Owners {
    /// Claims `session` for `owner` at `at` unless someone has it already;
    /// either way, its owner now (another instance may have claimed it
    /// first).
    async fn claim_session(
        &self,
        session: &str,
        owner: &str,
        at: i64,
    ) -> Result<String, StoreError>;

    /// The owner of `session`, if anyone has named it since askdesk
    /// recorded owners.
    async fn session_owner(&self, session: &str) -> Result<Option<String>, StoreError>;

    /// Records that the MCP session whose id has the digest `digest` was
    /// opened by `holder` at `at`, forgetting those opened before `before`.
    async fn hold_mcp_session(
        &self,
        digest: &str,
        holder: &str,
        at: i64,
        before: i64,
    ) -> Result<(), StoreError>;

    /// Who opened the MCP session whose id has the digest `digest`.
    async fn mcp_session_holder(&self, digest: &str) -> Result<Option<String>, StoreError>;
}

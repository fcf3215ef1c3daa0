//! Who opened each MCP session, by the digest of its id: the server's
//! `/mcp` refuses a session to any other credential.

use super::Desk;
use crate::error::DeskError;

impl Desk {
    /// Records that the MCP session whose id has the digest `digest` was
    /// opened by `holder` ([`crate::record::AskedBy::scope`]) at `at`,
    /// forgetting sessions opened before `before`.
    pub async fn hold_mcp_session(
        &self,
        digest: &str,
        holder: &str,
        at: i64,
        before: i64,
    ) -> Result<(), DeskError> {
        Ok(self
            .store
            .hold_mcp_session(digest, holder, at, before)
            .await?)
    }

    /// Who opened the MCP session whose id has the digest `digest`.
    pub async fn mcp_session_holder(&self, digest: &str) -> Result<Option<String>, DeskError> {
        Ok(self.store.mcp_session_holder(digest).await?)
    }
}

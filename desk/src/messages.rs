//! Messages from the person at the desk into an agent's running session:
//! kept in order per session, for the session to read after the last one
//! it read.

use crate::{error::StoreError, id::AskId};
use async_trait::async_trait;
use interaction::SessionMessage;

/// Where messages to sessions live.
#[async_trait]
pub trait Messages {
    /// Keeps a message to `session`, written on ask `ask` by `from` (a
    /// person's name) at `at`: its number, larger than any before.
    async fn add_message(
        &self,
        session: &str,
        ask: &AskId,
        text: &str,
        from: Option<&str>,
        at: i64,
    ) -> Result<u64, StoreError>;

    /// The messages written on ask `ask`, oldest first, at most `limit`.
    async fn messages_on(&self, ask: &AskId, limit: u32)
        -> Result<Vec<SessionMessage>, StoreError>;

    /// The messages to `session` numbered after `after`, oldest first, at
    /// most `limit`.
    async fn messages_after(
        &self,
        session: &str,
        after: u64,
        limit: u32,
    ) -> Result<Vec<SessionMessage>, StoreError>;
}

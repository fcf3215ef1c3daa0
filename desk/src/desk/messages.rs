//! Messages from the person answering an ask into the running session of
//! the agent that asked: written as an answer is, with the same right;
//! read by the session after the last one it read, waiting for the next.

use super::Desk;
use crate::{
    error::DeskError,
    people::{Actor, Caller, Finishing},
};
use interaction::{NewMessage, Role, SessionMessage, SessionMessages, Timestamp};
use std::time::Duration;

/// The most messages one read returns.
const READ_LIMIT: u32 = 100;

/// The most messages written on one ask.
pub const MESSAGE_CAP: u32 = 100;

/// The most messages written on one ask within [`RATE_WINDOW_MS`].
pub const MESSAGES_PER_MINUTE: usize = 10;

/// The window of [`MESSAGES_PER_MINUTE`].
const RATE_WINDOW_MS: i64 = 60_000;

/// How often a waiting read looks for messages written through another
/// instance; those written through this one wake it at once.
const LOOK_AGAIN: Duration = Duration::from_secs(1);

impl Desk {
    /// Writes `message` into the session of the agent that made ask `id`,
    /// if `by` may answer it and it is still pending.
    pub async fn message(
        &self,
        id: &str,
        message: NewMessage,
        by: &Actor,
    ) -> Result<SessionMessage, DeskError> {
        let record = self.read_for(id, &by.caller).await?;
        if let Caller::Person(person) = &by.caller {
            if person.role == Role::Agent {
                return Err(DeskError::Forbidden(
                    "an agent's token cannot write to an agent's session; the person at the \
                     desk does"
                        .to_owned(),
                ));
            }
        }
        self.may(by, &record.to, Finishing::Answer).await?;
        let session = record.session.as_deref().ok_or_else(|| {
            DeskError::Conflict(
                "the agent that made this ask reads no messages: only an agent in Claude \
                 Code's channel (askdesk mcp) does; answer the ask instead"
                    .to_owned(),
            )
        })?;
        if record.end.is_some() {
            return Err(DeskError::Conflict(format!(
                "this ask was {}; its agent has moved on, so nothing more is written to its \
                 session",
                record.status().as_str()
            )));
        }
        let text = message.validate().map_err(DeskError::Invalid)?;
        let at = self.now_ms();
        self.room_for_message(&record.id, at).await?;
        let from = by.caller.message_sender();
        let seq = self
            .store
            .add_message(session, &record.id, &text, from.as_deref(), at)
            .await?;
        tracing::info!(id = %crate::Logged(record.id.as_str()), "a message to the agent's session");
        self.written.notify_waiters();
        Ok(SessionMessage {
            seq,
            ask: record.id.to_string(),
            text,
            from,
            at: Timestamp::from_ms(at),
        })
    }

    /// The messages written on ask `id`, oldest first: none for an id
    /// that is no ask's. For a page that has read the ask already, so it
    /// is not read again.
    pub async fn messages_on(&self, id: &str) -> Result<Vec<SessionMessage>, DeskError> {
        match crate::id::AskId::parse(id) {
            Some(id) => Ok(self.store.messages_on(&id, READ_LIMIT).await?),
            None => Ok(Vec::new()),
        }
    }

    /// Refuses a message on ask `id` at `at` past its cap, or faster than
    /// its rate: one person's hand cannot flood an agent's session.
    async fn room_for_message(&self, id: &crate::id::AskId, at: i64) -> Result<(), DeskError> {
        let written = self.store.messages_on(id, MESSAGE_CAP).await?;
        if written.len() >= MESSAGE_CAP as usize {
            return Err(DeskError::TooMany(format!(
                "this ask has {MESSAGE_CAP} messages already, the most one ask takes; answer \
                 it instead"
            )));
        }
        let since = Timestamp::from_ms(at.saturating_sub(RATE_WINDOW_MS));
        let lately = written.iter().filter(|m| m.at > since).count();
        if lately >= MESSAGES_PER_MINUTE {
            return Err(DeskError::TooMany(format!(
                "at most {MESSAGES_PER_MINUTE} messages a minute are written on one ask; wait a \
                 moment and send it again"
            )));
        }
        Ok(())
    }

    /// The messages to `session` after number `after`, oldest first; with
    /// none yet, waits up to `wait` for one. Only the session's agent (the
    /// one that first named it), admins and callers with every right read
    /// them; for anyone else the session is not found.
    pub async fn messages(
        &self,
        session: &str,
        after: u64,
        wait: Option<Duration>,
        caller: &Caller,
    ) -> Result<SessionMessages, DeskError> {
        let owner = self.store.session_owner(session).await?;
        if !caller.reads_session(owner.as_deref()) {
            return Err(DeskError::NotFound);
        }
        let until = wait.map(|wait| tokio::time::Instant::now() + wait.min(crate::MAX_WAIT));
        loop {
            // Listen before reading: a message between the two wakes us.
            let written = self.written.notified();
            tokio::pin!(written);
            written.as_mut().enable();
            let messages = self
                .store
                .messages_after(session, after, READ_LIMIT)
                .await?;
            let now = tokio::time::Instant::now();
            match until {
                Some(until) if messages.is_empty() && now < until => {
                    let _ = tokio::time::timeout((until - now).min(LOOK_AGAIN), written).await;
                }
                _ => {
                    let last = messages.last().map_or(after, |m| m.seq);
                    return Ok(SessionMessages { messages, last });
                }
            }
        }
    }
}

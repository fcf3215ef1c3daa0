//! Claude Code's channel (research preview, Claude Code 2.1.81 or later),
//! on `askdesk mcp` only: a channel is a server Claude Code launches over
//! stdio. Declaring `claude/channel/permission` makes Claude Code relay
//! each permission prompt here as well as showing it in the terminal
//! (`notifications/claude/channel/permission_request`); askdesk puts it to
//! the desk as the permission hook does, and the person's allow or deny
//! goes back as `notifications/claude/channel/permission`. Whichever
//! answer arrives first applies: the person at the terminal is never
//! locked out. A denial in the person's words also goes into the session
//! as a channel event (`notifications/claude/channel`), since the verdict
//! itself carries no text.
//!
//! Claude Code does not say when the terminal answered first. A prompt's
//! ask is withdrawn when the session shows it moved on: its next relayed
//! prompt, or its next call of one of askdesk's tools.
//!
//! The first relayed prompt shows the channel is live (Claude Code relays
//! only to a channel it loaded). From then on every ask of this session
//! names it (`session`), so the ask's page lets the person write to it,
//! and what they write comes into the session as a channel event.

use crate::{
    backend::{Backend, BY_CLIENT_TOKEN},
    hook::relayed,
};
use relayed::{Relayed, Verdict};
use rmcp::{
    model::{CustomNotification, ServerCapabilities, ServerNotification},
    service::Peer,
    RoleServer,
};
use serde_json::json;
use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex,
    },
};

/// The capability that makes Claude Code listen for channel events.
pub const CHANNEL: &str = "claude/channel";
/// The capability that makes it relay permission prompts.
pub const PERMISSION: &str = "claude/channel/permission";
/// A prompt relayed to askdesk.
pub const PERMISSION_REQUEST: &str = "notifications/claude/channel/permission_request";
/// A verdict sent back.
pub const VERDICT: &str = "notifications/claude/channel/permission";
/// An event into the session.
pub const EVENT: &str = "notifications/claude/channel";

/// What Claude Code's model is told about askdesk's channel events.
pub const INSTRUCTIONS: &str = "Events from the askdesk channel (<channel source=\"askdesk\">) are what the person at the askdesk desk wrote: when they denied a permission request relayed to them (with request_id), or a message about one of your asks (with ask_id); take them as the person's instruction.";

/// How long one read of the session's messages waits at the desk.
const READ_WAIT: std::time::Duration = std::time::Duration::from_secs(300);

/// How long to wait before reading again after the desk failed.
const AFTER_FAILURE: std::time::Duration = std::time::Duration::from_secs(5);

/// The channel's capabilities, declared beside askdesk's others.
pub fn declare(capabilities: &mut ServerCapabilities) {
    let experimental = capabilities
        .experimental
        .get_or_insert_with(Default::default);
    experimental.insert(CHANNEL.to_owned(), Default::default());
    experimental.insert(PERMISSION.to_owned(), Default::default());
}

/// The prompts relayed and still waiting at the desk (by the prompt's id,
/// the ask's), and the session's name at the desk.
#[derive(Clone)]
pub struct Relay {
    waiting: Arc<Mutex<HashMap<String, String>>>,
    /// Held while a prompt is put to the desk, so that what comes after it
    /// (the next prompt, a tool call) finds its ask to withdraw even when
    /// it arrives before the desk has answered the create.
    turn: Arc<tokio::sync::Mutex<()>>,
    /// A name no other session has: 128 random bits.
    session: Arc<str>,
    /// Whether Claude Code has relayed a prompt: the channel is live.
    live: Arc<AtomicBool>,
}

impl Relay {
    /// A relay for one session.
    pub fn new() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)?;
        Ok(Self {
            waiting: Arc::default(),
            turn: Arc::default(),
            session: hex::encode(bytes).into(),
            live: Arc::default(),
        })
    }

    /// The session's name for its asks, once the channel is live.
    pub fn session(&self) -> Option<String> {
        self.live
            .load(Ordering::Acquire)
            .then(|| self.session.to_string())
    }

    /// A notification from Claude Code: a relayed prompt is put to the
    /// desk and its verdict sent back when the person decides; others
    /// are not askdesk's.
    pub async fn notified(
        &self,
        backend: &Backend,
        peer: Peer<RoleServer>,
        notification: CustomNotification,
    ) {
        if notification.method != PERMISSION_REQUEST {
            return;
        }
        let relayed = match notification.params_as::<Relayed>() {
            Ok(Some(relayed)) => relayed,
            Ok(None) | Err(_) => {
                tracing::warn!(
                    "a relayed permission prompt askdesk cannot read: the terminal decides"
                );
                return;
            }
        };
        let turn = self.turn.lock().await;
        // A new prompt: the one before it was decided in the terminal.
        self.withdraw(backend).await;
        if !self.live.swap(true, Ordering::AcqRel) {
            tokio::spawn(self.clone().pass_messages(backend.clone(), peer.clone()));
        }
        let new = match relayed.ask() {
            Ok(mut new) => {
                new.session = self.session();
                new
            }
            Err(why) => {
                tracing::warn!("a relayed permission prompt could not be put as an ask: {why}");
                return;
            }
        };
        let created = match backend.create(new, None, &BY_CLIENT_TOKEN).await {
            Ok(created) => created,
            Err(e) => {
                tracing::warn!("the desk refused a relayed permission prompt: {e}");
                return;
            }
        };
        self.lock()
            .insert(relayed.request_id.clone(), created.id.clone());
        drop(turn);
        let relay = self.clone();
        let backend = backend.clone();
        tokio::spawn(async move {
            let verdict = relay
                .decided(&backend, &relayed.request_id, &created.id)
                .await;
            if let Some(verdict) = verdict {
                send(&peer, &relayed, verdict).await;
            }
        });
    }

    /// The session moved on: every prompt still waiting was decided in
    /// the terminal, so its ask is withdrawn.
    pub async fn moved_on(&self, backend: &Backend) {
        let _turn = self.turn.lock().await;
        self.withdraw(backend).await;
    }

    /// Withdraws every prompt still waiting; the caller holds the turn.
    async fn withdraw(&self, backend: &Backend) {
        let withdrawn: Vec<String> = self.lock().drain().map(|(_, ask)| ask).collect();
        for id in withdrawn {
            if let Err(e) = backend.cancel(&id, &BY_CLIENT_TOKEN).await {
                tracing::warn!(ask = %desk::Logged(&id), "a relayed prompt's ask could not be withdrawn: {e}");
            }
        }
    }

    /// Waits for the ask of prompt `request_id` to end; its verdict, if
    /// the person decided it before the session moved on.
    async fn decided(&self, backend: &Backend, request_id: &str, id: &str) -> Option<Verdict> {
        let ask = match backend.ended(id, &BY_CLIENT_TOKEN).await {
            Ok(ask) => ask,
            Err(e) => {
                tracing::warn!(ask = %desk::Logged(id), "waiting for a relayed prompt failed: {e}");
                self.lock().remove(request_id);
                return None;
            }
        };
        // Withdrawn already when the session moved on.
        self.lock().remove(request_id)?;
        relayed::verdict(&ask)
    }

    /// Passes what people write to this session at the desk into it, as
    /// channel events, in order, until Claude Code leaves.
    async fn pass_messages(self, backend: Backend, peer: Peer<RoleServer>) {
        let mut last = 0;
        loop {
            let read = match backend
                .messages(&self.session, last, READ_WAIT, &BY_CLIENT_TOKEN)
                .await
            {
                Ok(read) => read,
                Err(e) => {
                    tracing::warn!("reading the session's messages failed: {e}");
                    tokio::time::sleep(AFTER_FAILURE).await;
                    continue;
                }
            };
            for message in read.messages {
                let mut meta = json!({"ask_id": message.ask});
                if let Some(from) = &message.from {
                    meta["from"] = json!(from);
                }
                let event = CustomNotification::new(
                    EVENT,
                    Some(json!({"content": message.text, "meta": meta})),
                );
                if peer
                    .send_notification(ServerNotification::CustomNotification(event))
                    .await
                    .is_err()
                {
                    // Claude Code left.
                    return;
                }
            }
            last = read.last;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        // The map holds plain strings: a panic elsewhere leaves it whole.
        self.waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The verdict to Claude Code, and a denial's words as an event.
async fn send(peer: &Peer<RoleServer>, relayed: &Relayed, verdict: Verdict) {
    let behavior = match &verdict {
        Verdict::Allow => "allow",
        Verdict::Deny(_) => "deny",
    };
    let mut notifications = vec![CustomNotification::new(
        VERDICT,
        Some(json!({"request_id": relayed.request_id, "behavior": behavior})),
    )];
    if let Verdict::Deny(Some(message)) = verdict {
        notifications.push(CustomNotification::new(
            EVENT,
            Some(json!({
                "content": message,
                "meta": {"request_id": relayed.request_id, "tool_name": relayed.tool_name},
            })),
        ));
    }
    for notification in notifications {
        if let Err(e) = peer
            .send_notification(ServerNotification::CustomNotification(notification))
            .await
        {
            tracing::warn!("the verdict could not be sent to Claude Code: {e}");
            return;
        }
    }
}

//! Notifications: the channels `--notify` names, and the worker that
//! delivers the desk's outbox to them. Every notification owed is a row
//! the desk wrote with the change that owes it; the worker claims rows
//! that are due (on any instance, each row by one), delivers each at least
//! once with its stable delivery id, and records the outcome: delivered,
//! retried later (exponential backoff with jitter) or given up. A failing
//! receiver costs rows and a worker's time, never an API request's.

mod channels;
pub mod mac;
mod messages;
pub mod webpush;

pub use channels::{
    Channel, ChannelError, ChannelSettings, Channels, NTFY_ACTIONS, SLACK_ACTIONS, WEB_PUSH,
};
pub(crate) use messages::{ask_title, context_excerpt, ended_text};

use channels::Kind;
use desk::{Attempt, Claimed, Desk, DeskError};
use messages::{ntfy_message, slack_message};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Notification attempts, by `channel` and `outcome`: `delivered`,
/// `retry` or `gave_up` (the server exports it).
pub const ATTEMPTS: &str = "askdesk_notification_attempts_total";

/// A notification attempt's outcome on `channel`.
fn attempted(channel: &str, outcome: &'static str) {
    metrics::counter!(ATTEMPTS, "channel" => channel.to_owned(), "outcome" => outcome).increment(1);
}

/// How long one delivery may take before it counts as failed.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a claim holds a delivery: a worker that dies mid-delivery
/// leaves it to be tried again after this. Longer than the delivery
/// timeout, so a live worker has recorded the outcome before; should it
/// not have, the delivery comes twice under one id, which receivers
/// de-duplicate.
pub const LEASE: Duration = Duration::from_secs(15);
/// Deliveries claimed and attempted at once.
const BATCH: u32 = 16;
/// The first retry's delay; each further one doubles it, up to [`MAX_BACKOFF`].
const FIRST_BACKOFF_MS: i64 = 2_000;
const MAX_BACKOFF_MS: i64 = 3_600_000;

/// The `X-Askdesk-Signature` of `body`: `sha256=` and the hex HMAC-SHA256
/// keyed by the secret.
pub fn signature(secret: &str, body: &[u8]) -> String {
    use crate::mac::digest;
    format!("sha256={}", hex::encode(digest(secret.as_bytes(), &[body])))
}

/// When to try a delivery again after its `attempts`th failure: twice as
/// long each time, from 2 s up to an hour, times a random factor in
/// [0.5, 1) so that receivers coming back are not hit all at once.
fn backoff_ms(attempts: u32) -> i64 {
    let doubling = attempts.saturating_sub(1).min(20);
    let full = FIRST_BACKOFF_MS
        .saturating_mul(1_i64 << doubling)
        .min(MAX_BACKOFF_MS);
    let mut byte = [0u8; 2];
    let jitter = match getrandom::fill(&mut byte) {
        Ok(()) => i64::from(u16::from_le_bytes(byte)),
        Err(_) => 0,
    };
    full / 2 + full / 2 * jitter / 65_536
}

/// Delivers the desk's outbox until `stop`: woken by every event of the
/// desk (a change may owe notifications) and every second (retries).
pub async fn run(desk: Desk, channels: Channels, stop: CancellationToken) {
    if channels.is_empty() {
        return;
    }
    let http = match reqwest::Client::builder()
        .timeout(DELIVERY_TIMEOUT)
        .user_agent(concat!("askdesk/", env!("CARGO_PKG_VERSION")))
        .build()
    {
        Ok(http) => http,
        Err(e) => {
            tracing::error!("notifications are off: no HTTP client ({e})");
            return;
        }
    };
    let mut events = desk.subscribe();
    loop {
        match desk.claim_deliveries(LEASE, BATCH).await {
            Ok(claimed) if !claimed.is_empty() => {
                let full = claimed.len() == BATCH as usize;
                futures_util::future::join_all(
                    claimed
                        .into_iter()
                        .map(|c| deliver(&desk, &channels, &http, c)),
                )
                .await;
                if full {
                    continue;
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("reading the outbox failed: {e}"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            _ = events.recv() => {}
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }
}

/// Why an attempt failed: worth trying again, or never.
enum Failure {
    Again(String),
    Final(String),
}

/// One attempt at one delivery, and its outcome recorded.
async fn deliver(desk: &Desk, channels: &Channels, http: &reqwest::Client, claimed: Claimed) {
    let outcome = match channels.find(&claimed.channel) {
        Some(channel) => attempt(desk, channels, http, channel, &claimed).await,
        None => Err(Failure::Final(
            "this channel is no longer among the server's --notify or --escalate".to_owned(),
        )),
    };
    let now = desk.now_ms();
    let record = match outcome {
        Ok(()) => Attempt::Delivered,
        Err(Failure::Final(error)) => {
            tracing::info!(delivery = %claimed.id, channel = %claimed.channel, "a notification is moot: {error}");
            Attempt::GaveUp { error }
        }
        Err(Failure::Again(error)) => {
            let retry_at = now.saturating_add(backoff_ms(claimed.attempts));
            let too_late = retry_at > claimed.created_at.saturating_add(channels.give_up_ms);
            tracing::warn!(
                delivery = %claimed.id,
                channel = %claimed.channel,
                attempts = claimed.attempts,
                "a notification failed: {error}{}",
                if too_late { "; giving up" } else { "; will retry" }
            );
            if too_late {
                Attempt::GaveUp { error }
            } else {
                Attempt::Retry { error, retry_at }
            }
        }
    };
    let outcome = match &record {
        Attempt::Delivered => "delivered",
        Attempt::Retry { .. } => "retry",
        Attempt::GaveUp { .. } => "gave_up",
    };
    attempted(&claimed.channel, outcome);
    if let Err(e) = desk.record_attempt(&claimed.id, &record).await {
        // The lease runs out and the delivery is tried again: at least once.
        tracing::warn!(delivery = %claimed.id, "recording a delivery failed: {e}");
    }
}

/// Reads the ask and sends one notification of it.
async fn attempt(
    desk: &Desk,
    channels: &Channels,
    http: &reqwest::Client,
    channel: &Channel,
    claimed: &Claimed,
) -> Result<(), Failure> {
    // The desk's own work: people are told of every ask.
    let ask = match desk
        .get(claimed.ask_id.as_str(), &desk::Caller::Unnamed)
        .await
    {
        Ok(ask) => ask,
        Err(DeskError::NotFound) => return Err(Failure::Final("the ask is gone".to_owned())),
        Err(e) => return Err(Failure::Again(format!("reading the ask failed: {e}"))),
    };
    if claimed.notice == desk::Notice::Reminder && ask.status != interaction::AskStatus::Pending {
        return Err(Failure::Final(
            "the ask ended before this reminder went out".to_owned(),
        ));
    }
    send(desk, channels, http, channel, claimed, &ask)
        .await
        .map_err(Failure::Again)
}

/// Sends one notification; why it failed, in words without secrets.
async fn send(
    desk: &Desk,
    channels: &Channels,
    http: &reqwest::Client,
    channel: &Channel,
    claimed: &Claimed,
    ask: &interaction::Ask,
) -> Result<(), String> {
    match &channel.kind {
        Kind::Webhook { url } => {
            let body = serde_json::to_vec(&serde_json::json!({
                "id": claimed.id,
                "event": claimed.notice.as_str(),
                "ask": ask,
            }))
            .map_err(|e| format!("encoding failed: {e}"))?;
            let secret = channels.secret.as_deref().unwrap_or_default();
            let reply = http
                .post(url)
                .header("content-type", "application/json")
                .header("x-askdesk-event", claimed.notice.as_str())
                .header("x-askdesk-delivery", &claimed.id)
                .header("x-askdesk-signature", signature(secret, &body))
                .body(body)
                .send()
                .await
                .map_err(|e| format!("not delivered: {}", e.without_url()))?;
            answered(reply.status())
        }
        Kind::Ntfy { root, topic, login } => {
            let message = ntfy_message(desk, topic, claimed.notice, ask);
            let mut request = http.post(root).json(&message);
            if let Some((user, password)) = login {
                request = request.basic_auth(user, Some(password));
            }
            let reply = request
                .send()
                .await
                .map_err(|e| format!("not delivered: {}", e.without_url()))?;
            answered(reply.status())
        }
        Kind::WebPush => match &channels.push {
            Some(push) => webpush::send(push, desk, http, claimed.notice, ask)
                .await
                .map_err(|e| e.to_string()),
            None => Err("Web Push has no key yet".to_owned()),
        },
        Kind::Slack { url } => {
            let message = slack_message(desk, claimed.notice, ask, channels.slack_buttons);
            let reply = http
                .post(url)
                .json(&message)
                .send()
                .await
                .map_err(|e| format!("not delivered: {}", e.without_url()))?;
            answered(reply.status())
        }
    }
}

/// A receiver's reply: 2xx is delivered, anything else a failure.
fn answered(status: reqwest::StatusCode) -> Result<(), String> {
    if status.is_success() {
        Ok(())
    } else {
        Err(format!("the receiver answered {status}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_the_hex_hmac_sha256_of_the_body() {
        // RFC 4231, test case 2.
        assert_eq!(
            signature("Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn retries_back_off_twice_as_long_each_time_with_jitter_up_to_an_hour() {
        for attempts in 1..40 {
            let full = (FIRST_BACKOFF_MS << (attempts - 1).min(20)).min(MAX_BACKOFF_MS);
            let delay = backoff_ms(attempts);
            assert!(
                full / 2 <= delay && delay < full,
                "{attempts}: {delay} of {full}"
            );
        }
    }
}

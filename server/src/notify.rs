//! Notifications: the channels `--notify` names, and the worker that
//! delivers the desk's outbox to them. Every notification owed is a row
//! the desk wrote with the change that owes it; the worker claims rows
//! that are due (on any instance, each row by one), delivers each at least
//! once with its stable delivery id, and records the outcome: delivered,
//! retried later (exponential backoff with jitter) or given up. A failing
//! receiver costs rows and a worker's time, never an API request's.

use crate::config::{ConfigError, ServeArgs};
use desk::{Attempt, Claimed, Desk, DeskError};
use sha2::{Digest, Sha256};
use std::{sync::Arc, time::Duration};
use tokio_util::sync::CancellationToken;

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

/// One place notifications go.
#[derive(Clone, PartialEq, Eq)]
pub struct Channel {
    /// How the desk and its pages name it: the kind, the host and a digest
    /// of the whole URL; never the path or query, which may be the secret.
    pub name: String,
    kind: Kind,
}

#[derive(Clone, PartialEq, Eq)]
enum Kind {
    /// POST signed JSON to this URL.
    Webhook { url: String },
    /// Publish to an ntfy topic: JSON POSTed to the server's root.
    Ntfy {
        /// `scheme://host[:port]/`.
        root: String,
        topic: String,
        /// `user:password` from the URL, sent as Basic auth.
        login: Option<(String, String)>,
    },
    /// POST a Block Kit message to a Slack incoming webhook.
    Slack { url: String },
    /// Push to every browser that subscribed (`--web-push`).
    WebPush,
}

/// The most options a Slack message offers as answer buttons.
pub const SLACK_ACTIONS: usize = 5;

/// The most options an ntfy notification offers as buttons (ntfy shows at
/// most three actions).
pub const NTFY_ACTIONS: usize = 3;

impl Channel {
    /// Reads one `--notify` value.
    pub fn parse(value: &str) -> Result<Self, ConfigError> {
        let (prefix, url) = value.split_once('+').unwrap_or(("", value));
        let known =
            "webhook+https://…, ntfy+https://host/topic or slack+https://hooks.slack.com/… \
                     (each with http:// too)";
        let url_ok = |url: &str| {
            (url.starts_with("https://") || url.starts_with("http://"))
                && url
                    .parse::<axum::http::Uri>()
                    .is_ok_and(|u| u.host().is_some())
        };
        match prefix {
            "webhook" if url_ok(url) => Ok(Self {
                name: channel_name("webhook", url),
                kind: Kind::Webhook {
                    url: url.to_owned(),
                },
            }),
            "webhook" => Err(ConfigError::new(format!(
                "--notify {}: a webhook needs an http:// or https:// URL with a host after \
                 webhook+",
                redacted(value)
            ))),
            "slack" if url_ok(url) => Ok(Self {
                name: channel_name("slack", url),
                kind: Kind::Slack {
                    url: url.to_owned(),
                },
            }),
            "slack" => Err(ConfigError::new(format!(
                "--notify {}: Slack needs its incoming-webhook URL after slack+ \
                 (https://hooks.slack.com/services/…)",
                redacted(value)
            ))),
            "ntfy" => ntfy(url).map_or_else(
                || {
                    Err(ConfigError::new(format!(
                        "--notify {}: ntfy needs http:// or https://, the server's host and one \
                         topic, e.g. ntfy+https://ntfy.sh/my-desk",
                        redacted(value)
                    )))
                },
                |kind| {
                    Ok(Self {
                        name: channel_name("ntfy", url),
                        kind,
                    })
                },
            ),
            _ => Err(ConfigError::new(format!(
                "--notify {}: not a channel askdesk knows; give {known}",
                redacted(value)
            ))),
        }
    }
}

/// The channels of a server, and what delivering to them needs.
#[derive(Clone, Default)]
pub struct Channels {
    channels: Vec<Channel>,
    secret: Option<Arc<str>>,
    give_up_ms: i64,
    /// Whether Slack messages carry answer buttons (a signing secret is
    /// set, so their presses can be checked).
    slack_buttons: bool,
    /// When waiting asks are told again.
    remind: Option<(Duration, u32)>,
    /// The channel told of an ask that waited long, and how long.
    escalate: Option<(Channel, Duration)>,
    /// The channel of browsers' push subscriptions, with `--web-push`.
    web_push: Option<Channel>,
    /// The server's Web Push identity, once the desk has its key.
    push: Option<Arc<crate::push::WebPush>>,
}

/// The name of the Web Push channel.
pub const WEB_PUSH: &str = "web push";

impl Channels {
    /// The channels' names, as the outbox keeps them.
    pub fn names(&self) -> Vec<String> {
        self.channels.iter().map(|c| c.name.clone()).collect()
    }

    /// Whether there is any channel at all.
    pub fn is_empty(&self) -> bool {
        self.channels.is_empty() && self.escalate.is_none() && self.web_push.is_none()
    }

    /// Whether browsers' push subscriptions are a channel.
    pub fn pushes(&self) -> bool {
        self.web_push.is_some()
    }

    /// The same channels pushing to browsers as `push`.
    pub fn with_push(mut self, push: Option<Arc<crate::push::WebPush>>) -> Self {
        self.push = push;
        self
    }

    /// When the desk reminds of waiting asks, and whom it escalates to.
    pub fn reminders(&self) -> desk::Reminders {
        desk::Reminders {
            every: self.remind.map(|(every, _)| every),
            max: self.remind.map_or(0, |(_, max)| max),
            escalate: self
                .escalate
                .as_ref()
                .map(|(channel, after)| (channel.name.clone(), *after)),
        }
    }

    fn find(&self, name: &str) -> Option<&Channel> {
        self.channels
            .iter()
            .chain(self.escalate.as_ref().map(|(channel, _)| channel))
            .chain(self.web_push.as_ref())
            .find(|c| c.name == name)
    }
}

impl ServeArgs {
    /// The channels `--notify` names, refusing a value askdesk cannot use
    /// (naming it, without its path or query) or a webhook without
    /// `--notify-secret`.
    pub fn channels(&self) -> Result<Channels, ConfigError> {
        let channels = self
            .notify
            .iter()
            .filter(|v| !v.trim().is_empty())
            .map(|v| Channel::parse(v.trim()))
            .collect::<Result<Vec<_>, _>>()?;
        let escalate = match (&self.escalate, self.escalate_after) {
            (Some(value), Some(after)) => Some((
                Channel::parse(value.trim()).map_err(|e| {
                    ConfigError::new(e.to_string().replacen("--notify", "--escalate", 1))
                })?,
                after,
            )),
            (None, None) => None,
            (Some(_), None) => {
                return Err(ConfigError::new(
                    "--escalate needs --escalate-after: how long an ask waits before the \
                     second channel is told (e.g. 4h)"
                        .to_owned(),
                ))
            }
            (None, Some(_)) => {
                return Err(ConfigError::new(
                    "--escalate-after needs --escalate: the channel to tell (written as for \
                     --notify)"
                        .to_owned(),
                ))
            }
        };
        if self.remind_after.is_some() && channels.is_empty() {
            return Err(ConfigError::new(
                "--remind-after needs a --notify channel to remind".to_owned(),
            ));
        }
        let mut web_push = None;
        if let Some(contact) = &self.web_push {
            if !(contact.starts_with("mailto:") || contact.starts_with("https://")) {
                return Err(ConfigError::new(format!(
                    "--web-push {contact:?}: give a contact push services can reach you at, \
                     mailto:you@example.com or an https:// URL"
                )));
            }
            web_push = Some(Channel {
                name: WEB_PUSH.to_owned(),
                kind: Kind::WebPush,
            });
        }
        let secret = self.notify_secret.as_deref().filter(|s| !s.is_empty());
        let webhooks = channels
            .iter()
            .chain(escalate.as_ref().map(|(channel, _)| channel))
            .any(|c| matches!(c.kind, Kind::Webhook { .. }));
        if webhooks && secret.is_none() {
            return Err(ConfigError::new(
                "--notify webhook+…: webhooks are signed, so they need --notify-secret \
                 (or ASKDESK_NOTIFY_SECRET), the key receivers check X-Askdesk-Signature with"
                    .to_owned(),
            ));
        }
        Ok(Channels {
            channels,
            secret: secret.map(Arc::from),
            give_up_ms: i64::try_from(self.notify_give_up.saturating_mul(1000)).unwrap_or(i64::MAX),
            slack_buttons: self
                .slack_signing_secret
                .as_deref()
                .is_some_and(|s| !s.is_empty()),
            remind: self
                .remind_after
                .map(|every| (every, self.remind_max))
                .filter(|(_, max)| *max > 0),
            escalate,
            web_push,
            push: None,
        })
    }
}

/// An ntfy URL: `http(s)://[user:password@]host[:port]/topic`.
fn ntfy(url: &str) -> Option<Kind> {
    let uri = url.parse::<axum::http::Uri>().ok()?;
    let scheme = uri
        .scheme_str()
        .filter(|s| matches!(*s, "http" | "https"))?;
    let authority = uri.authority()?.as_str();
    let (login, host) = match authority.rsplit_once('@') {
        Some((login, host)) => {
            let (user, password) = login.split_once(':').unwrap_or((login, ""));
            (Some((user.to_owned(), password.to_owned())), host)
        }
        None => (None, authority),
    };
    let topic = uri.path().trim_start_matches('/');
    let valid = !host.is_empty()
        && uri.query().is_none()
        && !topic.is_empty()
        && topic.len() <= 64
        && topic
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    valid.then(|| Kind::Ntfy {
        root: format!("{scheme}://{host}/"),
        topic: topic.to_owned(),
        login,
    })
}

/// `kind host[:port] #digest`: which receiver, without the path or query.
fn channel_name(kind: &str, url: &str) -> String {
    let host = url
        .parse::<axum::http::Uri>()
        .ok()
        .and_then(|u| {
            u.authority()
                .map(|a| a.as_str().rsplit('@').next().unwrap_or("").to_owned())
        })
        .unwrap_or_default();
    let digest = crate::mac::hex(&Sha256::digest(url.as_bytes())[..4]);
    format!("{kind} {host} #{digest}")
}

/// A `--notify` value as messages may show it: up to its host.
fn redacted(value: &str) -> String {
    match value.find("://") {
        Some(at) => {
            let rest = &value[at + 3..];
            let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
            let host = rest[..end].rsplit('@').next().unwrap_or("");
            let more = if end < rest.len() { "/…" } else { "" };
            format!("{}://{host}{more}", &value[..at])
        }
        None => value.chars().take(24).collect(),
    }
}

/// The `X-Askdesk-Signature` of `body`: `sha256=` and the hex HMAC-SHA256
/// keyed by the secret.
pub fn signature(secret: &str, body: &[u8]) -> String {
    use crate::mac::{digest, hex};
    format!("sha256={}", hex(&digest(secret.as_bytes(), &[body])))
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
    let ask = match desk.get(claimed.ask_id.as_str()).await {
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
            Some(push) => crate::push::send(push, desk, http, claimed.notice, ask).await,
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

/// Text for Slack's mrkdwn: `&`, `<` and `>` escaped, as Slack asks.
fn slack_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A button's text: Slack takes at most 75 characters.
fn slack_button_text(text: &str) -> String {
    if text.chars().count() <= 75 {
        text.to_owned()
    } else {
        text.chars().take(74).chain(['…']).collect()
    }
}

/// A Block Kit message: who asks and about what, each question with its
/// options, an "Answer" button that opens the ask, and, with a signing
/// secret, a button per option while a one-question single-select ask
/// waits (its value carries the option's action token).
fn slack_message(
    desk: &Desk,
    notice: desk::Notice,
    ask: &interaction::Ask,
    buttons: bool,
) -> serde_json::Value {
    let title = ask_title(notice, ask);
    let mut blocks = vec![serde_json::json!({
        "type": "header",
        "text": {"type": "plain_text", "text": title.chars().take(150).collect::<String>()},
    })];
    if ask.status != interaction::AskStatus::Pending {
        blocks.push(serde_json::json!({
            "type": "section",
            "text": {"type": "mrkdwn", "text": slack_escape(&ended_text(ask))},
        }));
    }
    for question in &ask.request.questions {
        let mut text = match &question.header {
            Some(header) => format!(
                "*{}*: {}",
                slack_escape(header),
                slack_escape(&question.question)
            ),
            None => format!("*{}*", slack_escape(&question.question)),
        };
        for option in &question.options {
            text.push_str(&format!("\n• {}", slack_escape(&option.label)));
            if let Some(description) = &option.description {
                text.push_str(&format!(" — {}", slack_escape(description)));
            }
        }
        blocks.push(serde_json::json!({
            "type": "section",
            "text": {"type": "mrkdwn", "text": text.chars().take(3000).collect::<String>()},
        }));
    }
    let mut elements = Vec::new();
    if buttons {
        for (i, (label, token)) in desk
            .actions(ask, SLACK_ACTIONS, interaction::Via::Slack)
            .into_iter()
            .enumerate()
        {
            elements.push(serde_json::json!({
                "type": "button",
                "action_id": format!("askdesk_answer_{i}"),
                "text": {"type": "plain_text", "text": slack_button_text(&label)},
                "value": serde_json::json!({"ask": ask.id, "label": label, "token": token}).to_string(),
            }));
        }
    }
    elements.push(serde_json::json!({
        "type": "button",
        "action_id": "askdesk_open",
        "text": {"type": "plain_text", "text": if ask.status == interaction::AskStatus::Pending { "Answer" } else { "Open" }},
        "url": ask.url,
    }));
    blocks.push(serde_json::json!({"type": "actions", "elements": elements}));
    serde_json::json!({"text": title, "blocks": blocks})
}

/// A receiver's reply: 2xx is delivered, anything else a failure.
fn answered(status: reqwest::StatusCode) -> Result<(), String> {
    if status.is_success() {
        Ok(())
    } else {
        Err(format!("the receiver answered {status}"))
    }
}

/// The ask as a person reads it in a notification: each question with
/// its options, or how it ended.
fn ask_text(ask: &interaction::Ask) -> String {
    use std::fmt::Write;
    let mut text = String::new();
    if ask.status != interaction::AskStatus::Pending {
        let _ = writeln!(text, "{}", ended_text(ask));
    }
    for question in &ask.request.questions {
        match &question.header {
            Some(header) => {
                let _ = writeln!(text, "{header}: {}", question.question);
            }
            None => {
                let _ = writeln!(text, "{}", question.question);
            }
        }
        for option in &question.options {
            match &option.description {
                Some(description) => {
                    let _ = writeln!(text, "  • {} — {description}", option.label);
                }
                None => {
                    let _ = writeln!(text, "  • {}", option.label);
                }
            }
        }
    }
    text.trim_end().to_owned()
}

/// How a finished ask ended, in a line.
pub(crate) fn ended_text(ask: &interaction::Ask) -> String {
    use interaction::AskStatus;
    match ask.status {
        AskStatus::Answered => {
            let chosen: Vec<String> = ask
                .answers
                .iter()
                .flatten()
                .flat_map(|a| a.selected.iter().cloned().chain(a.custom.clone()))
                .collect();
            format!("Answered: {}", chosen.join(", "))
        }
        AskStatus::Declined => match &ask.decline_reason {
            Some(reason) => format!("Declined: {reason}"),
            None => "Declined".to_owned(),
        },
        AskStatus::Cancelled => "Withdrawn by the agent".to_owned(),
        AskStatus::Expired => "Expired unanswered".to_owned(),
        AskStatus::Pending => "Waiting".to_owned(),
    }
}

/// The notification's title: who asks, and about what.
pub(crate) fn ask_title(notice: desk::Notice, ask: &interaction::Ask) -> String {
    let agent = ask.agent.as_deref().unwrap_or("An agent");
    let about = ask.title.as_deref().unwrap_or("a question");
    match notice {
        desk::Notice::Created => format!("{agent} asks: {about}"),
        desk::Notice::Reminder => format!("Still waiting — {agent} asks: {about}"),
        desk::Notice::Finished => format!("{agent}: {about}"),
    }
}

/// ntfy's JSON publishing: the topic, the ask as text, a click that opens
/// it, and, while it waits with one single-select question of at most
/// three options, a button per option that answers it
/// (`POST /api/v1/actions/{id}` with the option's action token).
fn ntfy_message(
    desk: &Desk,
    topic: &str,
    notice: desk::Notice,
    ask: &interaction::Ask,
) -> serde_json::Value {
    let actions: Vec<serde_json::Value> = desk
        .actions(ask, NTFY_ACTIONS, interaction::Via::Ntfy)
        .into_iter()
        .map(|(label, token)| {
            serde_json::json!({
                "action": "http",
                "label": label,
                "url": format!("{}/api/v1/actions/{}", desk.public_url(), ask.id),
                "method": "POST",
                "headers": {"Content-Type": "application/json"},
                "body": serde_json::json!({"label": label, "token": token}).to_string(),
                "clear": true,
            })
        })
        .collect();
    let priority = match notice {
        desk::Notice::Created | desk::Notice::Reminder => 4,
        desk::Notice::Finished => 2,
    };
    serde_json::json!({
        "topic": topic,
        "title": ask_title(notice, ask),
        "message": ask_text(ask),
        "click": ask.url,
        "priority": priority,
        "tags": [if notice == desk::Notice::Finished { "white_check_mark" } else { "question" }],
        "actions": actions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_are_read_and_named_without_their_secrets() {
        let hook =
            Channel::parse("webhook+https://hooks.example:8443/T0/B1/s3cret?k=v").expect("ok");
        assert!(
            hook.name.starts_with("webhook hooks.example:8443 #"),
            "{}",
            hook.name
        );
        assert!(!hook.name.contains("s3cret"));
        let plain = Channel::parse("webhook+http://127.0.0.1:9/x").expect("ok");
        assert_ne!(plain.name, hook.name);
        let ntfy = Channel::parse("ntfy+https://me:s3cret@ntfy.example/desk_topic").expect("ok");
        assert!(
            ntfy.name.starts_with("ntfy ntfy.example #"),
            "{}",
            ntfy.name
        );
        assert!(!ntfy.name.contains("s3cret"));
        assert!(
            ntfy.kind
                == Kind::Ntfy {
                    root: "https://ntfy.example/".to_owned(),
                    topic: "desk_topic".to_owned(),
                    login: Some(("me".to_owned(), "s3cret".to_owned())),
                }
        );
        for bad in [
            "pager+https://pager.example/s3cret",
            "ntfy+https://ntfy.example/",
            "ntfy+https://ntfy.example/a/s3cret",
            "ntfy+https://ntfy.example/s3cret?x=1",
            "https://hooks.example/s3cret",
            "webhook+ftp://hooks.example/s3cret",
            "webhook+https:///s3cret",
        ] {
            let message = Channel::parse(bad).err().expect("refused").to_string();
            assert!(message.starts_with("--notify "), "{message}");
            assert!(!message.contains("s3cret"), "{message}");
        }
    }

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

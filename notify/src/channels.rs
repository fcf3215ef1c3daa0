//! The channels `--notify` names: reading each value (refusing, without
//! its secret, one askdesk cannot use), naming it as the outbox keeps it,
//! and what delivering to all of them needs.

use sha2::{Digest, Sha256};
use std::{sync::Arc, time::Duration};

/// One place notifications go.
#[derive(Clone, PartialEq, Eq)]
pub struct Channel {
    /// How the desk and its pages name it: the kind, the host and a digest
    /// of the whole URL; never the path or query, which may be the secret.
    pub name: String,
    pub(super) kind: Kind,
}

#[derive(Clone, PartialEq, Eq)]
pub(super) enum Kind {
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
    pub fn parse(value: &str) -> Result<Self, ChannelError> {
        let (prefix, url) = value.split_once('+').unwrap_or(("", value));
        let known =
            "webhook+https://…, ntfy+https://host/topic or slack+https://hooks.slack.com/… \
                     (each with http:// too)";
        let url_ok = |url: &str| {
            (url.starts_with("https://") || url.starts_with("http://"))
                && url.parse::<http::Uri>().is_ok_and(|u| u.host().is_some())
        };
        match prefix {
            "webhook" if url_ok(url) => Ok(Self {
                name: channel_name("webhook", url),
                kind: Kind::Webhook {
                    url: url.to_owned(),
                },
            }),
            "webhook" => Err(ChannelError(format!(
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
            "slack" => Err(ChannelError(format!(
                "--notify {}: Slack needs its incoming-webhook URL after slack+ \
                 (https://hooks.slack.com/services/…)",
                redacted(value)
            ))),
            "ntfy" => ntfy(url).map_or_else(
                || {
                    Err(ChannelError(format!(
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
            _ => Err(ChannelError(format!(
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
    pub(super) secret: Option<Arc<str>>,
    pub(super) give_up_ms: i64,
    /// Whether Slack messages carry answer buttons (a signing secret is
    /// set, so their presses can be checked).
    pub(super) slack_buttons: bool,
    /// When waiting asks are told again.
    remind: Option<(Duration, u32)>,
    /// The channel told of an ask that waited long, and how long.
    escalate: Option<(Channel, Duration)>,
    /// The channel of browsers' push subscriptions, with `--web-push`.
    web_push: Option<Channel>,
    /// The server's Web Push identity, once the desk has its key.
    pub(super) push: Option<Arc<crate::webpush::WebPush>>,
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
    pub fn with_push(mut self, push: Option<Arc<crate::webpush::WebPush>>) -> Self {
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

    pub(super) fn find(&self, name: &str) -> Option<&Channel> {
        self.channels
            .iter()
            .chain(self.escalate.as_ref().map(|(channel, _)| channel))
            .chain(self.web_push.as_ref())
            .find(|c| c.name == name)
    }
}

/// A server's notification settings, as its command line gives them.
pub struct ChannelSettings<'a> {
    /// Each `--notify` value.
    pub notify: &'a [String],
    /// `--notify-secret`: the key webhooks are signed with.
    pub notify_secret: Option<&'a str>,
    /// `--web-push`: the contact push services may reach the server's
    /// owner at.
    pub web_push: Option<&'a str>,
    /// `--slack-signing-secret`.
    pub slack_signing_secret: Option<&'a str>,
    /// `--remind-after`.
    pub remind_after: Option<Duration>,
    /// `--remind-max`.
    pub remind_max: u32,
    /// `--escalate-after`.
    pub escalate_after: Option<Duration>,
    /// `--escalate`.
    pub escalate: Option<&'a str>,
    /// `--notify-give-up`, in seconds.
    pub notify_give_up: u64,
}

/// A notification setting that cannot work, with what to do instead.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ChannelError(String);

impl Channels {
    /// The channels `settings` name, refusing a value askdesk cannot use
    /// (naming it, without its path or query) or a webhook without
    /// `--notify-secret`.
    pub fn from_settings(settings: &ChannelSettings<'_>) -> Result<Self, ChannelError> {
        let channels = settings
            .notify
            .iter()
            .filter(|v| !v.trim().is_empty())
            .map(|v| Channel::parse(v.trim()))
            .collect::<Result<Vec<_>, _>>()?;
        let escalate = match (settings.escalate, settings.escalate_after) {
            (Some(value), Some(after)) => Some((
                Channel::parse(value.trim()).map_err(|e| {
                    ChannelError(e.to_string().replacen("--notify", "--escalate", 1))
                })?,
                after,
            )),
            (None, None) => None,
            (Some(_), None) => {
                return Err(ChannelError(
                    "--escalate needs --escalate-after: how long an ask waits before the \
                     second channel is told (e.g. 4h)"
                        .to_owned(),
                ))
            }
            (None, Some(_)) => {
                return Err(ChannelError(
                    "--escalate-after needs --escalate: the channel to tell (written as for \
                     --notify)"
                        .to_owned(),
                ))
            }
        };
        if settings.remind_after.is_some() && channels.is_empty() {
            return Err(ChannelError(
                "--remind-after needs a --notify channel to remind".to_owned(),
            ));
        }
        let mut web_push = None;
        if let Some(contact) = settings.web_push {
            if !(contact.starts_with("mailto:") || contact.starts_with("https://")) {
                return Err(ChannelError(format!(
                    "--web-push {contact:?}: give a contact push services can reach you at, \
                     mailto:you@example.com or an https:// URL"
                )));
            }
            web_push = Some(Channel {
                name: WEB_PUSH.to_owned(),
                kind: Kind::WebPush,
            });
        }
        let secret = settings.notify_secret.filter(|s| !s.is_empty());
        let webhooks = channels
            .iter()
            .chain(escalate.as_ref().map(|(channel, _)| channel))
            .any(|c| matches!(c.kind, Kind::Webhook { .. }));
        if webhooks && secret.is_none() {
            return Err(ChannelError(
                "--notify webhook+…: webhooks are signed, so they need --notify-secret \
                 (or ASKDESK_NOTIFY_SECRET), the key receivers check X-Askdesk-Signature with"
                    .to_owned(),
            ));
        }
        Ok(Channels {
            channels,
            secret: secret.map(Arc::from),
            give_up_ms: i64::try_from(settings.notify_give_up.saturating_mul(1000))
                .unwrap_or(i64::MAX),
            slack_buttons: settings.slack_signing_secret.is_some_and(|s| !s.is_empty()),
            remind: settings
                .remind_after
                .map(|every| (every, settings.remind_max))
                .filter(|(_, max)| *max > 0),
            escalate,
            web_push,
            push: None,
        })
    }
}

/// An ntfy URL: `http(s)://[user:password@]host[:port]/topic`.
fn ntfy(url: &str) -> Option<Kind> {
    let uri = url.parse::<http::Uri>().ok()?;
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
        .parse::<http::Uri>()
        .ok()
        .and_then(|u| {
            u.authority()
                .map(|a| a.as_str().rsplit('@').next().unwrap_or("").to_owned())
        })
        .unwrap_or_default();
    let digest = hex::encode(&Sha256::digest(url.as_bytes())[..4]);
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
}

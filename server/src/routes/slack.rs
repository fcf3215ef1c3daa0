//! Slack's button presses: `POST /integrations/slack/actions`, where Slack
//! sends the interaction payload of a message a `slack+` channel posted.
//! Nothing is read before the request's signature is checked (v0: an
//! HMAC-SHA256 of `v0:<timestamp>:<body>` under the signing secret, the
//! timestamp within five minutes). A press of an option's button answers
//! through the desk with the action token its value carries, like every
//! other answer; the outcome goes back to the message's `response_url`.

use crate::AppState;
use axum::{
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use desk::DeskError;
use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha256;
use std::time::{SystemTime, UNIX_EPOCH};

/// How far a request's timestamp may be from now: older ones may be
/// replays.
pub const MAX_SKEW_SECONDS: i64 = 300;

/// Whether `signature` (`v0=<hex>`) signs `body` sent at `timestamp` under
/// `secret`, and `timestamp` is within [`MAX_SKEW_SECONDS`] of `now`.
pub fn verify(secret: &str, timestamp: &str, body: &[u8], signature: &str, now: i64) -> bool {
    let Ok(sent) = timestamp.parse::<i64>() else {
        return false;
    };
    if (now - sent).abs() > MAX_SKEW_SECONDS {
        return false;
    }
    let Some(digest) = signature
        .strip_prefix("v0=")
        .and_then(|text| hex::decode(text).ok())
    else {
        return false;
    };
    signed(secret, timestamp, body)
        .verify_slice(&digest)
        .is_ok()
}

/// Slack's v0 HMAC: `v0:<timestamp>:<body>` under the signing secret.
fn signed(secret: &str, timestamp: &str, body: &[u8]) -> Hmac<Sha256> {
    notify::mac::keyed(
        secret.as_bytes(),
        &[b"v0:", timestamp.as_bytes(), b":", body],
    )
}

/// The `X-Slack-Signature` of `body` sent at `timestamp`: what Slack sends.
pub fn sign(secret: &str, timestamp: &str, body: &[u8]) -> String {
    let digest = signed(secret, timestamp, body).finalize().into_bytes();
    format!("v0={}", hex::encode(digest))
}

#[derive(Deserialize)]
struct Form {
    payload: String,
}

#[derive(Deserialize)]
struct Payload {
    #[serde(default)]
    actions: Vec<PressedAction>,
    response_url: Option<String>,
}

#[derive(Deserialize)]
struct PressedAction {
    action_id: String,
    #[serde(default)]
    value: Option<String>,
}

/// What an option's button carries.
#[derive(Deserialize)]
struct Value {
    ask: String,
    label: String,
    token: String,
}

fn refuse(status: StatusCode, message: &str) -> Response {
    crate::http::reply::error(status, message.to_owned())
}

/// Takes a button press from Slack.
pub async fn actions(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let Some(secret) = state.slack_signing_secret.as_deref() else {
        return refuse(
            StatusCode::NOT_FOUND,
            "Slack actions are off: start askdesk with --slack-signing-secret",
        );
    };
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    };
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    if !verify(
        secret,
        header("x-slack-request-timestamp"),
        &body,
        header("x-slack-signature"),
        now,
    ) {
        tracing::warn!("a Slack action with a bad or stale signature was refused");
        return refuse(
            StatusCode::UNAUTHORIZED,
            "the request is not signed with this server's Slack signing secret, or is older \
             than five minutes",
        );
    }
    let Some(payload) = serde_urlencoded::from_bytes::<Form>(&body)
        .ok()
        .and_then(|form| serde_json::from_str::<Payload>(&form.payload).ok())
    else {
        return refuse(StatusCode::BAD_REQUEST, "not a Slack interaction payload");
    };
    let Some(pressed) = payload
        .actions
        .iter()
        .find(|a| a.action_id.starts_with("askdesk_answer_"))
    else {
        // The "Answer" link button: Slack tells of it too; nothing to do.
        return StatusCode::OK.into_response();
    };
    let Some(value) = pressed
        .value
        .as_deref()
        .and_then(|v| serde_json::from_str::<Value>(v).ok())
    else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "the button's value is not askdesk's",
        );
    };
    let outcome = match state
        .desk
        .answer_by_action(
            &[interaction::Via::Slack],
            &value.ask,
            &value.label,
            &value.token,
        )
        .await
    {
        Ok(_) => format!("Answered: {}", value.label),
        Err(DeskError::Finished(ask) | DeskError::Gone(ask)) => {
            format!(
                "This ask was already {}; nothing changed.",
                ask.status.as_str()
            )
        }
        Err(DeskError::Forbidden(message)) => message,
        Err(DeskError::NotFound) => "This ask is not on this desk any more.".to_owned(),
        Err(e) => {
            tracing::warn!("a Slack action failed: {e}");
            "askdesk could not take the answer; open the ask to answer.".to_owned()
        }
    };
    if let Some(url) = payload.response_url {
        // Slack wants its 200 within 3 s; the reply to the message follows.
        tokio::spawn(async move {
            let sent = reqwest::Client::new()
                .post(&url)
                .timeout(notify::DELIVERY_TIMEOUT)
                .json(&serde_json::json!({"replace_original": false, "text": outcome}))
                .send()
                .await;
            if let Err(e) = sent {
                tracing::warn!("telling Slack the outcome failed: {}", e.without_url());
            }
        });
    }
    StatusCode::OK.into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slack_signatures_are_checked_with_the_secret_the_body_and_a_fresh_timestamp() {
        // Slack's documented example.
        let secret = "8f742231b10e8888abcd99yyyzzz85a5";
        let body = b"token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
        let expected = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";
        assert_eq!(sign(secret, "1531420618", body), expected);
        assert!(verify(
            secret,
            "1531420618",
            body,
            expected,
            1_531_420_618 + 299
        ));
        assert!(
            !verify(secret, "1531420618", body, expected, 1_531_420_618 + 301),
            "stale"
        );
        assert!(!verify(
            "another",
            "1531420618",
            body,
            expected,
            1_531_420_618
        ));
        assert!(
            !verify(secret, "1531420619", body, expected, 1_531_420_618),
            "timestamp"
        );
        assert!(
            !verify(secret, "1531420618", b"token=x", expected, 1_531_420_618),
            "body"
        );
        assert!(!verify(secret, "1531420618", body, "v0=00", 1_531_420_618));
        assert!(!verify(secret, "soon", body, expected, 1_531_420_618));
    }
}

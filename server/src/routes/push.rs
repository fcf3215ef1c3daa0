//! Web Push subscriptions over the API: the server's VAPID key, and a
//! browser subscribing or unsubscribing (the pushes themselves are sent by
//! [`notify::webpush`]).

use super::openapi::described::{Empty, Status};
use crate::{
    http::reply::{ApiError, JsonBody},
    AppState,
};
use axum::{extract::State, http::StatusCode, Json};
use desk::{DeskError, PushSubscription};
use notify::webpush::{unb64, WebPush};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The server's VAPID public key.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "PushKey")]
#[serde(rename_all = "camelCase")]
pub struct PublicKey {
    /// The uncompressed P-256 public key, base64url without padding.
    public_key: String,
}

/// `GET /api/v1/push/key`: the VAPID public key a browser subscribes with.
pub async fn key(State(state): State<AppState>) -> Result<Json<PublicKey>, ApiError> {
    let push = enabled(&state)?;
    Ok(Json(PublicKey {
        public_key: push.public_key().to_owned(),
    }))
}

fn enabled(state: &AppState) -> Result<&Arc<WebPush>, ApiError> {
    state.push.as_ref().ok_or_else(|| {
        ApiError::Body(
            StatusCode::NOT_FOUND,
            "Web Push is off on this server: start askdesk with --web-push mailto:you@example.com"
                .to_owned(),
        )
    })
}

/// A subscription as `PushSubscription.toJSON()` gives it (its
/// `expirationTime` is not read).
#[derive(Deserialize, schemars::JsonSchema)]
#[schemars(rename = "PushSubscription")]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    /// The push service's URL for this browser.
    endpoint: String,
    keys: Keys,
}

/// The browser's keys, base64url.
#[derive(Deserialize, schemars::JsonSchema)]
#[schemars(inline)]
#[serde(deny_unknown_fields)]
struct Keys {
    /// Its P-256 public key.
    p256dh: String,
    /// Its authentication secret.
    auth: String,
}

/// The subscription, or a refusal naming the field and the rule.
fn valid(subscription: Subscription) -> Result<PushSubscription, ApiError> {
    let refuse = |text: &str| ApiError::Body(StatusCode::UNPROCESSABLE_ENTITY, text.to_owned());
    let endpoint = subscription.endpoint;
    let uri = endpoint.parse::<axum::http::Uri>().ok();
    let host = uri.as_ref().and_then(axum::http::Uri::host).unwrap_or("");
    let loopback = matches!(host, "127.0.0.1" | "localhost" | "[::1]");
    let scheme_ok = match uri.as_ref().and_then(axum::http::Uri::scheme_str) {
        Some("https") => !host.is_empty(),
        Some("http") => loopback,
        _ => false,
    };
    if endpoint.len() > 2048 || !scheme_ok {
        return Err(refuse(
            "endpoint: must be the push service's https:// URL (http:// only on loopback), at \
             most 2048 characters",
        ));
    }
    let p256dh = unb64(&subscription.keys.p256dh).unwrap_or_default();
    if p256dh.len() != 65 || p256dh[0] != 4 {
        return Err(refuse(
            "keys.p256dh: must be the browser's P-256 public key, 65 bytes in base64url",
        ));
    }
    if unb64(&subscription.keys.auth).is_none_or(|a| a.len() != 16) {
        return Err(refuse(
            "keys.auth: must be the browser's authentication secret, 16 bytes in base64url",
        ));
    }
    Ok(PushSubscription {
        endpoint,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
    })
}

/// `POST /api/v1/push/subscriptions`: this browser is told of asks from now on.
pub async fn subscribe(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<desk::Caller>,
    JsonBody(subscription): JsonBody<Subscription>,
) -> Result<Status<201, Endpoint>, ApiError> {
    enabled(&state)?;
    caller.may_use_desk()?;
    let subscription = valid(subscription)?;
    state.desk.subscribe_push(&subscription).await?;
    Ok(Status(Endpoint {
        endpoint: subscription.endpoint,
    }))
}

/// A browser, by its push endpoint: the one to forget, or the one kept.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(rename = "PushEndpoint")]
#[serde(deny_unknown_fields)]
pub struct Endpoint {
    /// The push service's URL for this browser.
    endpoint: String,
}

/// `DELETE /api/v1/push/subscriptions`: this browser is told no more.
pub async fn unsubscribe(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<desk::Caller>,
    JsonBody(unsubscribe): JsonBody<Endpoint>,
) -> Result<Empty<204>, ApiError> {
    enabled(&state)?;
    caller.may_use_desk()?;
    if state.desk.unsubscribe_push(&unsubscribe.endpoint).await? {
        Ok(Empty)
    } else {
        Err(ApiError::Desk(DeskError::NotFound))
    }
}

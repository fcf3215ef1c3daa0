//! `GET /healthz` and `GET /readyz`, for load balancers and orchestrators.
//! Open to anyone from any Host (a probe knows neither the token nor the
//! name people use), answer in a few bytes, and are never logged.
//!
//! `/healthz`: the process serves. `/readyz`: this instance should get
//! traffic: its database answers (migrations ran before it began to
//! serve) and it is not shutting down (from the stop signal on, through
//! `--shutdown-grace`).

use crate::AppState;
use axum::{
    extract::State,
    http::{header::CACHE_CONTROL, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Json, Router,
};
use serde_json::json;

/// The probes' paths.
pub const HEALTHZ: &str = "/healthz";
pub const READYZ: &str = "/readyz";

/// The probes' routes, which the guard lets through unchecked
/// ([`Gate::open`](crate::http::gate::Gate::open)), with the security
/// headers every response carries.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(HEALTHZ, get(healthz))
        .route(READYZ, get(readyz))
}

async fn healthz() -> Response {
    reply(StatusCode::OK, "ok", None)
}

async fn readyz(State(state): State<AppState>) -> Response {
    if state.draining.is_cancelled() {
        return reply(
            StatusCode::SERVICE_UNAVAILABLE,
            "draining",
            Some("this instance is shutting down"),
        );
    }
    match state.desk.answers().await {
        Ok(()) => reply(StatusCode::OK, "ready", None),
        Err(e) => {
            tracing::warn!("not ready: the database does not answer: {e}");
            reply(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                Some("the database does not answer"),
            )
        }
    }
}

fn reply(status: StatusCode, word: &str, why: Option<&str>) -> Response {
    let body = match why {
        Some(why) => json!({"status": word, "message": why}),
        None => json!({"status": word}),
    };
    // A probe every few seconds is no news: logged at debug.
    let mut response = (status, [(CACHE_CONTROL, "no-store")], Json(body)).into_response();
    response.extensions_mut().insert(crate::http::trace::Quiet);
    response
}

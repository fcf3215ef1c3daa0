//! What an operator's Prometheus reads at `/metrics`, in its text format
//! (`metrics` with `metrics-exporter-prometheus`): asks created and ended
//! (by status and surface) and how long people took to answer (counted
//! by the desk, `desk::metered`); pending asks and the outbox's backlog
//! (counted in the database when scraped, so every instance says the
//! same); requests waiting here by kind; notification attempts by channel
//! and outcome; and how long an answer took to reach the agent waiting
//! for it. `/metrics` is for the admin token (or an open desk), or open on
//! an address of its own (`--metrics-addr`).

use crate::http::security::Security;
use axum::{
    extract::{Extension, State},
    http::{header::CONTENT_TYPE, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use desk::{
    metered::{ASKS_CREATED, ASKS_ENDED, TIME_TO_ANSWER},
    Caller, Desk,
};
use interaction::Role;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::{
    sync::{Arc, OnceLock},
    time::Duration,
};
use tokio_util::sync::CancellationToken;

/// Asks pending, in the database.
pub const PENDING: &str = "askdesk_asks_pending";
/// Notifications neither delivered nor given up, in the database.
pub const BACKLOG: &str = "askdesk_notifications_backlog";
pub use crate::http::waiting::WAITING;
pub use desk::metered::ANSWER_TO_WAITER;
pub use notify::ATTEMPTS;

/// The Prometheus recorder of this process, installed on first use;
/// `None` when another recorder was installed first.
fn handle() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| match install() {
            Ok(handle) => {
                describe();
                Some(handle)
            }
            Err(e) => {
                tracing::warn!("no metrics: {e}");
                None
            }
        })
        .as_ref()
}

fn install() -> Result<PrometheusHandle, metrics_exporter_prometheus::BuildError> {
    // People answer in seconds to hours; an answer reaches its agent in
    // milliseconds.
    let answer = [
        1.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 900.0, 1800.0, 3600.0, 14400.0, 86400.0,
    ];
    let waiter = [
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    ];
    PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(TIME_TO_ANSWER.to_owned()), &answer)?
        .set_buckets_for_metric(Matcher::Full(ANSWER_TO_WAITER.to_owned()), &waiter)?
        .install_recorder()
}

fn describe() {
    use metrics::Unit;
    metrics::describe_counter!(ASKS_CREATED, "Asks created through this instance.");
    metrics::describe_counter!(
        ASKS_ENDED,
        "Asks ended through this instance, by status and by the surface (via) that ended them."
    );
    metrics::describe_histogram!(
        TIME_TO_ANSWER,
        Unit::Seconds,
        "Time from an ask's creation to its answer."
    );
    metrics::describe_gauge!(PENDING, "Asks pending, on every instance.");
    metrics::describe_gauge!(
        BACKLOG,
        "Notifications neither delivered nor given up, on every instance."
    );
    metrics::describe_gauge!(WAITING, "Requests waiting on this instance, by kind.");
    metrics::describe_counter!(
        ATTEMPTS,
        "Notification attempts by this instance, by channel and outcome."
    );
    metrics::describe_histogram!(
        ANSWER_TO_WAITER,
        Unit::Seconds,
        "Time from an ask's end to the reply of an agent's wait on it."
    );
}

/// Keeps the recorder's histograms from growing, every few seconds, until
/// `stop`.
pub async fn upkeep(stop: CancellationToken) {
    let Some(handle) = handle() else { return };
    let mut tick = tokio::time::interval(Duration::from_secs(5));
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = tick.tick() => handle.run_upkeep(),
        }
    }
}

/// The metrics as Prometheus reads them, with the database's counts now.
async fn render(desk: &Desk) -> Response {
    let Some(handle) = handle() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "no metrics recorder").into_response();
    };
    match desk.counts().await {
        Ok(counts) => {
            metrics::gauge!(PENDING).set(counts.pending as f64);
            metrics::gauge!(BACKLOG).set(counts.backlog as f64);
        }
        Err(e) => tracing::warn!("counting asks for /metrics failed: {e}"),
    }
    (
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        handle.render(),
    )
        .into_response()
}

/// `GET /metrics` behind the guard: for the admin token, an admin, or an
/// open desk.
pub async fn scrape(
    State(state): State<crate::AppState>,
    Extension(caller): Extension<Caller>,
) -> Response {
    let admin = match &caller {
        Caller::Unnamed => true,
        Caller::Person(person) => person.role == Role::Admin,
        Caller::Link | Caller::Action => false,
    };
    if !admin {
        return crate::http::reply::error(
            StatusCode::FORBIDDEN,
            "/metrics is for the admin token or an admin's; or serve it on --metrics-addr"
                .to_owned(),
        );
    }
    render(&state.desk).await
}

/// `/metrics` without a token (`--metrics-addr`), for the hosts
/// `security` answers to: the main listener's `Host` check and security
/// headers, on every path.
pub fn open_routes(desk: Desk, security: Arc<Security>) -> Router {
    Router::new()
        .route(
            "/metrics",
            get(move || {
                let desk = desk.clone();
                async move { render(&desk).await }
            }),
        )
        .layer(axum::middleware::from_fn_with_state(
            security,
            crate::http::guard::host_checked,
        ))
}

/// Serves `router` ([`open_routes`]) on `listener` until `stop`.
pub fn serve_open(listener: tokio::net::TcpListener, router: Router, stop: CancellationToken) {
    tokio::spawn(async move {
        let served = axum::serve(listener, router)
            .with_graceful_shutdown(stop.cancelled_owned())
            .await;
        if let Err(e) = served {
            tracing::warn!("serving /metrics stopped: {e}");
        }
    });
}

//! Every request's id and its log line. The id is the client's
//! `x-request-id` when it sent one, a new UUID otherwise, and goes back in
//! the response's `x-request-id`; every log line written while the request
//! is served carries it (its span, `request`). One line per request when
//! it is answered: method, path, status and time taken, at info (the
//! probes' at debug). Never a query string, header, cookie or body: a
//! path's ids and secrets (an ask's id, a sign-in link's secret) are
//! written as `{id}`.

use axum::{
    body::Body,
    http::{Request, Response},
    response::IntoResponse,
};
use std::{convert::Infallible, time::Duration};
use tower_http::{
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    trace::TraceLayer,
};
use tracing::Span;

/// Marks a response whose request is not worth an info line (a probe).
#[derive(Debug, Clone, Copy)]
pub struct Quiet;

/// `service` with request ids and a log line per request, as one boxed
/// service.
pub fn traced<S>(service: S) -> super::App
where
    S: tower::Service<Request<Body>, Response = Response<Body>, Error = Infallible>
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    let trace = TraceLayer::new_for_http()
        .make_span_with(|request: &Request<Body>| {
            let id = request
                .headers()
                .get("x-request-id")
                .and_then(|value| value.to_str().ok())
                .unwrap_or_default();
            tracing::info_span!(
                "request",
                request_id = %id,
                method = %request.method(),
                path = %shown(request.uri().path()),
            )
        })
        .on_request(())
        .on_response(|response: &Response<Body>, latency: Duration, _: &Span| {
            let status = response.status().as_u16();
            let ms = u64::try_from(latency.as_millis()).unwrap_or(u64::MAX);
            if response.extensions().get::<Quiet>().is_some() {
                tracing::debug!(status, ms, "answered");
            } else {
                tracing::info!(status, ms, "answered");
            }
        })
        .on_failure(());
    // One service around the whole router, not a layer on each route.
    tower::util::BoxCloneSyncService::new(
        tower::ServiceBuilder::new()
            .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
            .layer(PropagateRequestIdLayer::x_request_id())
            .map_response(IntoResponse::into_response)
            .layer(trace)
            .service(service),
    )
}

/// `path` with every segment that may be an id or a secret (16 or more
/// letters, digits, `-` and `_`) written as `{id}`.
pub fn shown(path: &str) -> String {
    path.split('/')
        .map(|segment| {
            let secret = segment.len() >= 16
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if secret {
                "{id}"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_secrets_in_paths_are_not_written() {
        assert_eq!(
            shown("/asks/0123456789abcdef0123456789abcdef/events"),
            "/asks/{id}/events"
        );
        assert_eq!(
            shown("/signin/link/Zm9vYmFyLWJhei1xdXV4LXNlY3JldA"),
            "/signin/link/{id}"
        );
        assert_eq!(shown("/api/v1/asks"), "/api/v1/asks");
        assert_eq!(shown("/manifest.webmanifest"), "/manifest.webmanifest");
        assert_eq!(shown("/"), "/");
    }
}

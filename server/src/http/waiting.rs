//! Long-polls wait outside the request's stack.
//!
//! A long-poll (`GET /api/v1/asks/{id}?wait=N`, `GET /api/v1/asks?after=V&wait=N`)
//! is served in two passes. The first runs the whole stack (the guard, the
//! compression, the handler) and, when there is something to wait for, the
//! handler answers with [`Wait::reply`]: what to await and the request it
//! was given, no reply yet. [`WaitOutside`], the outermost of the routes'
//! layers, takes that reply, lets every future of the stack go, awaits,
//! then serves the same request again, marked [`Waited`]: this time the
//! handler reads and replies.
//!
//! So while an agent waits, the server holds its connection, the wait (a
//! watch and a timer) and its request, not the guard's, the compression's
//! and the handler's futures (bench/waiters.sh measures the difference).
//! And the caller is checked again
//! when the wait ends: an agent removed while it waited is refused, not
//! handed the answer.

use super::reply::{error, ApiError};
use axum::{extract::Request, http::StatusCode, response::Response};
use desk::MAX_WAIT;
use futures_util::future::BoxFuture;
use std::{
    convert::Infallible,
    future::Future,
    sync::{Arc, Mutex, PoisonError},
    task::{Context, Poll},
    time::Duration,
};
use tower::{Layer, Service, ServiceExt};

/// A handler's "wait, then serve this request again": a response that
/// [`WaitOutside`] takes and never sends.
#[derive(Clone)]
pub struct Wait(Arc<Mutex<Option<Pending>>>);

/// What a first pass leaves to wait for, and the request to serve again.
struct Pending {
    until: BoxFuture<'static, ()>,
    request: Request,
}

impl Wait {
    /// The reply of a first pass that has to wait for `until` before
    /// `request` (the one it serves, whole) is served again. Sent as it is
    /// only if [`WaitOutside`] is missing: then it says so.
    pub fn reply(until: impl Future<Output = ()> + Send + 'static, request: Request) -> Response {
        let mut response = error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "this long-poll was not served: the server lacks its waiting layer".to_owned(),
        );
        let pending = Pending {
            until: Box::pin(until),
            request,
        };
        response
            .extensions_mut()
            .insert(Wait(Arc::new(Mutex::new(Some(pending)))));
        response
    }

    fn take(&self) -> Option<Pending> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// Marks the second pass of a long-poll: its wait is over, read and reply.
#[derive(Debug, Clone, Copy)]
pub struct Waited;

/// `?wait=`: whole seconds in decimal digits. A number too large for a
/// `u64` counts as the largest, since the desk caps a wait anyway.
pub(crate) fn wait_seconds(value: Option<&str>) -> Result<Option<Duration>, ApiError> {
    value
        .map(|v| {
            let digits = !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit());
            digits
                .then(|| Duration::from_secs(v.parse().unwrap_or(u64::MAX)))
                .ok_or_else(|| {
                    ApiError::Query(format!(
                        "wait={v:?} is not a number of seconds; use 0 to {}",
                        MAX_WAIT.as_secs()
                    ))
                })
        })
        .transpose()
}

/// Whether a request is a long-poll: a GET with `wait=` in its query.
pub fn is_long_poll<B>(request: &axum::http::Request<B>) -> bool {
    request.method() == axum::http::Method::GET
        && request
            .uri()
            .query()
            .is_some_and(|query| query.split('&').any(|pair| pair.starts_with("wait=")))
}

/// The layer that serves long-polls in two passes (see the module).
#[derive(Debug, Clone, Copy, Default)]
pub struct WaitOutsideLayer;

impl<S> Layer<S> for WaitOutsideLayer {
    type Service = WaitOutside<S>;

    fn layer(&self, inner: S) -> WaitOutside<S> {
        WaitOutside(inner)
    }
}

/// See [`WaitOutsideLayer`].
#[derive(Debug, Clone)]
pub struct WaitOutside<S>(S);

impl<S> Service<Request> for WaitOutside<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // Each call clones the inner service and drives it to ready itself.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let inner = self.0.clone();
        Box::pin(async move {
            // Boxed: the stack's futures are freed before any wait.
            let first = Box::pin(inner.clone().oneshot(request)).await?;
            let Some(pending) = first.extensions().get::<Wait>().and_then(Wait::take) else {
                return Ok(first);
            };
            drop(first);
            pending.until.await;
            let mut again = pending.request;
            again.extensions_mut().insert(Waited);
            inner.oneshot(again).await
        })
    }
}

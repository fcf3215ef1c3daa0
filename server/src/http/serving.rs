//! Serving connections: the accept loop, hyper's HTTP/1.1 with the router
//! as its service, and a graceful stop — what `axum::serve` does, plus two
//! things it cannot:
//!
//! - every accepted connection gets `TCP_NODELAY` (see [`accepted`]);
//! - a request that waits (a long-poll, an event stream) gets its own copy
//!   of its URI and header values before hyper reads on, see [`own_head`].
//!
//! With TLS, each connection's handshake runs in its own task, under
//! [`HANDSHAKE_TIMEOUT`], so a client that stalls it holds up no other.

use super::tls::HANDSHAKE_TIMEOUT;
use axum::{body::Body, extract::ConnectInfo, serve::Listener, Router};
use hyper::{body::Incoming, header::HeaderValue, Request};
use hyper_util::rt::TokioIo;
use std::{net::SocketAddr, pin::pin};
use tokio::{
    io::{AsyncRead, AsyncWrite},
    net::TcpListener,
    sync::watch,
};
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

/// Prepares an accepted connection: `TCP_NODELAY`, so a response written
/// in pieces on a kept-alive connection does not wait for the client's
/// delayed ACK (Nagle's algorithm).
pub fn accepted(tcp: &tokio::net::TcpStream) {
    if let Err(e) = tcp.set_nodelay(true) {
        tracing::debug!("TCP_NODELAY not set on a connection: {e}");
    }
}

/// Serves `router` on `listener` until `stop` is cancelled (over TLS when
/// given an acceptor); then accepts no more, lets every request under way
/// finish (a long-poll answers at once when the server stops) and returns
/// when every connection has closed.
pub async fn serve(
    mut listener: TcpListener,
    router: Router,
    tls: Option<TlsAcceptor>,
    stop: CancellationToken,
) {
    // Each connection holds a receiver; `closed` resolves when all are gone.
    let (open_tx, open_rx) = watch::channel(());
    loop {
        let (tcp, remote) = tokio::select! {
            accepted = Listener::accept(&mut listener) => accepted,
            () = stop.cancelled() => break,
        };
        accepted(&tcp);
        let router = router.clone();
        let stop = stop.clone();
        let open = open_rx.clone();
        // Two kinds of task, so that a plain connection's future (held for
        // as long as a long-poll waits) has no room for TLS's state in it.
        match tls.clone() {
            None => tokio::spawn(async move {
                connection(tcp, remote, router, &stop).await;
                drop(open);
            }),
            Some(acceptor) => tokio::spawn(async move {
                secured(acceptor, tcp, remote, router, &stop).await;
                drop(open);
            }),
        };
    }
    drop(open_rx);
    drop(listener);
    open_tx.closed().await;
}

/// Shakes hands over TLS (within a time limit, and not past `stop`), then
/// serves the connection.
async fn secured(
    acceptor: TlsAcceptor,
    tcp: tokio::net::TcpStream,
    remote: SocketAddr,
    router: Router,
    stop: &CancellationToken,
) {
    let handshake = tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp));
    let stream = tokio::select! {
        shaken = handshake => shaken,
        () = stop.cancelled() => return,
    };
    match stream {
        Ok(Ok(stream)) => connection(stream, remote, router, stop).await,
        Ok(Err(e)) => tracing::debug!(%remote, "a TLS handshake failed: {e}"),
        Err(_) => tracing::debug!(%remote, "a TLS handshake timed out"),
    }
}

/// Serves the requests of one connection until it closes, or until `stop`
/// is cancelled and the request under way on it has finished.
async fn connection<I>(io: I, remote: SocketAddr, router: Router, stop: &CancellationToken)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    // The service is called as hyper parses each request's head, before
    // hyper reads on; the router runs when first polled.
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let mut request = own_head(request).map(Body::new);
        request.extensions_mut().insert(ConnectInfo(remote));
        router.clone().oneshot(request)
    });
    let mut connection = pin!(hyper::server::conn::http1::Builder::new()
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades());
    tokio::select! {
        served = connection.as_mut() => finished(served),
        () = stop.cancelled() => {
            connection.as_mut().graceful_shutdown();
            finished(connection.await);
        }
    }
}

fn finished(served: hyper::Result<()>) {
    if let Err(e) = served {
        tracing::trace!("a connection ended: {e}");
    }
}

/// Gives a request that waits its own copy of its URI and header values.
///
/// hyper parses them as slices of the connection's read buffer, which it
/// cannot reuse while any of them lives, so a request kept for minutes
/// would hold a second read buffer for its whole wait; the copy is a few
/// small allocations (bench/waiters.sh measures what it saves).
fn own_head<B>(request: Request<B>) -> Request<B> {
    if !waits(&request) {
        return request;
    }
    let (mut head, body) = request.into_parts();
    if let Ok(uri) = head.uri.to_string().try_into() {
        head.uri = uri;
    }
    for value in head.headers.values_mut() {
        if let Ok(mut own) = HeaderValue::from_bytes(value.as_bytes()) {
            own.set_sensitive(value.is_sensitive());
            *value = own;
        }
    }
    Request::from_parts(head, body)
}

/// Whether a request is one that waits: a long-poll (`wait=` in its query)
/// or an event stream.
fn waits<B>(request: &Request<B>) -> bool {
    super::waiting::is_long_poll(request)
        || request
            .headers()
            .get_all(hyper::header::ACCEPT)
            .iter()
            .any(|accept| {
                accept
                    .as_bytes()
                    .windows(17)
                    .any(|w| w == b"text/event-stream")
            })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(uri: &str, accept: Option<&str>) -> Request<()> {
        let mut request = Request::get(uri);
        if let Some(accept) = accept {
            request = request.header("accept", accept);
        }
        request
            .header("x-askdesk-via", "api")
            .body(())
            .expect("request")
    }

    #[test]
    fn long_polls_and_event_streams_wait_and_nothing_else_does() {
        assert!(waits(&request("/api/v1/asks/a1?wait=30", None)));
        assert!(waits(&request("/api/v1/asks?after=3&wait=30", None)));
        assert!(waits(&request(
            "/asks/a1/events",
            Some("text/event-stream")
        )));
        assert!(waits(&request(
            "/mcp",
            Some("application/json, text/event-stream")
        )));
        assert!(!waits(&request("/api/v1/asks/a1", None)));
        assert!(!waits(&request("/api/v1/asks?await=3", None)));
        assert!(!waits(&request("/asks/a1", Some("text/html"))));
    }

    #[test]
    fn a_waiting_request_keeps_its_uri_and_headers_as_they_were() {
        let mut original = request("/api/v1/asks/a1?wait=30", None);
        let mut secret = HeaderValue::from_static("Bearer t");
        secret.set_sensitive(true);
        original.headers_mut().insert("authorization", secret);
        let expected = (original.uri().clone(), original.headers().clone());
        let owned = own_head(original);
        assert_eq!((owned.uri().clone(), owned.headers().clone()), expected);
        assert!(owned.headers()["authorization"].is_sensitive());
    }

    /// hyper's request: its URI and values are slices of one read buffer.
    #[test]
    fn a_waiting_request_holds_nothing_of_the_buffer_it_was_read_from() {
        let buffer = axum::body::Bytes::from(b"/api/v1/asks/a1?wait=30 Bearer t".to_vec());
        let within = |p: *const u8| buffer.as_ptr_range().contains(&p);
        let read = |path: std::ops::Range<usize>| {
            Request::get(hyper::Uri::from_maybe_shared(buffer.slice(path)).expect("uri"))
                .header(
                    "authorization",
                    HeaderValue::from_maybe_shared(buffer.slice(24..)).expect("value"),
                )
                .body(())
                .expect("request")
        };
        let waiting = read(0..23);
        assert!(within(waiting.uri().path().as_ptr()), "shares, as hyper's");
        let owned = own_head(waiting);
        assert!(!within(owned.uri().path().as_ptr()));
        assert!(!within(
            owned.headers()["authorization"].as_bytes().as_ptr()
        ));
        // One answered at once keeps hyper's slices: nothing to gain.
        let at_once = own_head(read(0..15));
        assert!(within(at_once.uri().path().as_ptr()));
    }
}

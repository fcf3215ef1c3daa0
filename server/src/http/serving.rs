//! Serving connections: the accept loop, hyper's HTTP/1.1 with the router
//! as its service, and a graceful stop — what `axum::serve` does, plus two
//! things it cannot:
//!
//! - every accepted connection gets `TCP_NODELAY`, and keep-alive probes
//!   with a limit on unacknowledged data, so a peer that vanished or
//!   stopped reading is dropped by the kernel (see [`accepted`]);
//! - a request that waits (a long-poll, an event stream) gets its own copy
//!   of its URI and header values before hyper reads on, see [`own_head`];
//! - one client address holds at most its share of connections and of
//!   waiting requests ([`Limits`]), and a client must send each request's
//!   head within the header timeout (also between kept-alive requests).
//!
//! With TLS, each connection's handshake runs in its own task, under
//! [`HANDSHAKE_TIMEOUT`], so a client that stalls it holds up no other.

use super::{
    crowding::{Holding, Limits, Permit},
    reply::too_many,
    tls::HANDSHAKE_TIMEOUT,
};
use axum::{body::Body, extract::ConnectInfo, response::Response, serve::Listener};
use futures_util::future::Either;
use hyper::{body::Incoming, header::HeaderValue, Request};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::{convert::Infallible, net::SocketAddr, pin::pin, sync::Arc, time::Duration};
use tokio::{
    io::{AsyncRead, AsyncWrite},
    net::TcpListener,
    sync::watch,
};
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;

/// When an idle connection (a long-poll waiting, nothing written) is
/// first probed for its peer.
const KEEPALIVE_IDLE: Duration = Duration::from_secs(30);
/// Between probes.
const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(10);
/// How long data written (or a probe) may stay unacknowledged before the
/// kernel drops the connection: the peer vanished, or stopped reading.
const UNACKNOWLEDGED: Duration = Duration::from_secs(60);

/// Prepares an accepted connection: `TCP_NODELAY`, so a response written
/// in pieces on a kept-alive connection does not wait for the client's
/// delayed ACK (Nagle's algorithm); and TCP keep-alive with a limit on
/// unacknowledged data, so a request that waits on a peer that is gone,
/// or an event stream to a client that stopped reading, ends.
pub fn accepted(tcp: &tokio::net::TcpStream) {
    if let Err(e) = tcp.set_nodelay(true) {
        tracing::debug!("TCP_NODELAY not set on a connection: {e}");
    }
    let socket = socket2::SockRef::from(tcp);
    let keepalive = socket2::TcpKeepalive::new()
        .with_time(KEEPALIVE_IDLE)
        .with_interval(KEEPALIVE_INTERVAL);
    if let Err(e) = socket.set_tcp_keepalive(&keepalive) {
        tracing::debug!("TCP keep-alive not set on a connection: {e}");
    }
    #[cfg(target_os = "linux")]
    if let Err(e) = socket.set_tcp_user_timeout(Some(UNACKNOWLEDGED)) {
        tracing::debug!("TCP_USER_TIMEOUT not set on a connection: {e}");
    }
}

/// Serves `router` on `listener` until `stop` is cancelled (over TLS when
/// given an acceptor), within `limits`; then accepts no more, lets every
/// request under way finish (a long-poll answers at once when the server
/// stops) and returns when every connection has closed.
pub async fn serve(
    mut listener: TcpListener,
    router: super::App,
    tls: Option<TlsAcceptor>,
    limits: Limits,
    stop: CancellationToken,
) {
    let router = Arc::new(router);
    // Each connection holds a receiver; `closed` resolves when all are gone.
    let (open_tx, open_rx) = watch::channel(());
    loop {
        let (tcp, remote) = tokio::select! {
            accepted = Listener::accept(&mut listener) => accepted,
            () = stop.cancelled() => break,
        };
        // An address at its limit: closed at once, before anything is
        // read, so a flood of sockets costs one descriptor for a moment.
        let Some(place) = limits.connections.enter(remote.ip()) else {
            limits.connections.refused(remote.ip());
            drop(tcp);
            continue;
        };
        accepted(&tcp);
        let served = Served {
            router: Arc::clone(&router),
            remote,
            limits: limits.clone(),
        };
        let stop = stop.clone();
        let open = open_rx.clone();
        // Two kinds of task, so that a plain connection's future (held for
        // as long as a long-poll waits) has no room for TLS's state in it.
        match tls.clone() {
            None => tokio::spawn(async move {
                connection(tcp, served, &stop).await;
                drop((open, place));
            }),
            Some(acceptor) => tokio::spawn(async move {
                secured(acceptor, tcp, served, &stop).await;
                drop((open, place));
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
    served: Served,
    stop: &CancellationToken,
) {
    let remote = served.remote;
    let handshake = tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp));
    let stream = tokio::select! {
        shaken = handshake => shaken,
        () = stop.cancelled() => return,
    };
    match stream {
        Ok(Ok(stream)) => connection(stream, served, stop).await,
        Ok(Err(e)) => tracing::debug!(%remote, "a TLS handshake failed: {e}"),
        Err(_) => tracing::debug!(%remote, "a TLS handshake timed out"),
    }
}

/// What serves one connection: the router (shared: a copy of the boxed
/// app is an allocation, made for each request rather than kept for each
/// connection), who it is from, the limits.
struct Served {
    router: Arc<super::App>,
    remote: SocketAddr,
    limits: Limits,
}

/// Serves the requests of one connection until it closes, or until `stop`
/// is cancelled and the request under way on it has finished.
async fn connection<I>(io: I, served: Served, stop: &CancellationToken)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let header_timeout = served.limits.header_timeout;
    // The service is called as hyper parses each request's head, before
    // hyper reads on; the router runs when first polled.
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let Served {
            router,
            remote,
            limits,
        } = &served;
        let mut request = own_head(request).map(Body::new);
        request.extensions_mut().insert(ConnectInfo(*remote));
        let place = match waiting_place(&request, remote, limits) {
            Ok(place) => place,
            // Boxed until answered: the connection's room for its reply's
            // future holds a pointer, not a response.
            Err(refusal) => return Either::Left(async move { Ok::<_, Infallible>(*refusal) }),
        };
        // Called now rather than when first polled (`oneshot`), so that
        // the reply's future never holds the request: every layer of the
        // app is always ready (axum's router is, and each layer around it
        // passes that on).
        let reply = tower::Service::call(&mut super::App::clone(router), request);
        Either::Right(async move {
            let response: Response = reply.await?;
            Ok(match place {
                Some(place) => response.map(|body| Holding::body(body, place)),
                None => response,
            })
        })
    });
    let mut connection = pin!(hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
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

/// A waiting request's place among its address's waits, and its count
/// among the instance's waiting requests, held by its reply (`None` for a
/// request that does not wait), or the `429` that refuses it.
fn waiting_place(
    request: &Request<Body>,
    remote: &SocketAddr,
    limits: &Limits,
) -> Result<Option<(Permit, super::waiting::Waiting)>, Box<Response>> {
    if !waits(request) {
        return Ok(None);
    }
    match limits.waits.enter(remote.ip()) {
        Some(place) => Ok(Some((place, super::waiting::Waiting::new(request)))),
        None => {
            limits.waits.refused(remote.ip());
            let most = limits.waits.limit().unwrap_or_default();
            Err(Box::new(super::guard::with_headers(too_many(
                &format!(
                    "this address has {most} requests waiting already (long-polls, event \
                     streams, MCP calls), as many as one address may; let one end first"
                ),
                WAIT_AGAIN,
            ))))
        }
    }
}

/// When a refused waiting request may try again.
const WAIT_AGAIN: Duration = Duration::from_secs(5);

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

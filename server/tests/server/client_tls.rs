//! The `client` crate over TLS against the real router: a certificate made
//! here with rcgen, served with tokio-rustls on a loopback port, trusted
//! through the client's CA option (as `--ca-cert` does) or refused without it.

use super::common::{combined_answers, release_ask, TestServer, TOKEN};
use client::{Client, Error, Event, StatusCode};
use interaction::{Answers, AskStatus, NewAsk};
use std::{net::SocketAddr, path::PathBuf, sync::Arc};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::{
    rustls::{self, pki_types::PrivateKeyDer},
    server::TlsStream,
    TlsAcceptor,
};

/// Accepts TLS connections for `axum::serve`.
struct TlsListener {
    tcp: TcpListener,
    acceptor: TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((tcp, addr)) = self.tcp.accept().await else {
                continue;
            };
            // A client that refuses the certificate ends its handshake;
            // wait for the next one.
            if let Ok(tls) = self.acceptor.accept(tcp).await {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}

/// The real router served over TLS with a fresh self-signed certificate
/// for 127.0.0.1.
struct TlsServer {
    url: String,
    ca_file: PathBuf,
    _dir: tempfile::TempDir,
}

impl TlsServer {
    async fn start(server: TestServer) -> Self {
        let certified = rcgen::generate_simple_self_signed(vec![
            "127.0.0.1".to_owned(),
            "localhost".to_owned(),
        ])
        .expect("certificate");
        let dir = tempfile::tempdir().expect("temp dir");
        let ca_file = dir.path().join("ca.pem");
        std::fs::write(&ca_file, certified.cert.pem()).expect("CA file");
        let key = PrivateKeyDer::Pkcs8(certified.key_pair.serialize_der().into());
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .expect("protocol versions")
        .with_no_client_auth()
        .with_single_cert(vec![certified.cert.der().clone()], key)
        .expect("server config");
        let tcp = TcpListener::bind("127.0.0.1:0").await.expect("port");
        let url = format!("https://{}", tcp.local_addr().expect("address"));
        let listener = TlsListener {
            tcp,
            acceptor: TlsAcceptor::from(Arc::new(config)),
        };
        let router = axum::Router::new().fallback_service(server.router);
        tokio::spawn(async move { axum::serve(listener, router).await });
        Self {
            url,
            ca_file,
            _dir: dir,
        }
    }

    fn trusting_client(&self, token: Option<&str>) -> Client {
        Client::builder(&self.url)
            .token(token.map(str::to_owned))
            .ca_cert(Some(self.ca_file.clone()))
            .build()
            .expect("client")
    }
}

#[tokio::test]
async fn the_client_trusts_a_self_signed_server_through_its_ca_file() {
    let server = TlsServer::start(TestServer::new().await).await;
    let askdesk = server.trusting_client(None);
    assert!(askdesk.is_up().await, "{} is up", server.url);
    let mut events = askdesk.events(None).await.expect("event stream");

    let new: NewAsk = serde_json::from_value(release_ask()).expect("new ask");
    let created = askdesk.create(&new).await.expect("created");
    assert_eq!(created.status, AskStatus::Pending);
    match events.next().await {
        Some(Ok(Event::Ask(event))) => {
            assert_eq!(event.ask.id, created.id);
            assert_eq!(event.ask.status, AskStatus::Pending);
        }
        other => panic!("expected the new ask's event, got {other:?}"),
    }
    assert!(events.last_event_id().is_some(), "the event's id is kept");

    let answers: Answers = serde_json::from_value(combined_answers()).expect("answers");
    let answered = askdesk
        .answer(&created.id, &answers)
        .await
        .expect("answered");
    assert_eq!(answered.status, AskStatus::Answered);
    let ask = askdesk.get(&created.id).await.expect("ask");
    assert_eq!(ask.status, AskStatus::Answered);
    assert_eq!(
        ask.answers.as_ref().map(|items| items[0].custom.as_deref()),
        Some(Some("Rate limiting"))
    );

    // The ask has ended: the server's 409 comes back with the ask.
    let again = askdesk.answer(&created.id, &answers).await;
    match again {
        Err(Error::Finished { status, ask, .. }) => {
            assert_eq!(status, StatusCode::CONFLICT);
            assert_eq!(ask.status, AskStatus::Answered);
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
}

#[tokio::test]
async fn without_the_ca_file_the_certificate_is_refused_and_the_error_says_what_to_do() {
    let server = TlsServer::start(TestServer::new().await).await;
    let askdesk = Client::builder(&server.url).build().expect("client");
    assert!(!askdesk.is_up().await);
    let new: NewAsk = serde_json::from_value(release_ask()).expect("new ask");
    let error = askdesk.create(&new).await.expect_err("refused");
    assert!(matches!(error, Error::Untrusted { .. }), "{error:?}");
    let text = error.to_string();
    assert!(text.contains("does not trust"), "{text}");
    assert!(text.contains("--ca-cert"), "{text}");
    assert!(text.contains("ASKDESK_CA_CERT"), "{text}");
}

#[tokio::test]
async fn the_token_is_sent_and_its_absence_is_explained() {
    let server = TlsServer::start(TestServer::with_token().await).await;
    let error = server
        .trusting_client(None)
        .list(client::ListQuery::pending())
        .await
        .expect_err("no token");
    assert_eq!(error.status(), Some(StatusCode::UNAUTHORIZED));
    assert_eq!(
        error.to_string(),
        "askdesk wants its token: pass --token or set ASKDESK_TOKEN"
    );
    let list = server
        .trusting_client(Some(TOKEN))
        .list(client::ListQuery::pending())
        .await
        .expect("list");
    assert!(list.asks.is_empty());
}

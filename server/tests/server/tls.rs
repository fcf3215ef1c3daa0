//! askdesk serving https itself (`--tls-cert`, `--tls-key`): a CA and its
//! server certificates made here with rcgen, written to files as a renewal
//! tool writes them, and reqwest trusting only that CA.

use crate::common::start;
use crate::common::{args, TOKEN};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
use reqwest::{redirect::Policy, tls::TlsInfo, StatusCode};
use std::{
    path::PathBuf,
    process::Stdio,
    time::{Duration, Instant},
};
use tokio_util::sync::CancellationToken;

/// A certificate authority of the test's own.
struct Ca {
    cert: rcgen::Certificate,
    key: KeyPair,
}

/// Where the server's certificate and key are kept.
struct Files {
    cert: PathBuf,
    key: PathBuf,
    _dir: tempfile::TempDir,
}

impl Ca {
    fn new() -> Self {
        let mut params = CertificateParams::new(Vec::new()).expect("CA params");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(DnType::CommonName, "askdesk test CA");
        let key = KeyPair::generate().expect("CA key");
        let cert = params.self_signed(&key).expect("CA certificate");
        Self { cert, key }
    }

    /// A client that trusts this CA alone and keeps what the server
    /// presented. A new one makes a full handshake: it has no session to
    /// resume, in which the certificate would not be presented again.
    fn client(&self) -> reqwest::Client {
        reqwest::Client::builder()
            .use_rustls_tls()
            .tls_built_in_root_certs(false)
            .add_root_certificate(
                reqwest::Certificate::from_pem(self.cert.pem().as_bytes()).expect("CA"),
            )
            .tls_info(true)
            .redirect(Policy::none())
            .build()
            .expect("client")
    }

    /// Writes a new certificate for 127.0.0.1 named `name`, and its new
    /// key, over `files`; returns the certificate (DER).
    fn issue(&self, name: &str, files: &Files) -> Vec<u8> {
        let mut params =
            CertificateParams::new(vec!["127.0.0.1".to_owned(), name.to_owned()]).expect("params");
        params.distinguished_name.push(DnType::CommonName, name);
        let key = KeyPair::generate().expect("key");
        let cert = params
            .signed_by(&key, &self.cert, &self.key)
            .expect("certificate");
        std::fs::write(&files.cert, cert.pem()).expect("write the certificate");
        std::fs::write(&files.key, key.serialize_pem()).expect("write the key");
        cert.der().to_vec()
    }
}

impl Files {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        Self {
            cert: dir.path().join("desk.crt"),
            key: dir.path().join("desk.key"),
            _dir: dir,
        }
    }
}

/// The certificate a new client connecting to `url` is presented.
async fn presented(ca: &Ca, url: &str) -> Vec<u8> {
    let response = ca
        .client()
        .get(format!("{url}/api/v1/asks"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("https answers");
    assert_eq!(response.status(), StatusCode::OK);
    response
        .extensions()
        .get::<TlsInfo>()
        .and_then(TlsInfo::peer_certificate)
        .expect("the server's certificate")
        .to_vec()
}

/// Waits until `done` holds, failing after half a minute.
async fn eventually<F: std::future::Future<Output = bool>>(
    what: &str,
    mut done: impl FnMut() -> F,
) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done().await {
        assert!(Instant::now() < deadline, "{what} did not happen in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_is_served_and_a_renewed_certificate_without_a_restart() {
    let ca = Ca::new();
    let files = Files::new();
    let first = ca.issue("first.askdesk.test", &files);
    let mut settings = args(Some(TOKEN));
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.tls_cert = Some(files.cert.clone());
    settings.tls_key = Some(files.key.clone());
    let shutdown = CancellationToken::new();
    let started = start(&settings, shutdown.clone()).await.expect("server");
    let url = started.url();
    assert_eq!(url, format!("https://{}", started.addr));
    // Signing in over https gives a cookie only https carries back.
    let signed_in = ca
        .client()
        .post(format!("{url}/signin"))
        .form(&[("token", TOKEN)])
        .send()
        .await
        .expect("https answers");
    assert_eq!(signed_in.status(), StatusCode::SEE_OTHER);
    let cookie = signed_in.headers()[reqwest::header::SET_COOKIE]
        .to_str()
        .expect("ascii");
    assert!(cookie.contains("; Secure"), "{cookie}");
    assert_eq!(presented(&ca, &url).await, first);

    // Plain http is not served on the port.
    let plain = reqwest::Client::new()
        .get(format!("http://{}/api/v1/asks", started.addr))
        .bearer_auth(TOKEN)
        .send()
        .await;
    assert!(plain.is_err(), "http answered: {plain:?}");

    // A renewal written over the files is served to new connections.
    let second = ca.issue("second.askdesk.test", &files);
    assert_ne!(first, second);
    eventually("serving the renewed certificate", || async {
        presented(&ca, &url).await == second
    })
    .await;

    // A broken renewal is refused, and the certificate before it stays.
    let certificates = started.tls.clone().expect("serving TLS");
    let refused = certificates.refused();
    std::fs::write(&files.cert, "-----BEGIN CERTIFICATE-----\nbroken\n").expect("write");
    eventually("refusing the broken certificate", || async {
        certificates.refused() > refused
    })
    .await;
    assert_eq!(presented(&ca, &url).await, second);

    shutdown.cancel();
    started.task.await.expect("stopped");
}

/// The real binary serving with `flags`, none of its settings from the
/// environment but an in-memory desk.
fn askdesk(flags: &[&str]) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"));
    command
        .arg("serve")
        .args(flags)
        .env("ASKDESK_DATABASE", ":memory:")
        .env_remove("ASKDESK_TLS_CERT")
        .env_remove("ASKDESK_TLS_KEY")
        .env_remove("ASKDESK_PUBLIC_URL")
        .env_remove("ASKDESK_TOKEN")
        .stdin(Stdio::null())
        .kill_on_drop(true);
    command
}

#[tokio::test]
async fn the_binary_says_it_serves_https_and_refuses_a_certificate_without_its_key() {
    let ca = Ca::new();
    let files = Files::new();
    ca.issue("desk.askdesk.test", &files);

    let mut serving = askdesk(&[]);
    serving
        .env("ASKDESK_TLS_CERT", &files.cert)
        .env("ASKDESK_TLS_KEY", &files.key)
        .stderr(Stdio::null());
    let (_child, served) = crate::notify::spawned(serving).await;
    assert!(served.starts_with("https://127.0.0.1:"), "{served}");

    let cert = files.cert.display().to_string();
    let mut alone = askdesk(&["--addr", "127.0.0.1:0", "--tls-cert", &cert]);
    alone.stdout(Stdio::piped()).stderr(Stdio::piped());
    let output = tokio::time::timeout(
        Duration::from_secs(30),
        alone.spawn().expect("askdesk runs").wait_with_output(),
    )
    .await
    .expect("askdesk refuses at once")
    .expect("askdesk ran");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--tls-cert needs --tls-key"), "{stderr}");
    assert!(output.stdout.is_empty(), "it served");
}

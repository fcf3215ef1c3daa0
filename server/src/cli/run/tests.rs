//! Starting and stopping a server in-process.

use super::*;
use crate::cli::config::{Cli, ServeSettings};
use clap::Parser;
use std::ffi::OsString;

#[tokio::test]
async fn a_tls_key_that_cannot_be_read_refuses_the_start_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cert = dir.path().join("desk.crt");
    let certified =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).expect("certificate");
    std::fs::write(&cert, certified.cert.pem()).expect("write");
    let key = dir.path().join("desk.key");
    let flags: [OsString; 7] = [
        "askdesk".into(),
        "--addr=127.0.0.1:0".into(),
        "--database=:memory:".into(),
        "--tls-cert".into(),
        cert.into(),
        "--tls-key".into(),
        key.clone().into(),
    ];
    let cli = Cli::try_parse_from(flags).expect("flags");
    let settings = ServeSettings::check(cli.serve).expect("checked");
    let refused = start(settings, CancellationToken::new())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(
        refused.starts_with("cannot read the TLS key ")
            && refused.contains(&key.display().to_string()),
        "{refused}"
    );
}

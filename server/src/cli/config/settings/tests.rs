//! `serve`'s flags checked into settings, without a server.

use super::*;
use crate::cli::config::{Cli, MIN_TOKEN_CHARS};
use clap::Parser;

fn check(flags: &[&str]) -> Result<ServeSettings, String> {
    let cli = Cli::try_parse_from(["askdesk"].iter().chain(flags)).expect("flags");
    ServeSettings::check(cli.serve).map_err(|e| e.to_string())
}

fn refusal(flags: &[&str]) -> String {
    check(flags)
        .err()
        .unwrap_or_else(|| panic!("{flags:?} refused"))
}

#[test]
fn a_listener_other_machines_reach_needs_a_long_token() {
    assert!(refusal(&["--addr=0.0.0.0:3000"]).contains("without a token"));
    assert!(refusal(&["--addr=0.0.0.0:3000", "--token=short"]).contains("has 5 characters"));
    let token = "t".repeat(MIN_TOKEN_CHARS);
    assert!(check(&["--addr=0.0.0.0:3000", &format!("--token={token}")]).is_ok());
    assert!(check(&["--addr=127.0.0.1:0"]).is_ok());
}

#[test]
fn a_public_url_is_a_bare_origin_and_names_the_links() {
    assert!(refusal(&["--public-url=ftp://desk.example"]).contains("must look like"));
    assert!(refusal(&["--public-url=https://desk.example/asks"]).contains("without a path"));
    let settings = check(&["--public-url=https://desk.example/"]).expect("checked");
    let bound = "127.0.0.1:4000".parse().expect("address");
    assert_eq!(
        settings.security(bound).public_url(),
        "https://desk.example"
    );
    let settings = check(&["--addr=127.0.0.1:0"]).expect("checked");
    assert_eq!(
        settings.security(bound).public_url(),
        "http://127.0.0.1:4000"
    );
}

#[test]
fn settings_that_contradict_each_other_are_refused() {
    assert!(refusal(&["--elicit", "--answer-requires-sign-in"]).contains("choose one"));
    assert!(refusal(&["--tls-cert=desk.crt"]).contains("--tls-cert needs --tls-key"));
    let unsigned = refusal(&["--notify=webhook+https://hooks.example/x"]);
    assert!(unsigned.contains("--notify-secret"), "{unsigned}");
}

#[test]
fn sign_in_needs_people_only_without_a_token() {
    let settings = check(&["--answer-requires-sign-in"]).expect("checked");
    assert!(settings.sign_in_needs_people);
    assert_eq!(settings.link_answers, LinkAnswers::Never);
    let token = format!("--token={}", "t".repeat(MIN_TOKEN_CHARS));
    let settings = check(&["--answer-requires-sign-in", &token]).expect("checked");
    assert!(!settings.sign_in_needs_people);
}

#[test]
fn every_flag_start_needs_is_read_into_the_settings() {
    let settings = check(&[
        "--addr=127.0.0.1:4123",
        "--database=:memory:",
        "--site-root=/srv/askdesk-site",
        "--frame-ancestors= 'self' https://dash.example ",
        "--embed-origin=https://dash.example",
        "--web-push=mailto:desk@example.com",
        "--mcp-default-timeout=600",
        "--elicit",
        "--slack-signing-secret=",
        "--create-limit=30",
        "--metrics-addr=127.0.0.1:9464",
        "--keep-events=77",
        "--keep-finished=2d",
        "--shutdown-grace=7",
        "--database-connections=0",
    ])
    .expect("checked");
    assert_eq!(settings.addr.port(), 4123);
    assert_eq!(settings.database, Database::Memory);
    assert_eq!(
        settings.site,
        Site::Folder(PathBuf::from("/srv/askdesk-site"))
    );
    let page = settings.page.config(&Assets::default());
    assert_eq!(page.frame_ancestors, "'self' https://dash.example");
    assert_eq!(page.embed_origin.as_deref(), Some("https://dash.example"));
    assert!(page.web_push);
    assert_eq!(
        settings.web_push.as_deref(),
        Some("mailto:desk@example.com")
    );
    assert_eq!(settings.mcp_default_timeout, Some(600));
    assert!(settings.elicit);
    // An empty secret is no secret: Slack's presses are refused.
    assert!(settings.slack_signing_secret.is_none());
    assert_eq!(settings.create_limit, Some(30));
    assert_eq!(settings.metrics_addr.map(|a| a.port()), Some(9464));
    assert_eq!(settings.keep_events, 77);
    assert_eq!(
        settings.keep_finished,
        Some(Duration::from_secs(2 * 86_400))
    );
    assert_eq!(settings.shutdown_grace, Duration::from_secs(7));
    // At least one connection, waited for at least a second.
    assert_eq!(settings.pool.max_connections, 1);
    assert_eq!(settings.link_answers, LinkAnswers::WithoutPeople);
    assert!(settings.oidc.is_none() && settings.tls.is_none());
    assert_eq!(check(&[]).expect("defaults").site, Site::Built);
}

#[test]
fn frame_ancestors_are_sources_separated_by_spaces() {
    for refused in [
        "--frame-ancestors=",
        "--frame-ancestors='self'; script-src *",
    ] {
        assert!(refusal(&[refused]).contains("CSP sources"), "{refused}");
    }
    assert!(refusal(&["--frame-ancestors='self',https://a.example"]).contains("CSP sources"));
}

#[test]
fn an_unreadable_oidc_secret_file_is_refused_before_anything_listens() {
    let refused = refusal(&[
        "--oidc-issuer=https://id.example",
        "--oidc-client-id=askdesk",
        "--oidc-client-secret-file=/nonexistent/askdesk-secret",
    ]);
    assert!(refused.contains("/nonexistent/askdesk-secret"), "{refused}");
}

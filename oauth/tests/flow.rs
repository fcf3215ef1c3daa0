//! The whole flow on a desk in memory: register, check the request, the
//! person allows, exchange the code with its verifier, act as the grant's
//! agent, refresh, revoke; and each refusal on the way.

use desk::{Desk, SqliteStore};
use interaction::Role;
use oauth::{
    authorize::{Params, Refusal},
    cimd, pkce,
    token::TokenForm,
    AuthServer, OAuthError,
};
use serde_json::json;
use std::sync::Arc;

const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const REDIRECT: &str = "http://127.0.0.1:4567/callback";

async fn desk() -> Desk {
    let store = SqliteStore::in_memory().await.expect("store");
    let desk = Desk::open(Arc::new(store), "http://127.0.0.1:3000/")
        .await
        .expect("desk");
    desk.add_person("alice", Role::Person).await.expect("alice");
    desk
}

fn server(registrations: u64) -> AuthServer {
    let documents = cimd::Documents::new(cimd::Fetching::default()).expect("documents");
    AuthServer::new("http://127.0.0.1:3000", registrations, documents)
}

async fn registered(server: &AuthServer, desk: &Desk) -> String {
    let reply = server
        .register(
            desk,
            &json!({"client_name": "Test client", "redirect_uris": [REDIRECT]}),
        )
        .await
        .expect("registered");
    assert_eq!(reply["token_endpoint_auth_method"], "none");
    reply["client_id"].as_str().expect("an id").to_owned()
}

fn params(client_id: &str) -> Params {
    Params {
        response_type: Some("code".to_owned()),
        client_id: Some(client_id.to_owned()),
        redirect_uri: Some(REDIRECT.to_owned()),
        code_challenge: Some(pkce::challenge_of(VERIFIER)),
        code_challenge_method: Some("S256".to_owned()),
        state: Some("st4te".to_owned()),
        scope: None,
        resource: Some("http://127.0.0.1:3000/mcp".to_owned()),
    }
}

/// The code in a redirect, checking its `state` and `iss`.
fn code_in(redirect: &str) -> String {
    let url = url::Url::parse(redirect).expect("a URL");
    let pairs: std::collections::HashMap<_, _> = url.query_pairs().into_owned().collect();
    assert_eq!(pairs.get("state").map(String::as_str), Some("st4te"));
    assert_eq!(
        pairs.get("iss").map(String::as_str),
        Some("http://127.0.0.1:3000")
    );
    pairs.get("code").expect("a code").clone()
}

/// alice allows `client_id`'s request: the code it is sent.
async fn allowed_code(server: &AuthServer, desk: &Desk, client_id: &str) -> String {
    let request = server
        .check(desk, params(client_id))
        .await
        .expect("a request");
    code_in(
        &server
            .allow(desk, &request, "alice")
            .await
            .expect("allowed"),
    )
}

/// alice allows `client_id`, and it exchanges the code: its tokens.
async fn connected(server: &AuthServer, desk: &Desk, client_id: &str) -> serde_json::Value {
    let code = allowed_code(server, desk, client_id).await;
    server
        .token(desk, &exchange(client_id, &code, VERIFIER))
        .await
        .expect("tokens")
}

fn exchange(client_id: &str, code: &str, verifier: &str) -> TokenForm {
    TokenForm {
        grant_type: Some("authorization_code".to_owned()),
        code: Some(code.to_owned()),
        redirect_uri: Some(REDIRECT.to_owned()),
        code_verifier: Some(verifier.to_owned()),
        client_id: Some(client_id.to_owned()),
        resource: Some("http://127.0.0.1:3000/mcp".to_owned()),
        ..TokenForm::default()
    }
}

fn grant_error(result: Result<serde_json::Value, OAuthError>) -> String {
    let e = result.expect_err("refused");
    assert_eq!(e.error, "invalid_grant", "{e:?}");
    e.error_description
}

#[tokio::test]
async fn a_person_allows_and_the_client_acts_as_their_agent() {
    let (desk, server) = (desk().await, server(10));
    let client_id = registered(&server, &desk).await;
    let request = server
        .check(&desk, params(&client_id))
        .await
        .expect("a request");
    assert!(!request.client.verified);
    let code = code_in(
        &server
            .allow(&desk, &request, "alice")
            .await
            .expect("allowed"),
    );
    let tokens = server
        .token(&desk, &exchange(&client_id, &code, VERIFIER))
        .await
        .expect("tokens");
    assert_eq!(tokens["token_type"], "Bearer");
    let access = tokens["access_token"].as_str().expect("access");
    let bearer = desk.bearer(access).await.expect("read").expect("holds");
    assert_eq!(bearer.agent.name, "test-client-alice");
    assert_eq!(bearer.agent.role, Role::Agent);
    assert_eq!(bearer.grant.terms.resource, server.resource());

    // The code is spent: its second use revokes the grant.
    let again = grant_error(
        server
            .token(&desk, &exchange(&client_id, &code, VERIFIER))
            .await,
    );
    assert!(again.contains("used before"), "{again}");
    assert!(desk.bearer(access).await.expect("read").is_none());
}

#[tokio::test]
async fn refresh_tokens_rotate_and_revocation_ends_the_grant() {
    let (desk, server) = (desk().await, server(10));
    let client_id = registered(&server, &desk).await;
    let first = connected(&server, &desk, &client_id).await;
    let refresh = |token: &str| TokenForm {
        grant_type: Some("refresh_token".to_owned()),
        refresh_token: Some(token.to_owned()),
        client_id: Some(client_id.clone()),
        ..TokenForm::default()
    };
    let old = first["refresh_token"].as_str().expect("refresh");
    let second = server.token(&desk, &refresh(old)).await.expect("rotated");
    let new = second["refresh_token"].as_str().expect("refresh");
    assert_ne!(old, new);
    // The old one, again: the family is revoked.
    let reused = grant_error(server.token(&desk, &refresh(old)).await);
    assert!(reused.contains("revoked"), "{reused}");
    let gone = second["access_token"].as_str().expect("access");
    assert!(desk.bearer(gone).await.expect("read").is_none());

    // A new grant, revoked by its access token.
    let tokens = connected(&server, &desk, &client_id).await;
    let access = tokens["access_token"].as_str().expect("access");
    let revoke = TokenForm {
        token: Some(access.to_owned()),
        ..TokenForm::default()
    };
    server.revoke(&desk, &revoke).await.expect("revoked");
    assert!(desk.bearer(access).await.expect("read").is_none());
    let refresh_after = tokens["refresh_token"].as_str().expect("refresh");
    grant_error(server.token(&desk, &refresh(refresh_after)).await);
}

#[tokio::test]
async fn a_wrong_verifier_client_or_resource_spends_the_code_for_nothing() {
    let (desk, server) = (desk().await, server(10));
    let client_id = registered(&server, &desk).await;
    let other_id = registered(&server, &desk).await;
    let wrong_verifier = "x".repeat(43);
    for (form, says) in [
        (exchange(&client_id, "", VERIFIER), "code is required"),
        (exchange(&client_id, "c", ""), "code_verifier is required"),
        (exchange(&client_id, "nope", VERIFIER), "unknown"),
        (
            exchange(&client_id, "{code}", &wrong_verifier),
            "does not match",
        ),
        (exchange(&client_id, "{code}", "plain"), "43 to 128"),
        (exchange(&other_id, "{code}", VERIFIER), "another client_id"),
    ] {
        let code = allowed_code(&server, &desk, &client_id).await;
        let mut form = form;
        if form.code.as_deref() == Some("{code}") {
            form.code = Some(code.clone());
        }
        let e = server.token(&desk, &form).await.expect_err("refused");
        assert!(e.error_description.contains(says), "{says}: {e:?}");
        // Whatever went wrong, the right exchange afterwards finds it spent.
        if form.code.as_deref() == Some(code.as_str()) {
            grant_error(
                server
                    .token(&desk, &exchange(&client_id, &code, VERIFIER))
                    .await,
            );
        }
    }
    // A token for another resource is not asked for.
    let code = allowed_code(&server, &desk, &client_id).await;
    let mut form = exchange(&client_id, &code, VERIFIER);
    form.resource = Some("https://other.example/mcp".to_owned());
    let e = server.token(&desk, &form).await.expect_err("refused");
    assert_eq!(e.error, "invalid_target");
}

#[tokio::test]
async fn requests_that_do_not_check_out_are_refused_before_a_person_is_asked() {
    let (desk, server) = (desk().await, server(10));
    let client_id = registered(&server, &desk).await;
    let shown = |r: Result<_, Refusal>| match r {
        Err(Refusal::Shown(why)) => why,
        other => panic!("not shown on the page: {other:?}"),
    };
    let sent = |r: Result<_, Refusal>| match r {
        Err(Refusal::Redirect(to)) => {
            assert!(to.starts_with(REDIRECT), "{to}");
            assert!(to.contains("state=st4te"), "{to}");
            to
        }
        other => panic!("not sent back: {other:?}"),
    };
    let mut p = params("unknown-client");
    assert!(shown(server.check(&desk, p.clone()).await).contains("neither registered"));
    p = params(&client_id);
    p.redirect_uri = Some("https://evil.example/cb".to_owned());
    assert!(shown(server.check(&desk, p).await).contains("not one of"));
    for (change, error) in [
        (
            (|p: &mut Params| p.code_challenge_method = Some("plain".to_owned()))
                as fn(&mut Params),
            "invalid_request",
        ),
        (|p: &mut Params| p.code_challenge = None, "invalid_request"),
        (
            |p: &mut Params| p.code_challenge_method = None,
            "invalid_request",
        ),
        (
            |p: &mut Params| p.response_type = Some("token".to_owned()),
            "unsupported_response_type",
        ),
        (
            |p: &mut Params| p.resource = Some("https://other.example/mcp".to_owned()),
            "invalid_target",
        ),
        (
            |p: &mut Params| p.scope = Some("admin".to_owned()),
            "invalid_scope",
        ),
    ] {
        let mut p = params(&client_id);
        change(&mut p);
        let to = sent(server.check(&desk, p).await);
        assert!(to.contains(&format!("error={error}")), "{to}");
        assert!(to.contains("iss=http"), "{to}");
    }
    let request = server
        .check(&desk, params(&client_id))
        .await
        .expect("a request");
    let denied = server.deny(&request);
    assert!(denied.contains("error=access_denied"), "{denied}");
}

#[tokio::test]
async fn registrations_stop_at_the_cap() {
    let (desk, server) = (desk().await, server(1));
    registered(&server, &desk).await;
    let e = server
        .register(&desk, &json!({"redirect_uris": [REDIRECT]}))
        .await
        .expect_err("capped");
    assert_eq!(e.status, 403);
    assert!(
        e.error_description.contains("--oauth-registrations"),
        "{e:?}"
    );
}

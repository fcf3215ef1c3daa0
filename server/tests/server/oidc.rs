//! Sign-in with an identity provider, against the real server started as
//! `serve` starts it and a provider on loopback that answers as OpenID
//! Connect says: discovery, a code for the browser, and ID tokens this
//! test signs itself (HS256 with the client's secret), so that each check
//! askdesk must make — signature, issuer, audience, expiry, nonce, PKCE,
//! state, a verified email of a person — can be failed on purpose.

use crate::common::args;
use axum::{
    extract::{Form, State},
    routing::{get, post},
    Json, Router,
};
use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use desk::{Desk, Joining};
use hmac::Mac;
use interaction::Role;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};
use tokio_util::sync::CancellationToken;

const CLIENT_ID: &str = "askdesk-test";
const SECRET: &str = "a-client-secret-of-the-test";
const CODE: &str = "the-code";

/// What the provider puts in the next ID token it issues.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Token {
    Good,
    Expired,
    Tampered,
    WrongNonce,
    WrongAudience,
    WrongIssuer,
    Unverified,
    Email(&'static str),
    /// The email's claims only from UserInfo, as a conforming provider
    /// sends them in the code flow.
    InUserInfo,
    /// UserInfo answers for another subject than the ID token's.
    UserInfoOfAnother,
    /// An email, and nothing said of whether it is verified (Entra ID).
    Unsaid,
}

/// The provider's state: its URL, the next token, and the last
/// authorization request's nonce and PKCE challenge.
#[derive(Default)]
struct Provider {
    issuer: String,
    token: Option<Token>,
    nonce: String,
    challenge: String,
}

type Shared = Arc<Mutex<Provider>>;

fn lock(provider: &Shared) -> std::sync::MutexGuard<'_, Provider> {
    provider.lock().expect("provider")
}

/// An ID token of `claims`, signed with the client's secret.
fn signed(claims: &Value) -> String {
    let header = URL_SAFE_NO_PAD.encode(json!({"alg": "HS256", "typ": "JWT"}).to_string());
    let body = URL_SAFE_NO_PAD.encode(claims.to_string());
    let mut mac = hmac::Hmac::<Sha256>::new_from_slice(SECRET.as_bytes()).expect("key");
    mac.update(format!("{header}.{body}").as_bytes());
    let signature = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
    format!("{header}.{body}.{signature}")
}

fn id_token(provider: &Provider, kind: Token) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("time")
        .as_secs();
    let mut claims = json!({
        "iss": provider.issuer,
        "sub": "248289761001",
        "aud": CLIENT_ID,
        "iat": now,
        "exp": now + 300,
        "nonce": provider.nonce,
        "email": "Alice@Example.com",
        "email_verified": true,
    });
    match kind {
        Token::Good | Token::Tampered => {}
        Token::Expired => {
            claims["iat"] = json!(now - 1200);
            claims["exp"] = json!(now - 600);
        }
        Token::WrongNonce => claims["nonce"] = json!("another-sign-in"),
        Token::WrongAudience => claims["aud"] = json!("another-client"),
        Token::WrongIssuer => claims["iss"] = json!("http://127.0.0.1:1"),
        Token::Unverified => claims["email_verified"] = json!(false),
        Token::Email(email) => claims["email"] = json!(email),
        Token::InUserInfo | Token::UserInfoOfAnother => {
            let claims = claims.as_object_mut().expect("claims");
            claims.remove("email");
            claims.remove("email_verified");
        }
        Token::Unsaid => {
            claims
                .as_object_mut()
                .expect("claims")
                .remove("email_verified");
        }
    }
    let token = signed(&claims);
    if kind != Token::Tampered {
        return token;
    }
    // Bob's email in Alice's signed token.
    let parts: Vec<&str> = token.split('.').collect();
    claims["email"] = json!("bob@example.com");
    let body = URL_SAFE_NO_PAD.encode(claims.to_string());
    format!("{}.{body}.{}", parts[0], parts[2])
}

async fn discovery(State(provider): State<Shared>) -> Json<Value> {
    let issuer = lock(&provider).issuer.clone();
    Json(json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "userinfo_endpoint": format!("{issuer}/userinfo"),
        "jwks_uri": format!("{issuer}/jwks"),
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["HS256"],
        "code_challenge_methods_supported": ["S256"],
    }))
}

/// The token endpoint: the code, the client's secret and the PKCE
/// verifier of the last authorization request, or `invalid_grant`.
async fn token(
    State(provider): State<Shared>,
    headers: axum::http::HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let provider = lock(&provider);
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{CLIENT_ID}:{SECRET}"))
    );
    let authenticated = headers
        .get("authorization")
        .is_some_and(|value| value.as_bytes() == basic.as_bytes());
    let verifier = form
        .get("code_verifier")
        .map(String::as_str)
        .unwrap_or_default();
    let proven = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) == provider.challenge;
    let Some(kind) = provider
        .token
        .filter(|_| authenticated && proven && form.get("code").map(String::as_str) == Some(CODE))
    else {
        let refused = json!({"error": "invalid_grant"});
        return (axum::http::StatusCode::BAD_REQUEST, Json(refused)).into_response();
    };
    Json(json!({
        "access_token": "an-access-token",
        "token_type": "Bearer",
        "expires_in": 300,
        "id_token": id_token(&provider, kind),
    }))
    .into_response()
}

/// The UserInfo endpoint: the person's claims, for the access token the
/// token endpoint issued.
async fn user_info(
    State(provider): State<Shared>,
    headers: axum::http::HeaderMap,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let kind = lock(&provider).token;
    let bearer = headers.get("authorization").map(|v| v.as_bytes());
    if bearer != Some(b"Bearer an-access-token".as_slice()) {
        return axum::http::StatusCode::UNAUTHORIZED.into_response();
    }
    let mut claims = json!({"sub": "248289761001", "email": "Alice@Example.com"});
    match kind {
        Some(Token::InUserInfo) => claims["email_verified"] = json!(true),
        Some(Token::UserInfoOfAnother) => {
            claims["sub"] = json!("somebody-else");
            claims["email_verified"] = json!(true);
        }
        _ => {}
    }
    Json(claims).into_response()
}

/// The provider on a free loopback port.
async fn provider() -> Shared {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bound");
    let provider: Shared = Arc::new(Mutex::new(Provider {
        issuer: format!("http://{}", listener.local_addr().expect("addr")),
        ..Provider::default()
    }));
    let app = Router::new()
        .route("/.well-known/openid-configuration", get(discovery))
        .route("/jwks", get(|| async { Json(json!({"keys": []})) }))
        .route("/token", post(token))
        .route("/userinfo", get(user_info))
        .with_state(provider.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    provider
}

/// askdesk with a token, signing people in with `provider`.
async fn desk_with(provider: &Shared) -> (String, Desk, CancellationToken) {
    desk_trusting(provider, &[]).await
}

/// askdesk signing people in with `provider`, taking its addresses in
/// `domains` as verified when it says nothing either way.
async fn desk_trusting(provider: &Shared, domains: &[&str]) -> (String, Desk, CancellationToken) {
    let mut settings = args(Some(&"t".repeat(32)));
    settings.oidc.oidc_trust_email_domains = domains.iter().map(|d| (*d).to_owned()).collect();
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.oidc.oidc_issuer = Some(lock(provider).issuer.clone());
    settings.oidc.oidc_client_id = Some(CLIENT_ID.to_owned());
    settings.oidc.oidc_client_secret = Some(SECRET.to_owned());
    let shutdown = CancellationToken::new();
    let started = crate::common::start(&settings, shutdown.clone())
        .await
        .expect("server");
    (format!("http://{}", started.addr), started.desk, shutdown)
}

fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// The text of a page of the desk, read by a browser with no cookie.
async fn page_text(url: &str) -> String {
    browser()
        .get(url)
        .send()
        .await
        .expect("the page")
        .text()
        .await
        .expect("its text")
}

fn location(response: &reqwest::Response) -> String {
    response.headers()["location"]
        .to_str()
        .expect("text")
        .to_owned()
}

/// The `name=value` of the cookie `name` the response sets, and its
/// attributes.
fn set_cookie(response: &reqwest::Response, name: &str) -> Option<(String, String)> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(|v| {
            let (pair, attributes) = v.split_once(';').unwrap_or((v, ""));
            (pair.to_owned(), attributes.to_owned())
        })
}

/// Starts a sign-in going to `/history`, as the sign-in page's button
/// does; the provider then "signs the person in" and issues `kind`. The
/// callback's response.
async fn sign_in(url: &str, provider: &Shared, kind: Token) -> reqwest::Response {
    let browser = browser();
    let started = browser
        .get(format!("{url}/signin/oidc?next=/history"))
        .send()
        .await
        .expect("started");
    assert_eq!(started.status(), 303);
    let to = reqwest::Url::parse(&location(&started)).expect("a URL");
    let query: HashMap<String, String> = to.query_pairs().into_owned().collect();
    assert_eq!(
        to.as_str().split('?').next(),
        Some(format!("{}/authorize", lock(provider).issuer).as_str())
    );
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["redirect_uri"], format!("{url}/signin/oidc/callback"));
    assert_eq!(query["code_challenge_method"], "S256");
    let scopes: Vec<&str> = query["scope"].split(' ').collect();
    assert!(
        scopes.contains(&"openid") && scopes.contains(&"email"),
        "{scopes:?}"
    );
    let (flow, attributes) = set_cookie(&started, "askdesk_oidc").expect("the flow's cookie");
    for attribute in [
        "Path=/signin/oidc/callback",
        "HttpOnly",
        "SameSite=Lax",
        "Max-Age=600",
    ] {
        assert!(attributes.contains(attribute), "{attributes}");
    }
    {
        let mut provider = lock(provider);
        provider.token = Some(kind);
        provider.nonce = query["nonce"].clone();
        provider.challenge = query["code_challenge"].clone();
    }
    browser
        .get(format!("{url}/signin/oidc/callback"))
        .query(&[("code", CODE), ("state", &query["state"])])
        .header("cookie", flow)
        .send()
        .await
        .expect("called back")
}

async fn people(desk: &Desk) -> (usize, usize) {
    (
        desk.people().await.expect("people").len(),
        desk.sessions(None).await.expect("sessions").len(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_signs_in_by_the_email_the_provider_verified_and_every_bad_token_is_refused() {
    let provider = provider().await;
    let (url, desk, shutdown) = desk_with(&provider).await;
    let with = |email: &str| Joining {
        email: Some(email.to_owned()),
        ..Joining::default()
    };
    desk.add_person_with("alice", Role::Person, with("alice@example.com"))
        .await
        .expect("alice");
    desk.add_person_with("bob", Role::Person, with("bob@example.com"))
        .await
        .expect("bob");
    desk.add_person_with("bot", Role::Agent, with("bot@example.com"))
        .await
        .expect("an agent");

    // The sign-in page offers the provider beside the token.
    let page = page_text(&format!("{url}/signin?next=/history")).await;
    assert!(page.contains("Sign in with 127.0.0.1"), "{page}");
    assert!(
        page.contains(r#"href="/signin/oidc?next=/history""#),
        "{page}"
    );

    // Each check refuses, and nothing is opened or created.
    let before = people(&desk).await;
    let failed_provider = "did not succeed";
    for (kind, failed, said) in [
        (Token::Expired, "provider", failed_provider),
        (Token::Tampered, "provider", failed_provider),
        (Token::WrongNonce, "provider", failed_provider),
        (Token::WrongAudience, "provider", failed_provider),
        (Token::WrongIssuer, "provider", failed_provider),
        (
            Token::Unverified,
            "unverified",
            "did not say your email address is verified",
        ),
        (Token::UserInfoOfAnother, "provider", failed_provider),
        (
            Token::Unsaid,
            "unverified",
            "did not say your email address is verified",
        ),
        (
            Token::Email("stranger@example.com"),
            "stranger",
            "no person of this desk has that email",
        ),
        (
            Token::Email("bot@example.com"),
            "agent-email",
            "signed you in as an agent of this desk",
        ),
    ] {
        let refused = sign_in(&url, &provider, kind).await;
        assert_eq!(refused.status(), 303, "{kind:?}");
        assert_eq!(
            location(&refused),
            format!("/signin?failed={failed}"),
            "{kind:?}"
        );
        // The sign-in page it lands on says why.
        let page = page_text(&format!("{url}{}", location(&refused))).await;
        assert!(page.contains(said), "{kind:?}: {page}");
        assert!(
            set_cookie(&refused, "askdesk_session").is_none(),
            "{kind:?}"
        );
        let (_, gone) = set_cookie(&refused, "askdesk_oidc").expect("the flow ends");
        assert!(gone.contains("Max-Age=0"), "{gone}");
        assert_eq!(people(&desk).await, before, "{kind:?}: nothing created");
    }

    // The verified email, in any case, opens a session for its person,
    // and the browser goes on through a page of this site.
    let signed = sign_in(&url, &provider, Token::Good).await;
    assert_eq!(location(&signed), "/signin/done?next=/history");
    let (session, attributes) = set_cookie(&signed, "askdesk_session").expect("a session");
    assert!(attributes.contains("SameSite=Strict"), "{attributes}");
    let history = browser()
        .get(format!("{url}/history"))
        .header("cookie", &session)
        .send()
        .await
        .expect("history");
    assert_eq!(history.status(), 200);
    assert!(history
        .text()
        .await
        .expect("text")
        .contains("Signed in as alice"));
    let sessions = desk.sessions(None).await.expect("sessions");
    assert_eq!(sessions.len(), 1);
    // `/signin/done` carries the browser on, to a path of this server only.
    for (next, to) in [
        ("/history", "/history"),
        ("//evil.example", "/"),
        ("%2F%09%2Fevil.example", "/"),
        ("%2F%5Cevil.example", "/"),
    ] {
        let done = page_text(&format!("{url}/signin/done?next={next}")).await;
        assert!(done.contains(&format!(r#"content="0;url={to}""#)), "{done}");
    }

    // A callback without its own sign-in's cookie, or with another
    // sign-in's state, opens nothing.
    let forged = browser()
        .get(format!(
            "{url}/signin/oidc/callback?code={CODE}&state=guessed"
        ))
        .header("cookie", "askdesk_oidc=e30.AAAA")
        .send()
        .await
        .expect("forged");
    assert_eq!(location(&forged), "/signin?failed=provider");
    assert_eq!(desk.sessions(None).await.expect("sessions").len(), 1);
    shutdown.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_issuer_that_cannot_be_discovered_or_a_flag_alone_stops_the_start_naming_the_flag() {
    use clap::Parser;
    use server::cli::config::Cli;
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.oidc.oidc_issuer = Some("http://127.0.0.1:9/nobody".to_owned());
    settings.oidc.oidc_client_id = Some(CLIENT_ID.to_owned());
    settings.oidc.oidc_client_secret = Some(SECRET.to_owned());
    let refused = crate::common::start(&settings, CancellationToken::new())
        .await
        .err()
        .expect("refused");
    let refused = format!("{refused:#}");
    assert!(
        refused.contains("--oidc-issuer http://127.0.0.1:9/nobody"),
        "{refused}"
    );
    assert!(refused.contains("cannot discover"), "{refused}");

    for (flags, named) in [
        (vec!["--oidc-issuer=https://id.example"], "--oidc-client-id"),
        (
            vec!["--oidc-issuer=https://id.example", "--oidc-client-id=x"],
            "--oidc-client-secret",
        ),
        (vec!["--oidc-client-id=x"], "--oidc-issuer"),
        (vec!["--oidc-client-secret=x"], "--oidc-issuer"),
    ] {
        let refused = Cli::try_parse_from(std::iter::once("askdesk").chain(flags.clone()))
            .err()
            .unwrap_or_else(|| panic!("{flags:?} refused"))
            .to_string();
        assert!(refused.contains(named), "{flags:?}: {refused}");
    }
    let both = Cli::try_parse_from([
        "askdesk",
        "--oidc-issuer=https://id.example",
        "--oidc-client-id=x",
        "--oidc-client-secret=x",
        "--oidc-client-secret-file=/run/secrets/oidc",
    ]);
    assert!(both.is_err(), "one secret or the other");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_email_comes_from_user_info_and_a_trusted_domain_stands_for_verified() {
    let provider = provider().await;
    let (url, desk, shutdown) = desk_with(&provider).await;
    let alice = || Joining {
        email: Some("alice@example.com".to_owned()),
        ..Joining::default()
    };
    desk.add_person_with("alice", Role::Person, alice())
        .await
        .expect("alice");
    // A conforming provider's code flow: the ID token names only the
    // subject, UserInfo the email and that it is verified.
    let signed = sign_in(&url, &provider, Token::InUserInfo).await;
    assert_eq!(location(&signed), "/signin/done?next=/history");
    assert!(set_cookie(&signed, "askdesk_session").is_some());
    // Nothing said of the email is not verified, unless its domain is
    // trusted; said unverified stays refused even then.
    let refused = sign_in(&url, &provider, Token::Unsaid).await;
    assert_eq!(location(&refused), "/signin?failed=unverified");
    shutdown.cancel();

    let (url, desk, shutdown) = desk_trusting(&provider, &["Example.com"]).await;
    desk.add_person_with("alice", Role::Person, alice())
        .await
        .expect("alice");
    let signed = sign_in(&url, &provider, Token::Unsaid).await;
    assert_eq!(location(&signed), "/signin/done?next=/history");
    let refused = sign_in(&url, &provider, Token::Unverified).await;
    assert_eq!(location(&refused), "/signin?failed=unverified");
    let refused = sign_in(&url, &provider, Token::UserInfoOfAnother).await;
    assert_eq!(location(&refused), "/signin?failed=provider");
    shutdown.cancel();
}

//! askdesk as the OAuth authorization server of `/mcp`, over HTTP: the
//! metadata and the challenge, registration, the consent page for a
//! signed-in person only, codes and tokens, and who may touch what — two
//! connected applications (each its own agent), an agent's token, the
//! admin, a link holder, and a person.

use crate::common::{args, body_text, TestServer, HOST, TOKEN};
use axum::{
    body::Body,
    http::{header, Method, Request, StatusCode},
    response::Response,
};
use desk::{SqliteStore, Store};
use interaction::Role;
use serde_json::{json, Value};
use server::http::assets::Assets;
use std::sync::Arc;

const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const REDIRECT: &str = "http://127.0.0.1:4567/callback";
const RESOURCE: &str = "http://127.0.0.1:3000/mcp";

/// A desk with the shared token and two people, and their tokens.
async fn desk() -> (TestServer, String, String) {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.expect("store"));
    let server = TestServer::configured(store, args(Some(TOKEN)), Assets::default()).await;
    let (_, alice) = server
        .desk
        .add_person("alice", Role::Person)
        .await
        .expect("alice");
    let (_, bob) = server
        .desk
        .add_person("bob", Role::Person)
        .await
        .expect("bob");
    (server, alice, bob)
}

fn request(method: Method, path: &str) -> axum::http::request::Builder {
    Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST)
}

/// A form post as the desk's own page sends it.
fn form(path: &str, fields: &[(&str, &str)], cookie: Option<&str>) -> Request<Body> {
    let mut r = request(Method::POST, path)
        .header(header::ORIGIN, "http://127.0.0.1:3000")
        .header("sec-fetch-site", "same-origin")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    if let Some(cookie) = cookie {
        r = r.header(header::COOKIE, cookie);
    }
    let body = serde_urlencoded::to_string(fields).expect("form");
    r.body(Body::from(body)).expect("request")
}

fn location(response: &Response) -> String {
    response.headers()[header::LOCATION]
        .to_str()
        .expect("ascii")
        .to_owned()
}

/// Signs `token`'s person in on the form: the cookie's `name=value`.
async fn sign_in(server: &TestServer, token: &str) -> String {
    let response = server
        .send(form("/signin", &[("token", token)], None))
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let set = response.headers()[header::SET_COOKIE]
        .to_str()
        .expect("ascii");
    set.split(';').next().expect("pair").to_owned()
}

async fn json_of(response: Response) -> Value {
    let text = body_text(response).await;
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Registers a client (RFC 7591) named `name`: its id.
async fn register(server: &TestServer, name: &str) -> String {
    let body = json!({"client_name": name, "redirect_uris": [REDIRECT]}).to_string();
    let response = server
        .send(
            request(Method::POST, "/oauth/register")
                .header(header::CONTENT_TYPE, "application/json")
                .header(header::ORIGIN, "https://inspector.example")
                .body(Body::from(body))
                .expect("request"),
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    json_of(response).await["client_id"]
        .as_str()
        .expect("id")
        .to_owned()
}

fn authorize_query(client_id: &str) -> String {
    serde_urlencoded::to_string([
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", REDIRECT),
        ("code_challenge", CHALLENGE),
        ("code_challenge_method", "S256"),
        ("state", "xyz"),
        ("resource", RESOURCE),
    ])
    .expect("query")
}

/// The hidden fields of the consent page's form.
fn consent_fields(page: &str) -> Vec<(String, String)> {
    page.split("<input type=\"hidden\" ")
        .skip(1)
        .map(|input| {
            let attr = |name: &str| {
                let from = input.find(&format!("{name}=\"")).expect(name) + name.len() + 2;
                let to = from + input[from..].find('"').expect("end");
                input[from..to].replace("&amp;", "&")
            };
            (attr("name"), attr("value"))
        })
        .collect()
}

/// `cookie`'s person allows `client_id`: the code.
async fn allow(server: &TestServer, client_id: &str, cookie: &str) -> String {
    let path = format!("/oauth/authorize?{}", authorize_query(client_id));
    let page = server
        .send(
            request(Method::GET, &path)
                .header(header::COOKIE, cookie)
                .body(Body::empty())
                .expect("r"),
        )
        .await;
    assert_eq!(page.status(), StatusCode::OK);
    let policy = page.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(
        policy.contains("form-action 'self' http://127.0.0.1:4567"),
        "{policy}"
    );
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    let html = body_text(page).await;
    let mut fields = consent_fields(&html);
    fields.push(("decision".to_owned(), "allow".to_owned()));
    let fields: Vec<(&str, &str)> = fields
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let answered = server
        .send(form("/oauth/authorize", &fields, Some(cookie)))
        .await;
    assert_eq!(answered.status(), StatusCode::SEE_OTHER);
    let to = url::Url::parse(&location(&answered)).expect("a URL");
    assert!(to.as_str().starts_with(REDIRECT), "{to}");
    let pairs: std::collections::HashMap<_, _> = to.query_pairs().into_owned().collect();
    assert_eq!(pairs["state"], "xyz");
    assert_eq!(pairs["iss"], "http://127.0.0.1:3000");
    pairs["code"].clone()
}

/// A token request from anywhere: status and body.
async fn token(server: &TestServer, fields: &[(&str, &str)]) -> (StatusCode, Value) {
    let response = server
        .send(
            request(Method::POST, "/oauth/token")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header(header::ORIGIN, "https://inspector.example")
                .header("sec-fetch-site", "cross-site")
                .body(Body::from(
                    serde_urlencoded::to_string(fields).expect("form"),
                ))
                .expect("request"),
        )
        .await;
    assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
    (response.status(), json_of(response).await)
}

/// The tokens of a connected client: access and refresh.
async fn connect(server: &TestServer, client_id: &str, cookie: &str) -> (String, String) {
    let code = allow(server, client_id, cookie).await;
    let (status, tokens) = token(
        server,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("code_verifier", VERIFIER),
            ("client_id", client_id),
            ("redirect_uri", REDIRECT),
            ("resource", RESOURCE),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    let access = tokens["access_token"].as_str().expect("access").to_owned();
    let refresh = tokens["refresh_token"]
        .as_str()
        .expect("refresh")
        .to_owned();
    (access, refresh)
}

/// An MCP request with `token`: `initialize` as the handshake era sends
/// it, anything else as one request of 2026-07-28 (no session).
async fn mcp(server: &TestServer, token: Option<&str>, body: Value) -> Response {
    let method = body["method"].as_str().unwrap_or_default().to_owned();
    let mut r = request(Method::POST, "/mcp")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream");
    let mut body = body;
    if method != "initialize" {
        r = r
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", &method);
        if let Some(name) = body["params"]["name"].as_str() {
            r = r.header("mcp-name", name);
        }
        body["params"]["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        });
    }
    if let Some(token) = token {
        r = r.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    server
        .send(r.body(Body::from(body.to_string())).expect("request"))
        .await
}

/// `ask_user` with one question, waiting `wait` seconds (or as long as
/// it may).
fn ask_user(wait: Option<u64>) -> Value {
    let mut arguments = json!({"questions": [
        {"id": "q", "question": "Ship it?", "options": [{"label": "Yes"}, {"label": "No"}]}]});
    if let Some(wait) = wait {
        arguments["waitSeconds"] = json!(wait);
    }
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "ask_user", "arguments": arguments}})
}

/// The ask id a tool's reply names.
fn ask_id_in(reply: &str) -> String {
    let at = reply.find("\"askId\":\"").expect("an ask id") + 9;
    reply[at..at + 32].to_owned()
}

/// Ask `id` as the admin reads it.
async fn read_as_admin(server: &TestServer, id: &str) -> Value {
    let read = server
        .send(
            request(Method::GET, &format!("/api/v1/asks/{id}"))
                .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                .body(Body::empty())
                .expect("request"),
        )
        .await;
    json_of(read).await
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}})
}

#[tokio::test]
async fn the_endpoint_names_its_authorization_server_and_the_server_its_endpoints() {
    let (server, _, _) = desk().await;
    let refused = mcp(&server, None, initialize()).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let challenge = refused.headers()[header::WWW_AUTHENTICATE]
        .to_str()
        .expect("ascii");
    assert_eq!(
        challenge,
        "Bearer resource_metadata=\"http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp\", scope=\"askdesk\""
    );
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let (status, meta) = server.json(Method::GET, path, None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(meta["resource"], RESOURCE);
        assert_eq!(
            meta["authorization_servers"],
            json!(["http://127.0.0.1:3000"])
        );
    }
    let (status, meta) = server
        .json(Method::GET, "/.well-known/oauth-authorization-server", None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(meta["issuer"], "http://127.0.0.1:3000");
    assert_eq!(meta["code_challenge_methods_supported"], json!(["S256"]));
    // A wrong token is told so on the endpoint.
    let wrong = mcp(&server, Some("askd_at_nope"), initialize()).await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let challenge = wrong.headers()[header::WWW_AUTHENTICATE]
        .to_str()
        .expect("ascii");
    assert!(challenge.contains("error=\"invalid_token\""), "{challenge}");
}

#[tokio::test]
async fn a_connected_client_is_its_persons_agent_on_mcp_only() {
    let (server, alice, _) = desk().await;
    let client = register(&server, "Test client").await;
    let cookie = sign_in(&server, &alice).await;
    let (access, refresh) = connect(&server, &client, &cookie).await;
    let ok = mcp(&server, Some(&access), initialize()).await;
    assert_eq!(ok.status(), StatusCode::OK);
    // Audience: the token is for /mcp, not the API.
    let api = server
        .send(
            request(Method::GET, "/api/v1/asks")
                .header(header::AUTHORIZATION, format!("Bearer {access}"))
                .body(Body::empty())
                .expect("request"),
        )
        .await;
    assert_eq!(api.status(), StatusCode::UNAUTHORIZED);
    let grants = server.desk.grants(Some("alice")).await.expect("grants");
    assert_eq!(grants.len(), 1);
    assert_eq!(grants[0].agent, "test-client-alice");
    assert!(!grants[0].terms.verified);

    // The refresh token rotates; the old one, again, revokes everything.
    let (status, rotated) = token(
        &server,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", &refresh),
            ("client_id", &client),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{rotated}");
    let new_access = rotated["access_token"].as_str().expect("access");
    assert_eq!(
        mcp(&server, Some(new_access), initialize()).await.status(),
        StatusCode::OK
    );
    let (status, reused) = token(
        &server,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", &refresh),
            ("client_id", &client),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(reused["error"], "invalid_grant");
    assert_eq!(
        mcp(&server, Some(new_access), initialize()).await.status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn a_revoked_grant_or_a_removed_person_ends_the_token_at_once() {
    let (server, alice, bob) = desk().await;
    let client = register(&server, "Test client").await;
    let (alices, _) = connect(&server, &client, &sign_in(&server, &alice).await).await;
    let bobs_cookie = sign_in(&server, &bob).await;
    let (bobs, bobs_refresh) = connect(&server, &client, &bobs_cookie).await;
    // bob cannot disconnect alice's application from his phone page.
    let alices_grant = server.desk.grants(Some("alice")).await.expect("grants")[0]
        .id
        .clone();
    let tried = server
        .send(form(
            "/phone/disconnect",
            &[("id", &alices_grant)],
            Some(&bobs_cookie),
        ))
        .await;
    assert_eq!(tried.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        mcp(&server, Some(&alices), initialize()).await.status(),
        StatusCode::OK
    );
    // Revocation by the client (RFC 7009): always 200, and only its own.
    let revoke = |token: String| {
        request(Method::POST, "/oauth/revoke")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(format!("token={token}")))
            .expect("request")
    };
    assert_eq!(
        server.send(revoke(bobs_refresh)).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        mcp(&server, Some(&bobs), initialize()).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        server.send(revoke("unknown".to_owned())).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        mcp(&server, Some(&alices), initialize()).await.status(),
        StatusCode::OK
    );
    server.desk.remove_person("alice").await.expect("removed");
    assert_eq!(
        mcp(&server, Some(&alices), initialize()).await.status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn only_a_person_signed_in_in_a_browser_is_asked_and_a_bad_request_is_shown_not_sent() {
    let (server, alice, _) = desk().await;
    let client = register(&server, "Test client").await;
    let path = format!("/oauth/authorize?{}", authorize_query(&client));
    let get = |sec_fetch: Option<&str>, cookie: Option<&str>, bearer: Option<&str>| {
        let mut r = request(Method::GET, &path);
        if let Some(site) = sec_fetch {
            r = r.header("sec-fetch-site", site);
        }
        if let Some(cookie) = cookie {
            r = r.header(header::COOKIE, cookie);
        }
        if let Some(token) = bearer {
            r = r.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        r.body(Body::empty()).expect("request")
    };
    // A link holder signs in first, and comes back here; one another site
    // sent goes by this site's own page, to regain its session.
    let link = server.send(get(Some("same-origin"), None, None)).await;
    assert_eq!(link.status(), StatusCode::SEE_OTHER);
    assert!(
        location(&link).starts_with("/signin?next=/oauth/authorize%3F"),
        "{}",
        location(&link)
    );
    let elsewhere = server.send(get(Some("cross-site"), None, None)).await;
    assert!(location(&elsewhere).starts_with("/signin/done?next=/oauth/authorize%3F"));
    // The admin, an agent's token, a person's token without a browser:
    // no one to consent.
    let admin = sign_in(&server, TOKEN).await;
    let (_, agent) = server
        .desk
        .add_person("bot", Role::Agent)
        .await
        .expect("bot");
    for refused in [
        get(None, Some(&admin), None),
        get(None, None, Some(&agent)),
        get(None, None, Some(&alice)),
    ] {
        let response = server.send(refused).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
    }
    // A redirect URI not registered is refused on the page, not followed.
    let cookie = sign_in(&server, &alice).await;
    let evil = path.replace("127.0.0.1%3A4567", "evil.example");
    let shown = server
        .send(
            request(Method::GET, &evil)
                .header(header::COOKIE, &cookie)
                .body(Body::empty())
                .expect("r"),
        )
        .await;
    assert_eq!(shown.status(), StatusCode::BAD_REQUEST);
    assert!(body_text(shown).await.contains("not one of the client"));
    // Plain PKCE goes back to the client as an error.
    let plain = path.replace("S256", "plain");
    let sent = server
        .send(
            request(Method::GET, &plain)
                .header(header::COOKIE, &cookie)
                .body(Body::empty())
                .expect("r"),
        )
        .await;
    assert_eq!(sent.status(), StatusCode::SEE_OTHER);
    assert!(location(&sent).contains("error=invalid_request"));
    // Deny: access_denied, and nothing issued.
    let page = server
        .send(
            request(Method::GET, &path)
                .header(header::COOKIE, &cookie)
                .body(Body::empty())
                .expect("r"),
        )
        .await;
    let mut fields = consent_fields(&body_text(page).await);
    fields.push(("decision".to_owned(), "deny".to_owned()));
    let fields: Vec<(&str, &str)> = fields
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let denied = server
        .send(form("/oauth/authorize", &fields, Some(&cookie)))
        .await;
    assert!(
        location(&denied).contains("error=access_denied"),
        "{}",
        location(&denied)
    );
    // Allow without a session: to sign in first.
    let mut allow: Vec<(&str, &str)> = fields.clone();
    allow.pop();
    allow.push(("decision", "allow"));
    let anonymous = server.send(form("/oauth/authorize", &allow, None)).await;
    assert_eq!(anonymous.status(), StatusCode::SEE_OTHER);
    assert!(location(&anonymous).starts_with("/signin?next=/oauth/authorize"));
    let admins = server
        .send(form("/oauth/authorize", &allow, Some(&admin)))
        .await;
    assert_eq!(admins.status(), StatusCode::FORBIDDEN);
    assert!(server.desk.grants(None).await.expect("grants").is_empty());
}

#[tokio::test]
async fn two_connected_clients_see_only_their_own_asks() {
    let (server, alice, _) = desk().await;
    let cookie = sign_in(&server, &alice).await;
    let first = register(&server, "First").await;
    let second = register(&server, "Second").await;
    let (one, _) = connect(&server, &first, &cookie).await;
    let (two, _) = connect(&server, &second, &cookie).await;
    let made = body_text(mcp(&server, Some(&one), ask_user(Some(1))).await).await;
    let ask_id = ask_id_in(&made);
    assert_eq!(
        read_as_admin(&server, &ask_id).await["askedBy"],
        "first-alice"
    );
    let other = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "await_answer", "arguments": {"askId": ask_id, "waitSeconds": 1}}});
    let refused = body_text(mcp(&server, Some(&two), other.clone()).await).await;
    assert!(refused.contains("\"isError\":true"), "{refused}");
    let own = body_text(mcp(&server, Some(&one), other).await).await;
    assert!(own.contains("pending"), "{own}");
}

#[tokio::test]
async fn a_connectors_call_returns_before_its_hosts_limit_and_the_ask_waits_on() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.expect("store"));
    let mut settings = args(Some(TOKEN));
    settings.oauth.oauth_call_seconds = 1;
    let server = TestServer::configured(store, settings, Assets::default()).await;
    let (_, alice) = server
        .desk
        .add_person("alice", Role::Person)
        .await
        .expect("alice");
    let client = register(&server, "Claude").await;
    let (access, _) = connect(&server, &client, &sign_in(&server, &alice).await).await;
    // No waitSeconds: the agent would wait for ever; the connector's host
    // would not.
    let limit = std::time::Duration::from_secs(30);
    let reply = tokio::time::timeout(limit, async {
        body_text(mcp(&server, Some(&access), ask_user(None)).await).await
    })
    .await
    .expect("the call returns in time");
    assert!(reply.contains("\"status\":\"pending\""), "{reply}");
    assert!(reply.contains("await_answer"), "{reply}");
    let ask_id = ask_id_in(&reply);
    assert_eq!(read_as_admin(&server, &ask_id).await["status"], "pending");
    // An agent with a token of its own is not cut short.
    let (_, bot) = server
        .desk
        .add_person("bot", Role::Agent)
        .await
        .expect("bot");
    let started = std::time::Instant::now();
    let reply = body_text(mcp(&server, Some(&bot), ask_user(Some(3))).await).await;
    assert!(reply.contains("\"status\":\"pending\""), "{reply}");
    assert!(started.elapsed() >= std::time::Duration::from_secs(2));
}

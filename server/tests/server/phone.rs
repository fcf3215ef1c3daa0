//! Signing a phone in: `/phone` makes a one-time link for whoever is
//! signed in; the link signs one device in, once, within ten minutes, to
//! a session like a token's sign-in gives; sessions are listed and ended
//! on the page and by `askdesk people sessions` / `sign-out`.

use crate::common::{args, body_text, TestServer, HOST, TOKEN};
use axum::{
    body::Body,
    http::{header, Request, StatusCode},
    response::Response,
};
use desk::{Grant, LinkRefusal, Opened, SqliteStore, Store, LINK_MS};
use interaction::Role;
use server::http::assets::Assets;
use std::sync::Arc;

/// A desk with the shared token and a person, alice, and her token.
async fn desk_with_alice() -> (TestServer, String) {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.expect("store"));
    let server = TestServer::configured(store, args(Some(TOKEN)), Assets::default()).await;
    let (_, alice) = server
        .desk
        .add_person("alice", Role::Person)
        .await
        .expect("added");
    (server, alice)
}

fn get(path: &str, cookie: Option<&str>) -> Request<Body> {
    let mut request = Request::get(path).header(header::HOST, HOST);
    if let Some(cookie) = cookie {
        request = request.header(header::COOKIE, cookie);
    }
    request.body(Body::empty()).expect("request")
}

/// A form post as a browser sends it from a page of the desk.
fn post(path: &str, fields: &[(&str, &str)], cookie: Option<&str>) -> Request<Body> {
    let mut request = Request::post(path)
        .header(header::HOST, HOST)
        .header(header::ORIGIN, "http://127.0.0.1:3000")
        .header("sec-fetch-site", "same-origin")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    if let Some(cookie) = cookie {
        request = request.header(header::COOKIE, cookie);
    }
    request
        .body(Body::from(
            serde_urlencoded::to_string(fields).expect("form"),
        ))
        .expect("request")
}

/// The whole `Set-Cookie` a response sets.
fn set_cookie(response: &Response) -> String {
    response.headers()[header::SET_COOKIE]
        .to_str()
        .expect("ascii")
        .to_owned()
}

/// The `name=value` of a `Set-Cookie`.
fn pair(set_cookie: &str) -> String {
    set_cookie.split(';').next().expect("pair").to_owned()
}

/// Signs in with `token` on the form: the whole `Set-Cookie`.
async fn sign_in(server: &TestServer, token: &str) -> String {
    let response = server
        .send(post("/signin", &[("token", token)], None))
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    set_cookie(&response)
}

/// The phone page as the browser with `cookie` sees it: its status, and
/// the secret of the link it shows, if any.
async fn phone_page(server: &TestServer, cookie: Option<&str>) -> (StatusCode, String, String) {
    let response = server.send(get("/phone", cookie)).await;
    let status = response.status();
    let html = body_text(response).await;
    let code = html
        .split("/signin/link/")
        .nth(1)
        .map(|rest| rest.chars().take(32).collect())
        .unwrap_or_default();
    (status, html, code)
}

#[tokio::test]
async fn a_phone_link_signs_one_device_in_once_with_the_cookie_signing_in_gives() {
    let (server, alice) = desk_with_alice().await;
    let laptop = sign_in(&server, &alice).await;
    let (status, html, code) = phone_page(&server, Some(&pair(&laptop))).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert_eq!(code.len(), 32, "{html}");
    assert!(code.bytes().all(|b| b.is_ascii_hexdigit()), "{code}");
    assert!(
        html.contains(&format!(
            r#"value="http://127.0.0.1:3000/signin/link/{code}""#
        )),
        "the link to copy, at the public URL: {html}"
    );
    assert!(html.contains(r#"src="data:image/svg+xml,"#), "{html}");
    assert!(html.contains(r#"alt="QR code of the link""#), "{html}");
    assert!(
        html.contains("A phone cannot reach this link"),
        "the public URL is loopback: {html}"
    );
    assert!(html.contains("as alice"), "{html}");
    assert!(!html.contains(".js\""), "no island, no bundle: {html}");
    // Each visit makes a new link.
    let (_, _, again) = phone_page(&server, Some(&pair(&laptop))).await;
    assert_ne!(again, code);

    // Opening it, as a link previewer would, only shows a button.
    let link = format!("/signin/link/{code}");
    for _ in 0..2 {
        let response = server.send(get(&link, None)).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert!(response.headers().get(header::SET_COOKIE).is_none());
        let html = body_text(response).await;
        assert!(html.contains(&format!(r#"action="{link}""#)), "{html}");
        assert!(html.contains("Sign in on this device"), "{html}");
        assert!(html.contains("as alice"), "{html}");
    }

    let phone = server.send(post(&link, &[], None)).await;
    assert_eq!(phone.status(), StatusCode::SEE_OTHER);
    assert_eq!(phone.headers()[header::LOCATION], "/");
    let phone_cookie = set_cookie(&phone);
    // The same cookie as signing in gives: only its value differs.
    let attributes = |cookie: &str| cookie.split_once(';').expect("attributes").1.to_owned();
    assert_eq!(attributes(&phone_cookie), attributes(&laptop));
    assert!(phone_cookie.contains("HttpOnly") && phone_cookie.contains("SameSite=Strict"));
    assert_ne!(pair(&phone_cookie), pair(&laptop));
    assert!(!phone_cookie.contains(&code), "the cookie is not the link");
    let home = server.send(get("/", Some(&pair(&phone_cookie)))).await;
    assert_eq!(home.status(), StatusCode::OK);
    assert!(body_text(home).await.contains("Signed in as alice"));

    // Once only: used, the link signs nothing in.
    let again = server.send(post(&link, &[], None)).await;
    assert_eq!(again.status(), StatusCode::GONE);
    assert!(again.headers().get(header::SET_COOKIE).is_none());
    assert!(body_text(again).await.contains("was used already"));
    assert_eq!(
        server.send(get(&link, None)).await.status(),
        StatusCode::GONE
    );

    // Listed as opened by a link, beside the laptop's.
    let sessions = server.desk.sessions(None).await.expect("sessions");
    let opened: Vec<Opened> = sessions.iter().map(|s| s.opened).collect();
    assert_eq!(opened, [Opened::Link, Opened::Token]);
    let (_, html, _) = phone_page(&server, Some(&pair(&laptop))).await;
    assert!(html.contains("Signed in by a phone link"), "{html}");
    assert!(html.contains("(this device)"), "{html}");
}

#[tokio::test]
async fn an_expired_unknown_or_malformed_link_signs_nothing_in() {
    let (server, _) = desk_with_alice().await;
    let alice = server.desk.people().await.expect("people").remove(0);
    let then = server.desk.now_ms() - LINK_MS - 1;
    let earlier = server.desk.clone().with_clock(Arc::new(move || then));
    let old = earlier
        .open_sign_in_link(&Grant::Person(alice))
        .await
        .expect("link");
    let expired = format!("/signin/link/{}", old.code);
    let cases = [
        (expired.as_str(), StatusCode::GONE, "has expired"),
        (
            "/signin/link/0123456789abcdef0123456789abcdef",
            StatusCode::NOT_FOUND,
            "not a sign-in link",
        ),
        (
            "/signin/link/nonsense",
            StatusCode::NOT_FOUND,
            "not a sign-in link",
        ),
    ];
    for (link, status, says) in cases {
        let shown = server.send(get(link, None)).await;
        assert_eq!(shown.status(), status, "{link}");
        assert!(body_text(shown).await.contains(says), "{link}");
        let used = server.send(post(link, &[], None)).await;
        assert_eq!(used.status(), status, "{link}");
        assert!(used.headers().get(header::SET_COOKIE).is_none(), "{link}");
        assert!(body_text(used).await.contains(says), "{link}");
    }
    assert!(server
        .desk
        .sessions(None)
        .await
        .expect("sessions")
        .is_empty());
    assert_eq!(LinkRefusal::Expired.http_status(), 410);
}

#[tokio::test]
async fn only_someone_signed_in_makes_a_link_and_never_an_agent() {
    let (server, _) = desk_with_alice().await;
    let (_, bot) = server
        .desk
        .add_person("bot", Role::Agent)
        .await
        .expect("added");
    let response = server.send(get("/phone", None)).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[header::LOCATION], "/signin?next=/phone");
    let agent = Request::get("/phone")
        .header(header::HOST, HOST)
        .header(header::AUTHORIZATION, format!("Bearer {bot}"))
        .body(Body::empty())
        .expect("request");
    let response = server.send(agent).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let html = body_text(response).await;
    assert!(!html.contains("/signin/link/"), "{html}");
    assert!(html.contains("agent"), "{html}");
    // Ending a session needs signing in too.
    let response = server
        .send(post("/phone/sign-out", &[("id", "0123456789abcdef")], None))
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert!(response.headers()[header::LOCATION]
        .to_str()
        .expect("ascii")
        .starts_with("/signin"));

    // An open desk needs no sign-in: the code is the desk's own address.
    let open = TestServer::new().await;
    let (status, html, code) = phone_page(&open, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(code.is_empty(), "no link on an open desk: {html}");
    assert!(html.contains("needs no sign-in"), "{html}");
    assert!(html.contains(r#"value="http://127.0.0.1:3000""#), "{html}");
    assert!(html.contains(r#"src="data:image/svg+xml,"#), "{html}");
}

#[tokio::test]
async fn the_shared_tokens_link_signs_in_as_its_holder_and_ends_with_the_token() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.expect("store"));
    let server = TestServer::with_store(store.clone(), Some(TOKEN)).await;
    let admin = sign_in(&server, TOKEN).await;
    let (_, html, code) = phone_page(&server, Some(&pair(&admin))).await;
    assert!(html.contains("the desk's admin"), "{html}");
    let link = format!("/signin/link/{code}");
    let phone = server.send(post(&link, &[], None)).await;
    assert_eq!(phone.status(), StatusCode::SEE_OTHER);
    let home = server
        .send(get("/", Some(&pair(&set_cookie(&phone)))))
        .await;
    assert_eq!(home.status(), StatusCode::OK);

    // The same database served with another token: the old token's links
    // no longer sign in, as its sessions no longer do.
    let (_, _, code) = phone_page(&server, Some(&pair(&admin))).await;
    let link = format!("/signin/link/{code}");
    let renewed = TestServer::with_store(store, Some("another-token-another-token")).await;
    let shown = renewed.send(get(&link, None)).await;
    assert_eq!(shown.status(), StatusCode::NOT_FOUND);
    let used = renewed.send(post(&link, &[], None)).await;
    assert_eq!(used.status(), StatusCode::NOT_FOUND);
    assert!(used.headers().get(header::SET_COOKIE).is_none());
}

#[tokio::test]
async fn a_device_is_signed_out_from_the_page_by_its_own_person_only() {
    let (server, alice) = desk_with_alice().await;
    let (_, bob) = server
        .desk
        .add_person("bob", Role::Person)
        .await
        .expect("added");
    let laptop = pair(&sign_in(&server, &alice).await);
    let (_, _, code) = phone_page(&server, Some(&laptop)).await;
    let phone = server
        .send(post(&format!("/signin/link/{code}"), &[], None))
        .await;
    let phone = pair(&set_cookie(&phone));
    let id = server.desk.sessions(None).await.expect("sessions")[0]
        .id
        .to_string();
    let (_, html, _) = phone_page(&server, Some(&laptop)).await;
    assert!(html.contains(&format!(r#"value="{id}""#)), "{html}");

    // Bob's page lists only his, and his sign-out ends only his.
    let bobs = pair(&sign_in(&server, &bob).await);
    let (_, html, _) = phone_page(&server, Some(&bobs)).await;
    assert!(!html.contains(&id), "{html}");
    let response = server
        .send(post("/phone/sign-out", &[("id", &id)], Some(&bobs)))
        .await;
    assert_eq!(response.headers()[header::LOCATION], "/phone");
    assert_eq!(
        server.send(get("/", Some(&phone))).await.status(),
        StatusCode::OK
    );

    let response = server
        .send(post("/phone/sign-out", &[("id", &id)], Some(&laptop)))
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[header::LOCATION], "/phone");
    let home = server.send(get("/", Some(&phone))).await;
    assert_eq!(home.status(), StatusCode::SEE_OTHER, "signed out");
    assert_eq!(
        server.send(get("/", Some(&laptop))).await.status(),
        StatusCode::OK
    );
}

/// `askdesk people sessions` lists every signed-in browser (never a
/// cookie) and `askdesk people sign-out ID` ends one, beside the desk.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_people_commands_list_sessions_and_sign_one_out() {
    let dir = tempfile::tempdir().expect("tempdir");
    let database = dir.path().join("askdesk.db");
    let store = SqliteStore::open(&database).await.expect("store");
    let desk = desk::Desk::open(Arc::new(store), "http://127.0.0.1:3000")
        .await
        .expect("desk");
    let (alice, _) = desk.add_person("alice", Role::Person).await.expect("added");
    let laptop = desk
        .open_session(&Grant::Person(alice.clone()))
        .await
        .expect("session");
    let link = desk
        .open_sign_in_link(&Grant::Person(alice))
        .await
        .expect("link");
    let (phone, _) = desk
        .use_sign_in_link(&link.code)
        .await
        .expect("used")
        .expect("signed in");
    let admin = desk
        .open_session(&Grant::Admin {
            tag: "tag".to_owned(),
        })
        .await
        .expect("session");
    let people = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_askdesk"))
            .arg("people")
            .args(args)
            .env("ASKDESK_DATABASE", &database)
            .output()
            .expect("askdesk people runs");
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let (ok, listed, said) = people(&["sessions"]);
    assert!(ok, "{said}");
    assert_eq!(listed.lines().count(), 3, "{listed}");
    for cookie in [&laptop, &phone, &admin] {
        assert!(!listed.contains(cookie.as_str()), "{listed}");
    }
    let phone_id = desk::SessionId::of_cookie(&phone).to_string();
    let line = listed
        .lines()
        .find(|line| line.starts_with(&phone_id))
        .unwrap_or_else(|| panic!("{listed}"));
    assert!(line.contains("alice") && line.contains("link"), "{line}");
    assert!(listed.contains("(--token)"), "{listed}");
    let (ok, alices, _) = people(&["sessions", "alice", "--json"]);
    assert!(ok);
    let rows: Vec<serde_json::Value> = alices
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(rows.len(), 2, "{alices}");
    assert_eq!(rows[0]["id"], phone_id.as_str());
    assert_eq!(rows[0]["opened"], "link");
    assert_eq!(rows[1]["opened"], "token");

    let (ok, said, _) = people(&["sign-out", &phone_id]);
    assert!(ok && said.contains(&phone_id), "{said}");
    assert_eq!(desk.session(&phone).await.expect("read"), None);
    assert!(desk.session(&laptop).await.expect("read").is_some());
    let (ok, _, said) = people(&["sign-out", &phone_id]);
    assert!(!ok && said.contains("no signed-in browser"), "{said}");
    let (ok, _, said) = people(&["sign-out", "not-an-id"]);
    assert!(!ok && said.contains("16 hex digits"), "{said}");
}

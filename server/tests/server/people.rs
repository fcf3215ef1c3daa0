//! People and roles over HTTP: each role's calls, revocation, signing in
//! with a person's token, who answered and how on every surface, sign-in
//! required to answer, routing and the per-agent creation limit; and the
//! `askdesk people` commands beside a running server.

use crate::common::{args, body_text, combined_answers, release_ask, TestServer, HOST, TOKEN};
use crate::pages::form_post;
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

/// A desk with the shared token (admin) and four people: an agent, an
/// agent that relays answers given in its host, and two people.
pub(crate) struct Team {
    pub server: TestServer,
    pub agent: String,
    pub relay: String,
    pub alice: String,
    pub bob: String,
}

impl Team {
    pub async fn new(configure: impl FnOnce(&mut server::cli::config::ServeArgs)) -> Self {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().await.expect("store"));
        let mut settings = args(Some(TOKEN));
        configure(&mut settings);
        let server = TestServer::configured(store, settings, Assets::default()).await;
        let add = |name: &'static str, role| {
            let desk = server.desk.clone();
            async move { desk.add_person(name, role).await.expect("added").1 }
        };
        let agent = add("bot", Role::Agent).await;
        let alice = add("alice", Role::Person).await;
        let bob = add("bob", Role::Person).await;
        let relay = server
            .desk
            .add_person_with(
                "relay",
                Role::Agent,
                desk::Joining {
                    relays_answers: true,
                    ..Default::default()
                },
            )
            .await
            .expect("added")
            .1;
        Self {
            server,
            agent,
            relay,
            alice,
            bob,
        }
    }

    pub async fn pending(&self, body: Value) -> String {
        self.pending_by(TOKEN, body).await
    }

    /// An ask made with `token`: the agent whose token it is may act on it
    /// as its asker, and no other agent finds it.
    pub async fn pending_by(&self, token: &str, body: Value) -> String {
        let (status, created) = call(
            &self.server,
            Method::POST,
            "/api/v1/asks",
            Some(token),
            Some(body),
            &[],
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        created["id"].as_str().expect("id").to_owned()
    }

    pub async fn ask(&self, id: &str) -> Value {
        call(
            &self.server,
            Method::GET,
            &format!("/api/v1/asks/{id}"),
            Some(TOKEN),
            None,
            &[],
        )
        .await
        .1
    }
}

pub(crate) fn request(
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
    headers: &[(&str, &str)],
) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST)
        .header(header::ACCEPT, "application/json, text/event-stream");
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let body = match body {
        Some(value) => {
            request = request.header(header::CONTENT_TYPE, "application/json");
            Body::from(value.to_string())
        }
        None => Body::empty(),
    };
    request.body(body).expect("request")
}

pub(crate) async fn call(
    server: &TestServer,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
    headers: &[(&str, &str)],
) -> (StatusCode, Value) {
    let response = server
        .send(request(method, path, token, body, headers))
        .await;
    let status = response.status();
    let text = body_text(response).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn sign_in_form(token: &str, next: Option<&str>) -> Request<Body> {
    let mut fields = vec![("token", token)];
    if let Some(next) = next {
        fields.push(("next", next));
    }
    Request::post("/signin")
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(
            serde_urlencoded::to_string(fields).expect("form"),
        ))
        .expect("request")
}

/// The `name=value` of the session cookie a sign-in set.
fn session_of(response: &Response) -> String {
    let cookie = response.headers()[header::SET_COOKIE]
        .to_str()
        .expect("ascii");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    cookie.split(';').next().expect("pair").to_owned()
}

pub(crate) async fn sign_in(server: &TestServer, token: &str) -> String {
    let response = server.send(sign_in_form(token, None)).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    session_of(&response)
}

pub(crate) fn with_cookie(mut request: Request<Body>, cookie: &str) -> Request<Body> {
    request
        .headers_mut()
        .insert(header::COOKIE, cookie.parse().expect("cookie"));
    request
}

/// The form fields of [`combined_answers`].
pub(crate) const FORM_ANSWERS: [(&str, &str); 5] = [
    ("answer.features", "Auth"),
    ("answer.db", "SQLite"),
    ("other.notes", "Ship it"),
    ("reason", ""),
    ("intent", "answer"),
];

pub(crate) fn rpc_answer(id: &str) -> Request<Body> {
    Request::post("/rpc/ask_answer")
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(
            json!({"id": id, "answers": combined_answers()}).to_string(),
        ))
        .expect("request")
}

/// Who may make which call, by role: every call the API and MCP take, with
/// the status each role gets. A refused change leaves the ask pending.
#[tokio::test]
async fn each_role_gets_its_calls_and_is_refused_the_others() {
    let team = Team::new(|_| {}).await;
    let who: [(&str, Option<&str>); 5] = [
        ("admin", Some(TOKEN)),
        ("agent", Some(&team.agent)),
        ("person", Some(&team.alice)),
        ("nobody", None),
        (
            "forged",
            Some("askd_0000000000000000000000000000000000000000"),
        ),
    ];
    const OK: u16 = 200;
    // call: (admin, agent, person, nobody, forged)
    let table: [(&str, [u16; 5]); 8] = [
        ("create", [201, 201, 403, 401, 401]),
        ("list", [OK, OK, OK, 401, 401]),
        ("read", [OK, OK, OK, 401, 401]),
        ("wait", [OK, OK, OK, 401, 401]),
        ("answer", [OK, 403, OK, 401, 401]),
        ("decline", [OK, 403, OK, 401, 401]),
        ("cancel", [OK, OK, 403, 401, 401]),
        ("mcp", [OK, OK, 403, 401, 401]),
    ];
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"}}});
    for (call_name, statuses) in table {
        for ((role, token), expected) in who.iter().zip(statuses) {
            // An agent acts on its own asks (another's it does not find).
            let id = match (*role, token) {
                ("agent", Some(token)) => team.pending_by(token, release_ask()).await,
                _ => team.pending(release_ask()).await,
            };
            let (method, path, body) = match call_name {
                "create" => (Method::POST, "/api/v1/asks".to_owned(), Some(release_ask())),
                "list" => (Method::GET, "/api/v1/asks?status=pending".to_owned(), None),
                "read" => (Method::GET, format!("/api/v1/asks/{id}"), None),
                "wait" => (Method::GET, format!("/api/v1/asks/{id}?wait=0"), None),
                "answer" => (
                    Method::POST,
                    format!("/api/v1/asks/{id}/answers"),
                    Some(combined_answers()),
                ),
                "decline" => (Method::POST, format!("/api/v1/asks/{id}/decline"), None),
                "cancel" => (Method::DELETE, format!("/api/v1/asks/{id}"), None),
                _ => (Method::POST, "/mcp".to_owned(), Some(initialize.clone())),
            };
            let (status, body) = call(&team.server, method, &path, *token, body, &[]).await;
            assert_eq!(status.as_u16(), expected, "{role} {call_name}: {body}");
            if !status.is_success() {
                assert!(
                    body["message"].is_string(),
                    "{role} {call_name}: a JSON refusal"
                );
                assert_eq!(
                    team.ask(&id).await["status"],
                    "pending",
                    "{role} {call_name}"
                );
            }
        }
    }
}

/// A browser's push subscription is the people's, not the agents'. The
/// role is checked before the body: a person's bad keys get 422, an
/// agent's 403.
#[tokio::test]
async fn agents_cannot_subscribe_a_browser_to_pushes() {
    let team =
        Team::new(|settings| settings.web_push = Some("mailto:desk@example.com".to_owned())).await;
    let subscription = json!({"endpoint": "https://push.example/abc", "expirationTime": null,
        "keys": {"p256dh": "AAAA", "auth": "AAAA"}});
    let subscribe = |token: Option<String>| {
        let server = &team.server;
        let body = subscription.clone();
        async move {
            call(
                server,
                Method::POST,
                "/api/v1/push/subscriptions",
                token.as_deref(),
                Some(body),
                &[],
            )
            .await
        }
    };
    let (status, body) = subscribe(Some(team.agent.clone())).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(body["message"].as_str().expect("message").contains("agent"));
    assert_eq!(
        subscribe(Some(team.alice.clone())).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        subscribe(Some(TOKEN.to_owned())).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(subscribe(None).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_removed_person_is_refused_at_their_next_request_token_and_session_alike() {
    let team = Team::new(|_| {}).await;
    let cookie = sign_in(&team.server, &team.alice).await;
    let list = |token: Option<String>| {
        let server = &team.server;
        async move {
            call(
                server,
                Method::GET,
                "/api/v1/asks",
                token.as_deref(),
                None,
                &[],
            )
            .await
        }
    };
    assert_eq!(list(Some(team.alice.clone())).await.0, StatusCode::OK);
    let home = || with_cookie(request(Method::GET, "/", None, None, &[]), &cookie);
    assert_eq!(team.server.send(home()).await.status(), StatusCode::OK);

    assert!(team
        .server
        .desk
        .remove_person("alice")
        .await
        .expect("removed"));
    let (status, body) = list(Some(team.alice.clone())).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert!(body["message"].as_str().expect("message").contains("token"));
    let response = team.server.send(home()).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[header::LOCATION], "/signin");
    // The others are untouched.
    assert_eq!(list(Some(team.bob.clone())).await.0, StatusCode::OK);
}

/// A long-poll's caller is checked again when its wait ends (guard::Recheck):
/// an agent removed while it waited is refused, not handed the answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_removed_while_it_waits_is_refused_when_the_wait_ends() {
    let team = Team::new(|_| {}).await;
    let id = team.pending_by(&team.agent, release_ask()).await;
    let path = format!("/api/v1/asks/{id}?wait=60");
    let waiting = call(
        &team.server,
        Method::GET,
        &path,
        Some(&team.agent),
        None,
        &[],
    );
    let meanwhile = async {
        // The wait is under way by then.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert!(team
            .server
            .desk
            .remove_person("bot")
            .await
            .expect("removed"));
        let answers = format!("/api/v1/asks/{id}/answers");
        let (status, body) = call(
            &team.server,
            Method::POST,
            &answers,
            Some(TOKEN),
            Some(combined_answers()),
            &[],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    };
    let ((status, body), ()) = tokio::join!(waiting, meanwhile);
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert!(body.get("answers").is_none(), "{body}");
    assert_eq!(team.ask(&id).await["status"], "answered");
}

#[tokio::test]
async fn a_person_signs_in_with_their_token_to_a_fresh_session_and_out_again() {
    let team = Team::new(|_| {}).await;
    let first = sign_in(&team.server, &team.alice).await;
    let second = sign_in(&team.server, &team.alice).await;
    assert_ne!(first, second, "every sign-in gets a cookie of its own");
    assert!(!first.contains(&team.alice));
    let home = |cookie: &str| with_cookie(request(Method::GET, "/", None, None, &[]), cookie);
    let page = team.server.send(home(&first)).await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = body_text(page).await;
    assert!(html.contains("Signed in as alice"), "{html}");
    assert!(html.contains(r#"action="/signout""#));

    let out = team
        .server
        .send(with_cookie(
            Request::post("/signout")
                .header(header::HOST, HOST)
                .body(Body::empty())
                .expect("request"),
            &first,
        ))
        .await;
    assert_eq!(out.status(), StatusCode::SEE_OTHER);
    assert!(out.headers()[header::SET_COOKIE]
        .to_str()
        .expect("ascii")
        .contains("Max-Age=0"));
    assert_eq!(
        team.server.send(home(&first)).await.status(),
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        team.server.send(home(&second)).await.status(),
        StatusCode::OK
    );

    // Agents use the API, not the pages.
    let agent = team.server.send(sign_in_form(&team.agent, None)).await;
    assert_eq!(agent.headers()[header::LOCATION], "/signin?failed=agent");
    assert!(agent.headers().get(header::SET_COOKIE).is_none());
    // Back to where signing in was asked for, on this server only.
    let to_ask = team
        .server
        .send(sign_in_form(&team.bob, Some("/asks/abc")))
        .await;
    assert_eq!(to_ask.headers()[header::LOCATION], "/asks/abc");
    let away = team
        .server
        .send(sign_in_form(&team.bob, Some("//evil.example/x")))
        .await;
    assert_eq!(away.headers()[header::LOCATION], "/");
    // The shared token signs in too, as an admin.
    let admin = sign_in(&team.server, TOKEN).await;
    assert_eq!(
        team.server.send(home(&admin)).await.status(),
        StatusCode::OK
    );
}

/// Every surface that answers over HTTP records who and how; what the body
/// says of it is refused, not taken.
#[tokio::test]
async fn every_finish_says_who_and_through_what() {
    let team = Team::new(|_| {}).await;
    let server = &team.server;
    let alice_session = sign_in(server, &team.alice).await;
    let answers_path = |id: &str| format!("/api/v1/asks/{id}/answers");
    let mut seen = Vec::new();
    let mut record = |label: &str, ask: Value| {
        seen.push((
            label.to_owned(),
            ask["answeredBy"].clone(),
            ask["relayedBy"].clone(),
            ask["via"].clone(),
        ));
    };

    let id = team.pending(release_ask()).await;
    call(
        server,
        Method::POST,
        &answers_path(&id),
        Some(&team.alice),
        Some(combined_answers()),
        &[],
    )
    .await;
    record("alice by API", team.ask(&id).await);

    let id = team.pending(release_ask()).await;
    call(
        server,
        Method::POST,
        &answers_path(&id),
        Some(&team.bob),
        Some(combined_answers()),
        &[("x-askdesk-via", "tui")],
    )
    .await;
    record("bob in the terminal", team.ask(&id).await);

    let id = team.pending(release_ask()).await;
    let posted = server
        .send(with_cookie(form_post(&id, &FORM_ANSWERS), &alice_session))
        .await;
    assert_eq!(posted.status(), StatusCode::SEE_OTHER);
    record("alice's form", team.ask(&id).await);

    let id = team.pending(release_ask()).await;
    let answered = server
        .send(with_cookie(rpc_answer(&id), &alice_session))
        .await;
    assert_eq!(
        answered.status(),
        StatusCode::OK,
        "{}",
        body_text(answered).await
    );
    record("alice's page", team.ask(&id).await);

    let id = team.pending(release_ask()).await;
    call(
        server,
        Method::POST,
        &answers_path(&id),
        Some(TOKEN),
        Some(combined_answers()),
        &[],
    )
    .await;
    record("the shared token", team.ask(&id).await);

    let id = team.pending_by(&team.agent, release_ask()).await;
    call(
        server,
        Method::DELETE,
        &format!("/api/v1/asks/{id}"),
        Some(&team.agent),
        None,
        &[],
    )
    .await;
    record("the agent cancels", team.ask(&id).await);

    let id = team.pending_by(&team.relay, release_ask()).await;
    let (status, _) = call(
        server,
        Method::POST,
        &format!("/api/v1/asks/{id}/decline"),
        Some(&team.relay),
        None,
        &[("x-askdesk-via", "mcp-client")],
    )
    .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "a relaying agent's client reports its person's decline"
    );
    record("the agent's client", team.ask(&id).await);

    let yes_no = json!({"questions": [{"id": "go", "question": "Ship?",
        "options": [{"label": "Yes"}, {"label": "No"}]}]});
    let id = team.pending(yes_no).await;
    let ask: interaction::Ask = serde_json::from_value(team.ask(&id).await).expect("ask");
    let (label, token) = server.desk.actions(&ask, 3, interaction::Via::Ntfy)[0].clone();
    let (status, _) = call(
        server,
        Method::POST,
        &format!("/api/v1/actions/{id}"),
        None,
        Some(json!({"label": label, "token": token})),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    record("an ntfy button", team.ask(&id).await);

    let id = team.pending(release_ask()).await;
    assert_eq!(team.ask(&id).await["answeredBy"], Value::Null, "pending");
    let mut forged = combined_answers();
    forged["answeredBy"] = json!("mallory");
    forged["via"] = json!("slack");
    let (status, body) = call(
        server,
        Method::POST,
        &answers_path(&id),
        Some(&team.alice),
        Some(forged),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(team.ask(&id).await["status"], "pending");

    let none = Value::Null;
    let expected = [
        ("alice by API", json!("alice"), none.clone(), json!("api")),
        (
            "bob in the terminal",
            json!("bob"),
            none.clone(),
            json!("tui"),
        ),
        ("alice's form", json!("alice"), none.clone(), json!("form")),
        ("alice's page", json!("alice"), none.clone(), json!("web")),
        ("the shared token", none.clone(), none.clone(), json!("api")),
        (
            "the agent cancels",
            json!("bot"),
            none.clone(),
            json!("api"),
        ),
        (
            "the agent's client",
            none.clone(),
            json!("relay"),
            json!("mcp-client"),
        ),
        ("an ntfy button", none.clone(), none.clone(), json!("ntfy")),
    ];
    let expected: Vec<(String, Value, Value, Value)> = expected
        .into_iter()
        .map(|(l, b, r, v)| (l.to_owned(), b, r, v))
        .collect();
    assert_eq!(seen, expected);

    // The page says it.
    let (_, html) = server
        .get_page(&format!("/asks/{}", team.pending(release_ask()).await))
        .await;
    assert!(!html.contains("finished-by"), "nothing said while pending");
    let id = team.pending(release_ask()).await;
    call(
        server,
        Method::POST,
        &answers_path(&id),
        Some(&team.bob),
        Some(combined_answers()),
        &[("x-askdesk-via", "tui")],
    )
    .await;
    let (_, html) = server.get_page(&format!("/asks/{id}")).await;
    assert!(html.contains("Answered by bob in the terminal."), "{html}");
}

#[tokio::test]
async fn with_sign_in_required_only_signed_in_people_it_is_for_and_admins_answer() {
    let team = Team::new(|settings| settings.answer_requires_sign_in = true).await;
    let server = &team.server;
    let for_alice = json!({"to": ["alice"], "questions": release_ask()["questions"]});
    // Made by the agent, so that its token is refused as the asker's.
    let id = team.pending_by(&team.agent, for_alice.clone()).await;

    // The link alone: the page shows the questions and a way to sign in,
    // with no form and no script; its posts are refused, changing nothing.
    let (status, html) = server.get_page(&format!("/asks/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Sign in to answer"), "{html}");
    assert!(html.contains(&format!("/signin?next=/asks/{id}")), "{html}");
    assert!(html.contains("Which features should ship?"));
    assert!(!html.contains("id=\"pending-ask\""), "{html}");
    assert!(!html.contains("/pkg/ask."), "no island for a reader");
    let posted = server.send(form_post(&id, &FORM_ANSWERS)).await;
    assert_eq!(posted.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        posted.headers()[header::LOCATION],
        format!("/signin?next=/asks/{id}")
    );
    let answered = server.send(rpc_answer(&id)).await;
    assert_eq!(answered.status(), StatusCode::FORBIDDEN);
    assert_eq!(team.ask(&id).await["status"], "pending");

    // An agent's token, and its client, may not answer.
    let answers = format!("/api/v1/asks/{id}/answers");
    let (status, body) = call(
        server,
        Method::POST,
        &answers,
        Some(&team.agent),
        Some(combined_answers()),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(
        body["message"]
            .as_str()
            .expect("message")
            .contains("own question"),
        "{body}"
    );
    let (status, _) = call(
        server,
        Method::POST,
        &answers,
        Some(&team.agent),
        Some(combined_answers()),
        &[("x-askdesk-via", "mcp-client")],
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Nor may a person it is not for, signed in or by token.
    let (status, body) = call(
        server,
        Method::POST,
        &answers,
        Some(&team.bob),
        Some(combined_answers()),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(
        body["message"].as_str().expect("message").contains("alice"),
        "{body}"
    );
    let bob = sign_in(server, &team.bob).await;
    let page = server
        .send(with_cookie(
            request(Method::GET, &format!("/asks/{id}"), None, None, &[]),
            &bob,
        ))
        .await;
    let html = body_text(page).await;
    assert!(
        html.contains("only they or an admin may answer it"),
        "{html}"
    );
    // Bob's plain form post is refused with the same page, changing nothing.
    let posted = server
        .send(with_cookie(form_post(&id, &FORM_ANSWERS), &bob))
        .await;
    assert_eq!(posted.status(), StatusCode::FORBIDDEN);
    let html = body_text(posted).await;
    assert!(
        html.contains("only they or an admin may answer it"),
        "{html}"
    );
    assert_eq!(team.ask(&id).await["status"], "pending");

    // Alice may, signed in on the page.
    let alice = sign_in(server, &team.alice).await;
    let page = server
        .send(with_cookie(
            request(Method::GET, &format!("/asks/{id}"), None, None, &[]),
            &alice,
        ))
        .await;
    let html = body_text(page).await;
    assert!(html.contains("id=\"pending-ask\""), "{html}");
    let posted = server
        .send(with_cookie(form_post(&id, &FORM_ANSWERS), &alice))
        .await;
    assert_eq!(posted.status(), StatusCode::SEE_OTHER);
    let ask = team.ask(&id).await;
    assert_eq!(
        (&ask["answeredBy"], &ask["via"]),
        (&json!("alice"), &json!("form"))
    );

    // An admin answers whatever the ask is for; anyone signed in answers
    // an ask for anyone.
    let id = team.pending(for_alice).await;
    let (status, _) = call(
        server,
        Method::POST,
        &format!("/api/v1/asks/{id}/answers"),
        Some(TOKEN),
        Some(combined_answers()),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let id = team.pending(release_ask()).await;
    let (status, _) = call(
        server,
        Method::POST,
        &format!("/api/v1/asks/{id}/decline"),
        Some(&team.bob),
        None,
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    // Notifications carry no buttons: a button is a link's capability.
    let yes_no = json!({"questions": [{"id": "go", "question": "Ship?",
        "options": [{"label": "Yes"}, {"label": "No"}]}]});
    let id = team.pending(yes_no).await;
    let ask: interaction::Ask = serde_json::from_value(team.ask(&id).await).expect("ask");
    assert!(server
        .desk
        .actions(&ask, 3, interaction::Via::Ntfy)
        .is_empty());
}

#[tokio::test]
async fn an_ask_names_people_of_the_desk_and_the_desk_shows_theirs_first() {
    let team = Team::new(|_| {}).await;
    let server = &team.server;
    let questions = release_ask()["questions"].clone();
    let (status, body) = call(
        server,
        Method::POST,
        "/api/v1/asks",
        Some(&team.agent),
        Some(json!({"to": ["alice", "carol"], "questions": questions})),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["problems"][0]["path"], "to[1]");
    assert_eq!(body["problems"][0]["code"], "unknown_recipient");
    let (_, list) = call(server, Method::GET, "/api/v1/asks", Some(TOKEN), None, &[]).await;
    assert_eq!(list["asks"], json!([]), "nothing stored");

    let titled = |title: &str, to: Value| json!({"title": title, "to": to, "questions": questions});
    team.pending(titled("For bob", json!(["bob"]))).await;
    let for_alice = team
        .pending(titled("For alice", json!(["alice", "bob"])))
        .await;
    team.pending(titled("For anyone", json!([]))).await;
    let ask = team.ask(&for_alice).await;
    assert_eq!(ask["to"], json!(["alice", "bob"]));
    let alice = sign_in(server, &team.alice).await;
    let html = body_text(
        server
            .send(with_cookie(
                request(Method::GET, "/", None, None, &[]),
                &alice,
            ))
            .await,
    )
    .await;
    // Where each is listed (the island's props, earlier, hold them too).
    let list = &html[html.find(r#"id="pending""#).expect("the list")..];
    let at = |text: &str| {
        list.find(text)
            .unwrap_or_else(|| panic!("{text} in {list}"))
    };
    assert!(
        at("For alice") < at("For anyone") && at("For anyone") < at("For bob"),
        "{html}"
    );
    assert_eq!(html.matches(r#"class="for-you""#).count(), 1, "{html}");
    let (_, page) = server.get_page(&format!("/asks/{for_alice}")).await;
    assert!(page.contains("for alice, bob"), "{page}");
}

#[tokio::test]
async fn each_agent_creates_at_most_its_limit_a_minute() {
    let team = Team::new(|settings| settings.create_limit = Some(2)).await;
    let server = &team.server;
    let create = |token: String| async move {
        call(
            server,
            Method::POST,
            "/api/v1/asks",
            Some(&token),
            Some(release_ask()),
            &[],
        )
        .await
    };
    assert_eq!(create(team.agent.clone()).await.0, StatusCode::CREATED);
    assert_eq!(create(team.agent.clone()).await.0, StatusCode::CREATED);
    let response = server
        .send(request(
            Method::POST,
            "/api/v1/asks",
            Some(&team.agent),
            Some(release_ask()),
            &[],
        ))
        .await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = response.headers()[header::RETRY_AFTER]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("seconds");
    assert!((1..=60).contains(&wait), "{wait}");
    let body: Value = serde_json::from_str(&body_text(response).await).expect("json");
    assert!(body["message"]
        .as_str()
        .expect("message")
        .contains("--create-limit"));
    // Another agent (the shared token's holder) has its own count.
    assert_eq!(create(TOKEN.to_owned()).await.0, StatusCode::CREATED);
    let (_, list) = call(server, Method::GET, "/api/v1/asks", Some(TOKEN), None, &[]).await;
    assert_eq!(
        list["asks"].as_array().expect("asks").len(),
        3,
        "nothing stored when refused"
    );
}

#[tokio::test]
async fn a_desk_with_people_and_no_shared_token_needs_a_token() {
    let server = TestServer::new().await;
    assert_eq!(
        server.json(Method::GET, "/api/v1/asks", None).await.0,
        StatusCode::OK
    );
    let (_, token) = server
        .desk
        .add_person("alice", Role::Admin)
        .await
        .expect("added");
    // Within a second of the first person, the desk is closed.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(
        server.json(Method::GET, "/api/v1/asks", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, _) = call(
        &server,
        Method::GET,
        "/api/v1/asks",
        Some(&token),
        None,
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

/// `askdesk people` on the SQLite file a running server uses: the token it
/// prints works at once, the list never shows it, and a removal closes the
/// next request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_people_commands_work_beside_a_running_server_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let database = dir.path().join("askdesk.db");
    people_commands_beside_a_server(database.display().to_string()).await;
}

/// The same on PostgreSQL, where the server is one of several instances.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_people_commands_work_beside_a_running_server_on_postgres() {
    people_commands_beside_a_server(crate::database::postgres_url().await).await;
}

async fn people_commands_beside_a_server(database: String) {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_askdesk"));
    command
        .args(["--token", TOKEN, "--database", &database])
        .stderr(std::process::Stdio::null());
    let (_server, url) = crate::notify::spawned(command).await;
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
    let (ok, token, said) = people(&["add", "ci-bot", "--role", "agent"]);
    assert!(ok, "{said}");
    let token = token.trim().to_owned();
    assert!(token.starts_with("askd_") && token.len() == 45, "{token}");
    assert!(said.contains("shown this once"), "{said}");
    let (ok, _, said) = people(&["add", "ci-bot"]);
    assert!(!ok && said.contains("already"), "{said}");
    let (ok, _, said) = people(&["add", "no one"]);
    assert!(!ok && said.contains("not a person's name"), "{said}");
    let (ok, _, said) = people(&["add", "x", "--role", "root"]);
    assert!(!ok && said.contains("agent, person or admin"), "{said}");

    let http = reqwest::Client::new();
    let create = |token: String| {
        http.post(format!("{url}/api/v1/asks"))
            .bearer_auth(token)
            .json(&release_ask())
            .send()
    };
    assert_eq!(create(token.clone()).await.expect("reply").status(), 201);

    let (ok, listed, _) = people(&["list"]);
    assert!(
        ok && listed.contains("ci-bot") && listed.contains("agent"),
        "{listed}"
    );
    assert!(!listed.contains("askd_"), "{listed}");
    // `--database` before the command's name works too.
    let before = std::process::Command::new(env!("CARGO_BIN_EXE_askdesk"))
        .args(["--database", &database, "people", "list"])
        .env_remove("ASKDESK_DATABASE")
        .output()
        .expect("askdesk people runs");
    assert!(String::from_utf8_lossy(&before.stdout).contains("ci-bot"));
    let (ok, json_lines, _) = people(&["list", "--json"]);
    assert!(ok);
    let line: Value = serde_json::from_str(json_lines.trim()).expect("one JSON line");
    assert_eq!(
        (&line["name"], &line["role"]),
        (&json!("ci-bot"), &json!("agent"))
    );

    // A person signs in with the identity provider by their email: one
    // person's each, changed and cleared beside the running server.
    let (ok, _, said) = people(&["add", "alice", "--email", "Alice@Example.com"]);
    assert!(
        ok && said.contains("signs in as alice@example.com"),
        "{said}"
    );
    let (ok, _, said) = people(&["add", "mallory", "--email", "alice@example.com"]);
    assert!(
        !ok && said.contains("alice@example.com is the email address of alice"),
        "{said}"
    );
    let (ok, _, said) = people(&["add", "bob", "--email", "bob"]);
    assert!(!ok && said.contains("not an email address"), "{said}");
    let (ok, listed, _) = people(&["list", "--json"]);
    assert!(
        ok && listed.contains(r#""email":"alice@example.com""#),
        "{listed}"
    );
    let (ok, said, _) = people(&["edit", "alice", "--email", "a.smith@example.com"]);
    assert!(ok && said.contains("as a.smith@example.com"), "{said}");
    let (ok, said, _) = people(&["edit", "alice", "--no-email"]);
    assert!(ok && said.contains("token only"), "{said}");
    let (ok, _, said) = people(&["edit", "alice"]);
    assert!(!ok && said.contains("--email"), "{said}");
    let (ok, listed, _) = people(&["list"]);
    assert!(ok && !listed.contains("example.com"), "{listed}");

    let (ok, said, _) = people(&["remove", "ci-bot"]);
    assert!(ok, "{said}");
    assert_eq!(create(token).await.expect("reply").status(), 401);
    let (ok, _, said) = people(&["remove", "ci-bot"]);
    assert!(!ok && said.contains("nobody named"), "{said}");
}

/// The typed client names its surface: the terminal UI's answers are
/// recorded as answered in the terminal, by the person whose token it has.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_terminal_uis_client_answers_as_the_terminal() {
    let mut settings = args(Some(TOKEN));
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    let shutdown = tokio_util::sync::CancellationToken::new();
    let started = crate::common::start(&settings, shutdown.clone())
        .await
        .expect("server");
    let (_, token) = started
        .desk
        .add_person("alice", Role::Person)
        .await
        .expect("added");
    let url = format!("http://{}", started.addr);
    let agent = client::Client::builder(&url)
        .token(Some(TOKEN.to_owned()))
        .build()
        .expect("client");
    let terminal = client::Client::builder(&url)
        .token(Some(token))
        .via(Some(interaction::Via::Tui))
        .build()
        .expect("client");
    let new: interaction::NewAsk = serde_json::from_value(release_ask()).expect("ask");
    let created = agent.create(&new).await.expect("created");
    let answers: interaction::Answers =
        serde_json::from_value(combined_answers()).expect("answers");
    let answered = terminal
        .answer(&created.id, &answers)
        .await
        .expect("answered");
    assert_eq!(answered.answered_by.as_deref(), Some("alice"));
    assert_eq!(answered.via, Some(interaction::Via::Tui));
    shutdown.cancel();
}

//! Messages into an agent's session over HTTP: the person writes on an
//! ask (the API, and the page's plain form), the agent's token reads the
//! session's messages in order and waits for the next; who may do which.

use crate::common::{body_text, release_ask, HOST, TOKEN};
use crate::people::{call, sign_in, with_cookie, Team};
use axum::{
    body::Body,
    http::{header, Method, Request, StatusCode},
};
use serde_json::{json, Value};

fn in_session(session: &str) -> Value {
    let mut ask = release_ask();
    ask["session"] = json!(session);
    ask
}

fn message_form(id: &str, text: &str) -> Request<Body> {
    crate::pages::form_to(&format!("/asks/{id}/messages"), &[("text", text)])
}

#[tokio::test]
async fn a_person_writes_on_an_ask_and_its_session_reads_in_order_and_waits_for_the_next() {
    let team = Team::new(|_| {}).await;
    let server = &team.server;
    let id = team.pending_by(&team.agent, in_session("work-1")).await;
    assert_eq!(team.ask(&id).await["session"], "work-1");
    let path = format!("/api/v1/asks/{id}/messages");
    let read = "/api/v1/sessions/work-1/messages";

    // The agent waits for the next message; alice writes one.
    let waiting = {
        let server = server.router.clone();
        let agent = team.agent.clone();
        tokio::spawn(async move {
            let request = crate::people::request(
                Method::GET,
                &format!("{read}?after=0&wait=60"),
                Some(&agent),
                None,
                &[],
            );
            let response = tower::ServiceExt::oneshot(server, request)
                .await
                .expect("response");
            (response.status(), body_text(response).await)
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let message = json!({"text": " Use the staging database. "});
    let (status, sent) = call(
        server,
        Method::POST,
        &path,
        Some(&team.alice),
        Some(message),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{sent}");
    assert_eq!(
        (sent["text"].as_str(), sent["from"].as_str()),
        (Some("Use the staging database."), Some("alice"))
    );
    let (status, text) = tokio::time::timeout(std::time::Duration::from_secs(30), waiting)
        .await
        .expect("woke before the 30 s guard")
        .expect("task");
    assert_eq!(status, StatusCode::OK, "{text}");
    let woke: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(woke["messages"][0]["text"], "Use the staging database.");
    assert_eq!(woke["messages"][0]["ask"], id.as_str());

    // Reading after the last one read gives only the new one.
    let (status, _) = call(
        server,
        Method::POST,
        &path,
        Some(TOKEN),
        Some(json!({"text": "Then stop."})),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let after = woke["last"].as_u64().expect("last");
    let (status, next) = call(
        server,
        Method::GET,
        &format!("{read}?after={after}"),
        Some(&team.agent),
        None,
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let texts: Vec<_> = next["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["text"].clone())
        .collect();
    assert_eq!(texts, [json!("Then stop.")]);
}

#[tokio::test]
async fn who_may_write_and_read_and_what_is_refused_stores_nothing() {
    let team = Team::new(|_| {}).await;
    let server = &team.server;
    let id = team.pending_by(&team.agent, in_session("work-2")).await;
    let silent = team.pending(release_ask()).await;
    let write = |id: &str| format!("/api/v1/asks/{id}/messages");
    let cases = [
        // The agent cannot write into a session; the person cannot read it.
        (
            write(&id),
            Some(team.agent.as_str()),
            json!({"text": "hi"}),
            StatusCode::FORBIDDEN,
        ),
        // An ask whose agent reads no messages.
        (
            write(&silent),
            Some(team.alice.as_str()),
            json!({"text": "hi"}),
            StatusCode::CONFLICT,
        ),
        // Blank, a wrong shape, no token.
        (
            write(&id),
            Some(team.alice.as_str()),
            json!({"text": "  "}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            write(&id),
            Some(team.alice.as_str()),
            json!({"txt": "hi"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            write(&id),
            None,
            json!({"text": "hi"}),
            StatusCode::UNAUTHORIZED,
        ),
    ];
    for (path, token, body, expected) in cases {
        let (status, error) =
            call(server, Method::POST, &path, token, Some(body.clone()), &[]).await;
        assert_eq!(status, expected, "{body} {error}");
        assert!(
            error["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{error}"
        );
    }
    let (status, error) = call(
        server,
        Method::POST,
        &write(&id),
        Some(&team.alice),
        Some(json!({"text": ""})),
        &[],
    )
    .await;
    assert_eq!(
        (status, error["problems"][0]["code"].clone()),
        (StatusCode::UNPROCESSABLE_ENTITY, json!("empty_message"))
    );
    let read = "/api/v1/sessions/work-2/messages";
    let (status, _) = call(server, Method::GET, read, Some(&team.alice), None, &[]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, read) = call(server, Method::GET, read, Some(&team.agent), None, &[]).await;
    assert_eq!(
        (status, read["messages"].clone(), read["last"].clone()),
        (StatusCode::OK, json!([]), json!(0))
    );
    // A session nobody named is no agent's: the admin reads nothing there,
    // an agent does not find it.
    let unknown = "/api/v1/sessions/unknown/messages";
    let (status, _) = call(server, Method::GET, unknown, Some(TOKEN), None, &[]).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "a name no session has yet reads nothing"
    );
    let (status, _) = call(server, Method::GET, unknown, Some(&team.agent), None, &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let malformed = "/api/v1/sessions/not%20one/messages";
    let (status, _) = call(server, Method::GET, malformed, Some(&team.agent), None, &[]).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "a name that is no session's name"
    );
}

#[tokio::test]
async fn the_page_offers_the_box_only_for_a_session_and_its_plain_form_writes_to_it() {
    let team = Team::new(|_| {}).await;
    let server = &team.server;
    let id = team.pending_by(&team.agent, in_session("work-3")).await;
    let silent = team.pending(release_ask()).await;
    let cookie = sign_in(server, &team.alice).await;
    let page = |id: &str| {
        let request = Request::get(format!("/asks/{id}"))
            .header(header::HOST, HOST)
            .body(Body::empty())
            .expect("request");
        with_cookie(request, &cookie)
    };
    let html = body_text(server.send(page(&id)).await).await;
    assert!(
        html.contains(&format!("action=\"/asks/{id}/messages\"")),
        "{html}"
    );
    let html = body_text(server.send(page(&silent)).await).await;
    assert!(
        !html.contains("/messages\""),
        "no box for an agent that reads none"
    );

    // The desk links each ask whose agent listens to that box.
    let desk = Request::get("/")
        .header(header::HOST, HOST)
        .body(Body::empty())
        .expect("request");
    let html = body_text(server.send(with_cookie(desk, &cookie)).await).await;
    assert!(
        html.contains(&format!("/asks/{id}#to-session-heading")),
        "{html}"
    );
    assert!(!html.contains(&format!("/asks/{silent}#to-session-heading")));

    let response = server
        .send(with_cookie(
            message_form(&id, "Ship it on Friday."),
            &cookie,
        ))
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[header::LOCATION], format!("/asks/{id}"));
    let html = body_text(server.send(page(&id)).await).await;
    assert!(
        html.contains("Ship it on Friday."),
        "the page lists what was sent"
    );
    assert!(html.contains("alice, at "), "{html}");

    // Blank bypassing the browser's check: the page again, saying why.
    let response = server
        .send(with_cookie(message_form(&id, "   "), &cookie))
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = body_text(response).await;
    assert!(html.contains("the message is blank"), "{html}");
    // Only the link, on a desk with people: sign in first.
    let response = server.send(message_form(&id, "by link")).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert!(response.headers()[header::LOCATION]
        .to_str()
        .expect("text")
        .starts_with("/signin"));
    let (_, read) = call(
        server,
        Method::GET,
        "/api/v1/sessions/work-3/messages",
        Some(&team.agent),
        None,
        &[],
    )
    .await;
    assert_eq!(read["messages"].as_array().map(Vec::len), Some(1));
}

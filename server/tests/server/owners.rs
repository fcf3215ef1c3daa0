//! Each agent its own, over HTTP: two agents, a relaying agent, a person,
//! the admin token and a link holder against every surface of an ask
//! (read, wait, list, export, event streams, cancel, relayed answers,
//! sessions and their messages, idempotency keys, MCP sessions). Another
//! agent's ask is `404`, as an id that is no ask's is.

use crate::common::{body_text, combined_answers, release_ask, HOST, TOKEN};
use crate::people::{call, request, Team};
use axum::http::{header, Method, StatusCode};
use http_body_util::BodyExt;
use interaction::Role;
use serde_json::{json, Value};
use std::time::Duration;

/// A team's desk, and the token of a second agent, `bot2`.
async fn team_with_rival() -> (Team, String) {
    let team = Team::new(|_| {}).await;
    let (_, bot2) = team
        .server
        .desk
        .add_person("bot2", Role::Agent)
        .await
        .expect("added");
    (team, bot2)
}

/// An ask made with `token`, with `extra` merged into the body: its id.
async fn ask_as(team: &Team, token: &str, extra: Value) -> String {
    let mut body = release_ask();
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    team.pending_by(token, body).await
}

async fn get(team: &Team, path: &str, token: Option<&str>) -> (StatusCode, Value) {
    call(&team.server, Method::GET, path, token, None, &[]).await
}

/// The ids of the asks a list (or an export) shows to `token`.
async fn listed(team: &Team, token: &str) -> (Vec<String>, Vec<String>) {
    let (status, page) = get(team, "/api/v1/asks", Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let ids = |asks: &[Value]| -> Vec<String> {
        asks.iter()
            .map(|a| a["id"].as_str().expect("id").to_owned())
            .collect()
    };
    let page = ids(page["asks"].as_array().expect("asks"));
    let response = team
        .server
        .send(request(
            Method::GET,
            "/api/v1/asks?format=jsonl",
            Some(token),
            None,
            &[],
        ))
        .await;
    let lines: Vec<Value> = body_text(response)
        .await
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    (page, ids(&lines))
}

#[tokio::test]
async fn an_agent_reads_waits_on_and_lists_only_its_own_asks() {
    let (team, bot2) = team_with_rival().await;
    let bots = ask_as(&team, &team.agent, json!({})).await;
    let rivals = ask_as(&team, &bot2, json!({})).await;
    for path in [
        format!("/api/v1/asks/{bots}"),
        format!("/api/v1/asks/{bots}?wait=1"),
        format!("/asks/{bots}/events"),
    ] {
        let (status, body) = get(&team, &path, Some(&bot2)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "bot2 {path}: {body}");
        // The same reply as an id that is no ask's: no oracle.
        let none = path.replace(&bots, "0123456789abcdef0123456789abcdef");
        assert_eq!(get(&team, &none, Some(&bot2)).await, (status, body));
    }
    assert_eq!(
        listed(&team, &bot2).await,
        (vec![rivals.clone()], vec![rivals.clone()])
    );
    assert_eq!(
        listed(&team, &team.agent).await,
        (vec![bots.clone()], vec![bots.clone()])
    );
    // A relaying agent that made none sees none.
    assert_eq!(listed(&team, &team.relay).await, (vec![], vec![]));
    // People and the admin see every ask, and who made it.
    for token in [&team.alice, TOKEN] {
        let (page, export) = listed(&team, token).await;
        assert_eq!((page.len(), export.len()), (2, 2));
        let (status, ask) = get(&team, &format!("/api/v1/asks/{bots}"), Some(token)).await;
        assert_eq!((status, &ask["askedBy"]), (StatusCode::OK, &json!("bot")));
    }
    // A link holder reads the ask's own page and stream, as before.
    let page = team
        .server
        .send(
            axum::http::Request::get(format!("/asks/{bots}"))
                .header(header::HOST, HOST)
                .body(axum::body::Body::empty())
                .expect("request"),
        )
        .await;
    assert_eq!(page.status(), StatusCode::OK);
    let text = body_text(page).await;
    assert!(text.contains("with bot&#x27;s token") || text.contains("with bot's token"));
}

#[tokio::test]
async fn the_event_stream_tells_an_agent_only_of_its_own_asks() {
    let (team, bot2) = team_with_rival().await;
    let response = team
        .server
        .send(request(
            Method::GET,
            "/api/v1/events",
            Some(&bot2),
            None,
            &[],
        ))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    // Bot's ask first: were it told to bot2, it would be the first event.
    let bots = ask_as(&team, &team.agent, json!({})).await;
    let rivals = ask_as(&team, &bot2, json!({})).await;
    let mut text = String::new();
    let first = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Some(end) = text.find("\n\n") {
                let block = text[..end].to_owned();
                if block.lines().any(|l| l.starts_with("data:")) {
                    return block;
                }
                text.drain(..end + 2);
                continue;
            }
            let frame = body.frame().await.expect("open").expect("a frame");
            if let Ok(data) = frame.into_data() {
                text.push_str(&String::from_utf8_lossy(&data));
            }
        }
    })
    .await
    .expect("an event within 10 s");
    assert!(first.contains(&rivals), "{first}");
    assert!(!first.contains(&bots), "bot2 heard of bot's ask: {first}");
}

#[tokio::test]
async fn no_agent_cancels_or_relays_an_answer_to_another_agents_ask() {
    let (team, bot2) = team_with_rival().await;
    let bots = ask_as(&team, &team.agent, json!({})).await;
    let path = format!("/api/v1/asks/{bots}");
    let (status, _) = call(&team.server, Method::DELETE, &path, Some(&bot2), None, &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "bot2 cancelled bot's ask");
    for via in ["mcp-client", "mcp-app"] {
        for (verb, body) in [
            ("answers", Some(combined_answers())),
            ("decline", Some(json!({}))),
        ] {
            let (status, reply) = call(
                &team.server,
                Method::POST,
                &format!("{path}/{verb}"),
                Some(&team.relay),
                body,
                &[("x-askdesk-via", via)],
            )
            .await;
            assert_eq!(
                status,
                StatusCode::NOT_FOUND,
                "relay {verb} via {via}: {reply}"
            );
        }
    }
    assert_eq!(
        team.ask(&bots).await["status"],
        "pending",
        "nothing changed"
    );
    // Its own ask the relaying agent's client relays; bot cancels its own.
    let relays = ask_as(&team, &team.relay, json!({})).await;
    let (status, answered) = call(
        &team.server,
        Method::POST,
        &format!("/api/v1/asks/{relays}/answers"),
        Some(&team.relay),
        Some(combined_answers()),
        &[("x-askdesk-via", "mcp-app")],
    )
    .await;
    assert_eq!(
        (status, &answered["relayedBy"]),
        (StatusCode::OK, &json!("relay"))
    );
    let (status, _) = call(
        &team.server,
        Method::DELETE,
        &path,
        Some(&team.agent),
        None,
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_session_is_its_agents_and_messages_stop_when_the_ask_ends() {
    let (team, bot2) = team_with_rival().await;
    let bots = ask_as(&team, &team.agent, json!({"session": "bots-session"})).await;
    // Another agent may not name it: 422 at `session`, nothing made.
    let mut body = release_ask();
    body["session"] = json!("bots-session");
    let (status, refused) = call(
        &team.server,
        Method::POST,
        "/api/v1/asks",
        Some(&bot2),
        Some(body),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(refused["problems"][0]["path"], "session");
    assert_eq!(refused["problems"][0]["code"], "session_taken");
    assert_eq!(listed(&team, &bot2).await.0, Vec::<String>::new());
    // The session's name is its agent's and the admin's to see.
    let ask_path = format!("/api/v1/asks/{bots}");
    let seen = |token: String| {
        let path = ask_path.clone();
        let team = &team;
        async move { get(team, &path, Some(&token)).await.1 }
    };
    assert_eq!(seen(team.agent.clone()).await["session"], "bots-session");
    assert_eq!(seen(TOKEN.to_owned()).await["session"], "bots-session");
    let to_alice = seen(team.alice.clone()).await;
    assert_eq!(
        (&to_alice["session"], &to_alice["listens"]),
        (&Value::Null, &json!(true))
    );
    // People write; each message says who from.
    let (status, from_alice) = write(&team, &team.alice, &bots).await;
    assert_eq!(
        (status, &from_alice["from"]),
        (StatusCode::CREATED, &json!("alice"))
    );
    let (status, from_admin) = write(&team, TOKEN, &bots).await;
    assert_eq!(
        (status, &from_admin["from"]),
        (StatusCode::CREATED, &json!("admin"))
    );
    // Only its agent and the admin read it.
    let messages = "/api/v1/sessions/bots-session/messages";
    for token in [&team.agent, TOKEN] {
        let (status, read) = get(&team, messages, Some(token)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(read["messages"].as_array().map(Vec::len), Some(2));
    }
    let (status, _) = get(&team, messages, Some(&bot2)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "bot2 read bot's session");
    // Once the ask has ended, nothing more is written.
    let (status, _) = call(
        &team.server,
        Method::DELETE,
        &ask_path,
        Some(&team.agent),
        None,
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, late) = write(&team, &team.alice, &bots).await;
    assert_eq!(status, StatusCode::CONFLICT, "{late}");
    assert!(late["message"].is_string());
}

#[tokio::test]
async fn an_idempotency_key_is_its_creators_own() {
    let (team, bot2) = team_with_rival().await;
    let create = |token: String| {
        let team = &team;
        async move {
            call(
                &team.server,
                Method::POST,
                "/api/v1/asks",
                Some(&token),
                Some(release_ask()),
                &[("idempotency-key", "the-same-key")],
            )
            .await
        }
    };
    let (first, bots) = create(team.agent.clone()).await;
    let (second, rivals) = create(bot2.clone()).await;
    assert_eq!((first, second), (StatusCode::CREATED, StatusCode::CREATED));
    assert_ne!(bots["id"], rivals["id"], "bot2 got bot's ask by its key");
    let (again, retried) = create(team.agent.clone()).await;
    assert_eq!((again, &retried["id"]), (StatusCode::OK, &bots["id"]));
}

/// A message written on ask `id` with `token`.
async fn write(team: &Team, token: &str, id: &str) -> (StatusCode, Value) {
    call(
        &team.server,
        Method::POST,
        &format!("/api/v1/asks/{id}/messages"),
        Some(token),
        Some(json!({"text": "use staging"})),
        &[],
    )
    .await
}

/// An `initialize` over streamable HTTP: the session id it opens.
async fn open_mcp_session(team: &Team, token: &str) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"}}});
    let response = team
        .server
        .send(request(
            Method::POST,
            "/mcp",
            Some(token),
            Some(initialize),
            &[],
        ))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    response.headers()["mcp-session-id"]
        .to_str()
        .expect("text")
        .to_owned()
}

#[tokio::test]
async fn an_mcp_session_answers_only_the_credential_that_opened_it() {
    let (team, bot2) = team_with_rival().await;
    let session = open_mcp_session(&team, &team.agent).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-06-18"),
    ];
    // Another credential's requests naming it: an unknown session.
    for token in [bot2.as_str(), TOKEN, team.relay.as_str()] {
        for (method, body) in [
            (Method::POST, Some(list.clone())),
            (Method::GET, None),
            (Method::DELETE, None),
        ] {
            let response = team
                .server
                .send(request(method.clone(), "/mcp", Some(token), body, &headers))
                .await;
            assert_eq!(response.status(), StatusCode::NOT_FOUND, "{method}");
        }
    }
    // Its own credential still has it: the session was not deleted.
    let as_bot = |body: Value| {
        team.server.send(request(
            Method::POST,
            "/mcp",
            Some(&team.agent),
            Some(body),
            &headers,
        ))
    };
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(as_bot(initialized).await.status(), StatusCode::ACCEPTED);
    let response = as_bot(list).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(body_text(response).await.contains("ask_user"));
}

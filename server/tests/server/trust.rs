//! Trust on every path, tried as an attacker would: the credentials decide
//! who answers before anything the request says of itself; on a team's
//! desk an ask's link alone answers nothing unless the desk says so; an
//! agent's text is set apart from the page's own words; and control
//! characters are refused wherever text comes in.

use crate::common::{combined_answers, release_ask, TestServer, TOKEN};
use crate::pages::form_post;
use crate::people::{call, rpc_answer, sign_in, with_cookie, Team, FORM_ANSWERS};
use axum::http::{header, Method, StatusCode};
use interaction::Via;
use serde_json::{json, Value};

/// Every value `X-Askdesk-Via` could say, and some it should not.
fn every_via() -> Vec<&'static str> {
    let mut vias: Vec<&str> = Via::ALL.iter().map(|via| via.as_str()).collect();
    vias.extend(["", "MCP-CLIENT", "mcp-client, tui", "link", "admin"]);
    vias
}

/// The answer and the decline of ask `id`, each as `token` sends it with
/// `via` named: their statuses.
async fn finish_with(team: &Team, id: &str, token: &str, via: &str) -> [StatusCode; 2] {
    let headers = [("x-askdesk-via", via)];
    let (answered, _) = call(
        &team.server,
        Method::POST,
        &format!("/api/v1/asks/{id}/answers"),
        Some(token),
        Some(combined_answers()),
        &headers,
    )
    .await;
    let (declined, _) = call(
        &team.server,
        Method::POST,
        &format!("/api/v1/asks/{id}/decline"),
        Some(token),
        Some(json!({"reason": "not mine to say"})),
        &headers,
    )
    .await;
    [answered, declined]
}

#[tokio::test]
async fn an_agents_token_answers_and_declines_nothing_whatever_surface_it_names() {
    let team = Team::new(|_| {}).await;
    // Each agent on its own ask: another's it does not even find.
    let id = team.pending_by(&team.agent, release_ask()).await;
    for via in every_via() {
        let statuses = finish_with(&team, &id, &team.agent, via).await;
        assert_eq!(statuses, [StatusCode::FORBIDDEN; 2], "via {via:?}");
    }
    let ask = team.ask(&id).await;
    assert_eq!(ask["status"], "pending", "nothing changed: {ask}");
    // A relaying agent answers only what a person gave inside its host:
    // through any other surface it is an agent answering its own ask.
    let id = team.pending_by(&team.relay, release_ask()).await;
    for via in every_via()
        .into_iter()
        .filter(|via| !["mcp-client", "mcp-app"].contains(via))
    {
        let statuses = finish_with(&team, &id, &team.relay, via).await;
        assert_eq!(statuses, [StatusCode::FORBIDDEN; 2], "relay via {via:?}");
    }
    let ask = team.ask(&id).await;
    assert_eq!(ask["status"], "pending", "nothing changed: {ask}");
}

#[tokio::test]
async fn an_answer_a_relaying_agents_client_carries_names_the_agent_and_no_person() {
    let team = Team::new(|_| {}).await;
    for via in ["mcp-client", "mcp-app"] {
        let id = team.pending_by(&team.relay, release_ask()).await;
        let (status, body) = call(
            &team.server,
            Method::POST,
            &format!("/api/v1/asks/{id}/answers"),
            Some(&team.relay),
            Some(combined_answers()),
            &[("x-askdesk-via", via)],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let ask = team.ask(&id).await;
        assert_eq!(
            (&ask["answeredBy"], &ask["relayedBy"], &ask["via"]),
            (&Value::Null, &json!("relay"), &json!(via)),
            "{ask}"
        );
        let (_, html) = team.server.get_page(&format!("/asks/{id}")).await;
        assert!(html.contains("relayed by the agent relay"), "{html}");
    }
    // Who a token is, as `askdesk mcp` asks before it offers a form.
    for (token, name, relays) in [
        (&team.agent, "bot", false),
        (&team.relay, "relay", true),
        (&team.alice, "alice", false),
    ] {
        let (status, me) = call(
            &team.server,
            Method::GET,
            "/api/v1/me",
            Some(token),
            None,
            &[],
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            (&me["name"], &me["relaysAnswers"]),
            (&json!(name), &json!(relays))
        );
    }
    let (status, _) = call(&team.server, Method::GET, "/api/v1/me", None, None, &[]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn with_sign_in_required_not_even_a_relaying_agent_answers() {
    let team = Team::new(|settings| settings.answer_requires_sign_in = true).await;
    let id = team.pending_by(&team.relay, release_ask()).await;
    for via in ["mcp-client", "mcp-app"] {
        let statuses = finish_with(&team, &id, &team.relay, via).await;
        assert_eq!(statuses, [StatusCode::FORBIDDEN; 2], "via {via}");
    }
    assert_eq!(team.ask(&id).await["status"], "pending");
}

#[tokio::test]
async fn on_a_teams_desk_the_link_alone_answers_nothing_and_a_signed_in_person_does() {
    let team = Team::new(|_| {}).await;
    let server = &team.server;
    let id = team.pending(release_ask()).await;

    let (status, html) = server.get_page(&format!("/asks/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Sign in to answer"), "{html}");
    assert!(
        !html.contains("id=\"pending-ask\""),
        "no form for the link: {html}"
    );
    let posted = server.send(form_post(&id, &FORM_ANSWERS)).await;
    assert_eq!(posted.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        posted.headers()[header::LOCATION],
        format!("/signin?next=/asks/{id}")
    );
    let declined = server
        .send(form_post(&id, &[("intent", "decline"), ("reason", "no")]))
        .await;
    assert_eq!(declined.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        server.send(rpc_answer(&id)).await.status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(team.ask(&id).await["status"], "pending", "nothing changed");

    let cookie = sign_in(server, &team.alice).await;
    let posted = server
        .send(with_cookie(form_post(&id, &FORM_ANSWERS), &cookie))
        .await;
    assert_eq!(posted.status(), StatusCode::SEE_OTHER);
    let ask = team.ask(&id).await;
    assert_eq!(
        (&ask["status"], &ask["answeredBy"]),
        (&json!("answered"), &json!("alice"))
    );
}

#[tokio::test]
async fn answer_by_link_lets_the_link_answer_a_teams_desk() {
    let team = Team::new(|settings| settings.answer_by_link = true).await;
    let id = team.pending(release_ask()).await;
    let posted = team.server.send(form_post(&id, &FORM_ANSWERS)).await;
    assert_eq!(posted.status(), StatusCode::SEE_OTHER);
    let ask = team.ask(&id).await;
    assert_eq!(
        (&ask["status"], &ask["answeredBy"], &ask["via"]),
        (&json!("answered"), &Value::Null, &json!("form")),
        "{ask}"
    );
    let id = team.pending(release_ask()).await;
    assert_eq!(
        team.server.send(rpc_answer(&id)).await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_desk_without_people_answers_by_its_link_as_before() {
    let server = TestServer::with_token().await;
    let (status, created) = call(
        &server,
        Method::POST,
        "/api/v1/asks",
        Some(TOKEN),
        Some(release_ask()),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = created["id"].as_str().expect("id");
    let posted = server.send(form_post(id, &FORM_ANSWERS)).await;
    assert_eq!(posted.status(), StatusCode::SEE_OTHER);
    let (_, ask) = call(
        &server,
        Method::GET,
        &format!("/api/v1/asks/{id}"),
        Some(TOKEN),
        None,
        &[],
    )
    .await;
    assert_eq!(ask["status"], "answered", "{ask}");
}

#[tokio::test]
async fn an_agents_text_reorders_nothing_around_it_on_the_page_the_desk_and_history() {
    let server = TestServer::new().await;
    let id = server
        .create(json!({
            "title": "Deploy\u{202e}won",
            "agent": "bot\u{202e}",
            "questions": [{"id": "go", "header": "Go\u{202e}", "question": "Ship\u{202e}?",
                           "options": [{"label": "Yes\u{202e}", "description": "d\u{202e}"},
                                       {"label": "No"}]}]
        }))
        .await;
    let (_, page) = server.get_page(&format!("/asks/{id}")).await;
    for isolated in [
        "<h1 dir=\"auto\">Deploy\u{202e}won</h1>",
        "<bdi class=\"agent\">bot\u{202e}</bdi>",
        "<span dir=\"auto\" class=\"header\">Go\u{202e}</span>",
        "<span dir=\"auto\" class=\"text\">Ship\u{202e}?</span>",
        "dir=\"auto\">Yes\u{202e}</label>",
        "dir=\"auto\" class=\"option-description\">d\u{202e}</span>",
    ] {
        assert!(page.contains(isolated), "{isolated} in {page}");
    }
    // A tab's title isolates nothing within it: the override is shown.
    assert!(
        page.contains("<title>askdesk: \u{2068}Deploy⟨U+202E⟩won\u{2069}</title>"),
        "{page}"
    );
    for path in ["/", "/history"] {
        let (_, html) = server.get_page(path).await;
        assert!(
            html.contains("dir=\"auto\">Deploy\u{202e}won</a>"),
            "{path}: {html}"
        );
        assert!(
            html.contains("<bdi class=\"agent\">bot\u{202e}</bdi>"),
            "{path}: {html}"
        );
    }
}

#[tokio::test]
async fn control_characters_are_refused_at_their_path_and_nothing_is_stored() {
    let server = TestServer::new().await;
    let mut ask = release_ask();
    ask["title"] = json!("Deploy\u{0}now");
    ask["questions"][0]["options"][1]["label"] = json!("Log\u{1b}[31mging");
    ask["questions"][2]["question"] = json!("Anything\relse?");
    // DEL and the C1 controls (an 8-bit CSI here) are control characters too.
    ask["questions"][1]["header"] = json!("Data\u{7f}base");
    ask["questions"][0]["options"][0]["description"] = json!("Sign\u{9b}31min");
    let (status, body) = server.json(Method::POST, "/api/v1/asks", Some(ask)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let mut at: Vec<(&str, &str)> = body["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| {
            (
                p["path"].as_str().expect("path"),
                p["code"].as_str().expect("code"),
            )
        })
        .collect();
    at.sort_unstable();
    assert_eq!(
        at,
        [
            ("questions[0].options[0].description", "control_character"),
            ("questions[0].options[1].label", "control_character"),
            ("questions[1].header", "control_character"),
            ("questions[2].question", "control_character"),
            ("title", "control_character"),
        ],
        "{body}"
    );
    let (_, list) = server.json(Method::GET, "/api/v1/asks", None).await;
    assert_eq!(list["asks"], json!([]), "nothing stored");

    let id = server.create(release_ask()).await;
    let mut answers = combined_answers();
    answers["answers"][2]["custom"] = json!("Ship\u{0} on Friday");
    let (status, body) = server
        .json(
            Method::POST,
            &format!("/api/v1/asks/{id}/answers"),
            Some(answers),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["problems"][0]["path"], "answers[2].custom", "{body}");
    assert_eq!(body["problems"][0]["code"], "control_character", "{body}");
    let (status, body) = server
        .json(
            Method::POST,
            &format!("/api/v1/asks/{id}/decline"),
            Some(json!({"reason": "no\u{7}"})),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["problems"][0]["path"], "reason", "{body}");
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(ask["status"], "pending");

    // A form's line breaks arrive as CRLF and are read as newlines.
    let posted = server
        .send(form_post(
            &id,
            &[
                ("answer.features", "Auth"),
                ("answer.db", "SQLite"),
                ("other.notes", "line one\r\nline two"),
                ("intent", "answer"),
            ],
        ))
        .await;
    assert_eq!(posted.status(), StatusCode::SEE_OTHER);
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(ask["answers"][2]["custom"], "line one\nline two", "{ask}");
}

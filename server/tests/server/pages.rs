//! The answering page as the server renders it, and the form it posts
//! when the browser runs no JavaScript.

use crate::common::{body_text, combined_answers, release_ask, TestServer, HOST};
use axum::{
    body::Body,
    http::{header, Method, Request, StatusCode},
};
use serde_json::json;

/// A plain form post of the answering page, as a browser without
/// JavaScript sends it.
pub(crate) fn form_post(id: &str, fields: &[(&str, &str)]) -> Request<Body> {
    form_to(&format!("/asks/{id}"), fields)
}

/// A browser's form post of `fields` to `path`, from the desk's own page.
pub(crate) fn form_to(path: &str, fields: &[(&str, &str)]) -> Request<Body> {
    let body = serde_urlencoded::to_string(fields).expect("form");
    Request::post(path)
        .header(header::HOST, HOST)
        .header(header::ORIGIN, "http://127.0.0.1:3000")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .expect("request")
}

#[tokio::test]
async fn the_page_renders_each_question_as_a_fieldset_with_native_inputs() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let (status, html) = server.get_page(&format!("/asks/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(html.matches("<fieldset").count(), 3, "{html}");
    assert!(html.contains("Which features should ship?"));
    assert_eq!(html.matches(r#"type="checkbox""#).count(), 3);
    assert_eq!(html.matches(r#"type="radio""#).count(), 2);
    assert!(
        html.contains(r#"aria-describedby="features-option-0-description""#),
        "{html}"
    );
    assert!(
        html.contains("<textarea"),
        "optionless question has a textarea"
    );
    assert!(html.contains(&format!(r#"action="/asks/{id}""#)));
    assert!(html.contains(r#"method="post""#));
    // Without JavaScript the submit button must work: not disabled.
    let button = html
        .split("Submit answers")
        .next()
        .expect("button")
        .rsplit("<button")
        .next()
        .expect("tag");
    assert!(!button.contains("disabled"), "{button}");
}

#[tokio::test]
async fn agent_text_is_escaped_in_the_page() {
    let server = TestServer::new().await;
    let id = server
        .create(json!({
            "title": "</title><script>alert(1)</script>",
            "questions": [{"id": "q", "question": "Is <b>this</b> & \"that\" safe?",
                           "options": [{"label": "<img src=x onerror=alert(1)>"}]}]
        }))
        .await;
    let (_, html) = server.get_page(&format!("/asks/{id}")).await;
    assert!(!html.contains("<script>alert(1)</script>"), "{html}");
    assert!(
        html.contains(
            "<title>askdesk: \u{2068}\u{2039}/title>\u{2039}script>alert(1)\u{2039}/script>\u{2069}</title>"
        ),
        "{html}"
    );
    assert!(!html.contains("<img src=x"), "{html}");
    assert!(!html.contains("<b>this</b>"), "{html}");
    assert!(
        html.contains("&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    // The island's copy of the questions, in an attribute, cannot end it.
    assert!(
        html.contains(
            "&quot;question&quot;:&quot;Is &lt;b&gt;this&lt;/b&gt; &amp; \\&quot;that\\&quot; safe?&quot;"
        ),
        "{html}"
    );
    assert_eq!(
        html.matches("</script>").count(),
        html.matches("<script").count()
    );
}

#[tokio::test]
async fn a_posted_form_stores_the_combined_answer_and_redirects_to_the_outcome() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let response = server
        .send(form_post(
            &id,
            &[
                ("answer.features", "Metrics"),
                ("answer.features", "Auth"),
                ("other.features", "Rate limiting"),
                ("answer.db", "SQLite"),
                ("other.db", ""),
                ("other.notes", "Ship it"),
                ("reason", ""),
                ("intent", "answer"),
            ],
        ))
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[header::LOCATION], format!("/asks/{id}"));
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(
        ask["answers"][0],
        json!({"id": "features", "selected": ["Auth", "Metrics"], "custom": "Rate limiting"})
    );
    // The page now shows the outcome, read-only, and no form to answer again.
    let (_, html) = server.get_page(&format!("/asks/{id}")).await;
    assert!(html.contains("Answered"), "{html}");
    assert!(html.contains("Rate limiting"));
    assert!(!html.contains("<form class=\"ask\""), "{html}");
}

#[tokio::test]
async fn a_refused_form_shows_problems_by_their_questions_and_keeps_what_was_typed() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let response = server
        .send(form_post(
            &id,
            &[
                ("answer.features", "Logging"),
                ("other.features", "Typed & kept"),
                ("other.db", "   "),
                ("other.notes", "Notes typed before the error"),
                ("intent", "answer"),
            ],
        ))
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = body_text(response).await;
    assert!(html.contains("The answers were not accepted"), "{html}");
    // The problem sits inside the database question's fieldset.
    let db = html.split(r#"id="db-legend""#).nth(1).expect("db fieldset");
    let db = db.split("</fieldset>").next().expect("fieldset end");
    assert!(db.contains(r#"class="problems""#), "{db}");
    // Typed text and checked boxes are still there.
    assert!(html.contains(r#"value="Typed &amp; kept""#), "{html}");
    assert!(html.contains("Notes typed before the error"));
    let logging = html
        .split(r#"value="Logging""#)
        .nth(1)
        .expect("Logging box");
    assert!(
        logging.split('>').next().expect("tag").contains("checked"),
        "{logging}"
    );
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(ask["status"], "pending");
}

#[tokio::test]
async fn on_single_select_posted_other_text_overrides_the_radio_as_on_the_page() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let response = server
        .send(form_post(
            &id,
            &[
                ("answer.features", "Auth"),
                ("answer.db", "SQLite"),
                ("other.db", "DuckDB"),
                ("other.notes", "none"),
                ("intent", "answer"),
            ],
        ))
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(
        ask["answers"][1],
        json!({"id": "db", "selected": [], "custom": "DuckDB"})
    );
}

#[tokio::test]
async fn the_decline_button_posts_a_decline_with_its_reason() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let response = server
        .send(form_post(
            &id,
            &[
                ("other.notes", "ignored"),
                ("reason", "Not my call"),
                ("intent", "decline"),
            ],
        ))
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(ask["status"], "declined");
    assert_eq!(ask["declineReason"], "Not my call");
    let (_, html) = server.get_page(&format!("/asks/{id}")).await;
    assert!(
        html.contains("Declined") && html.contains("Not my call"),
        "{html}"
    );
}

#[tokio::test]
async fn posting_to_a_finished_ask_changes_nothing() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    server
        .json(Method::DELETE, &format!("/api/v1/asks/{id}"), None)
        .await;
    let response = server
        .send(form_post(
            &id,
            &[
                ("answer.features", "Auth"),
                ("answer.db", "SQLite"),
                ("other.notes", "x"),
            ],
        ))
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(ask["status"], "cancelled");
    let (_, html) = server.get_page(&format!("/asks/{id}")).await;
    assert!(html.contains("Withdrawn"), "{html}");
}

#[tokio::test]
async fn an_unknown_ask_page_is_a_404_with_a_way_back() {
    let server = TestServer::new().await;
    let (status, html) = server
        .get_page("/asks/0123456789abcdef0123456789abcdef")
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains("No ask at this address"), "{html}");
    let (status, _) = server.get_page("/no/such/page").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_home_page_lists_pending_asks_newest_first_or_says_none_wait() {
    let server = TestServer::new().await;
    let (status, html) = server.get_page("/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("No questions are waiting"), "{html}");
    assert!(
        html.contains("curl -s -X POST http://127.0.0.1:3000/api/v1/asks"),
        "{html}"
    );
    let older = server
        .create(json!({"title": "Older ask", "questions": [{"id": "q", "question": "?"}]}))
        .await;
    let newer = server
        .create(json!({"title": "Newer ask", "questions": [{"id": "q", "question": "?"}]}))
        .await;
    let (_, html) = server.get_page("/").await;
    let newer_at = html.find(&format!("/asks/{newer}")).expect("newer listed");
    let older_at = html.find(&format!("/asks/{older}")).expect("older listed");
    assert!(newer_at < older_at);
    assert!(html.contains("1 question"));
}

async fn page_with(server: &TestServer, path: &str, header: (&str, &str)) -> String {
    let request = Request::get(path)
        .header(header::HOST, HOST)
        .header(header.0, header.1)
        .body(Body::empty())
        .expect("request");
    body_text(server.send(request).await).await
}

#[tokio::test]
async fn the_page_speaks_chinese_to_a_chinese_browser_and_shows_agent_text_as_given() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let html = page_with(
        &server,
        &format!("/asks/{id}"),
        ("accept-language", "zh-CN,zh;q=0.9,en;q=0.5"),
    )
    .await;
    assert!(html.contains(r#"<html lang="zh-CN""#), "{html}");
    for words in ["提交回答", "其他", "拒绝回答", "你的回答"] {
        assert!(html.contains(words), "{words} missing");
    }
    assert!(
        html.contains("Which features should ship?"),
        "agent text stays as given"
    );
    let english = page_with(
        &server,
        &format!("/asks/{id}"),
        ("accept-language", "en-US"),
    )
    .await;
    assert!(english.contains(r#"<html lang="en""#) && english.contains("Submit answers"));
    // The switch's cookie wins over the browser's languages.
    let chosen = page_with(&server, "/", ("cookie", "askdesk_lang=zh")).await;
    assert!(chosen.contains("智能体的提问，在这里回答。"), "{chosen}");
}

#[tokio::test]
async fn the_language_switch_sets_a_cookie_and_only_goes_back_to_this_server() {
    let server = TestServer::new().await;
    for (back, expected) in [
        ("/asks/abc%3Fembed%3D1", "/asks/abc?embed=1"),
        ("//evil.example/x", "/"),
        ("https://evil.example", "/"),
    ] {
        let request = Request::get(format!("/lang/zh?back={back}"))
            .header(header::HOST, HOST)
            .body(Body::empty())
            .expect("request");
        let response = server.send(request).await;
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        assert_eq!(response.headers()[header::LOCATION], expected, "{back}");
        let cookie = response.headers()[header::SET_COOKIE]
            .to_str()
            .expect("ascii");
        assert!(cookie.starts_with("askdesk_lang=zh;"), "{cookie}");
    }
}

#[tokio::test]
async fn a_refused_decline_keeps_the_reason_and_what_was_typed() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    let long = "x".repeat(interaction::MAX_CUSTOM_CHARS + 1);
    let response = server
        .send(form_post(
            &id,
            &[
                ("other.notes", "Notes typed before declining"),
                ("reason", &long),
                ("intent", "decline"),
            ],
        ))
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = body_text(response).await;
    assert!(html.contains("Notes typed before declining"), "{html}");
    assert!(html.contains(&long), "the reason box keeps the reason");
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(ask["status"], "pending");
}

#[tokio::test]
async fn history_shows_fifty_asks_a_page_with_older_ones_a_link_away_and_searches_without_script() {
    let server = TestServer::new().await;
    let mut made = Vec::new();
    for n in 0..60 {
        let mut ask = release_ask();
        ask["title"] = json!(format!("Plan {n}"));
        ask["agent"] = json!(if n == 7 { "night-bot" } else { "day-bot" });
        made.push(server.create(ask).await);
    }
    let ids = |html: &str| -> Vec<String> {
        html.match_indices("data-id=\"")
            .map(|(at, _)| html[at + 9..at + 41].to_owned())
            .collect()
    };
    let (status, first) = server.get_page("/history").await;
    assert_eq!(status, StatusCode::OK);
    // No island: nothing loads the bundle (only Leptos's inline bookkeeping).
    assert!(
        !first.contains(".js\"") && !first.contains(".wasm"),
        "{first}"
    );
    assert!(
        !first.contains("src="),
        "no script or other file is fetched: {first}"
    );
    assert!(
        first.contains("<form method=\"get\" action=\"/history\""),
        "{first}"
    );
    let newest: Vec<String> = made.iter().rev().cloned().collect();
    assert_eq!(ids(&first), newest[..50]);
    let at = first
        .find("href=\"/history?cursor=")
        .expect("a link to older asks");
    let link = &first[at + 6..];
    let link = link[..link.find('"').expect("end")].replace("&amp;", "&");
    let (_, older) = server.get_page(&link).await;
    assert_eq!(ids(&older), newest[50..]);
    assert!(
        !older.contains("/history?cursor="),
        "the last page links no further"
    );

    // The form's fields, as a browser sends them.
    let (_, found) = server.get_page("/history?q=plan+7&agent=&status=").await;
    assert_eq!(ids(&found), [made[7].clone()]);
    let (_, by_agent) = server.get_page("/history?agent=night-bot").await;
    assert_eq!(ids(&by_agent), [made[7].clone()]);
    let (_, none) = server.get_page("/history?status=answered").await;
    assert!(ids(&none).is_empty());
    assert!(none.contains("No ask matches."), "{none}");
    // The desk links it.
    let (_, desk) = server.get_page("/").await;
    assert!(desk.contains("href=\"/history\""));
}

#[tokio::test]
async fn what_the_agent_was_doing_stands_above_the_questions_as_its_own_escaped_words() {
    let server = TestServer::new().await;
    let id = server
        .create(json!({
            "context": "I moved <b>the</b> tests.\nShould I go on?",
            "questions": [{"id": "q", "question": "Go on?", "options": [{"label": "Yes"}]}]
        }))
        .await;
    let (status, html) = server.get_page(&format!("/asks/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    let context = html
        .find("I moved &lt;b&gt;the&lt;/b&gt; tests.\nShould I go on?</blockquote>")
        .expect("the context, escaped, line breaks kept");
    assert!(
        context < html.find("<fieldset").expect("the form"),
        "{html}"
    );
    assert!(html.contains("What the agent was doing"), "{html}");
    // Too long: refused, naming the field and the rule.
    let (status, body) = server
        .json(
            Method::POST,
            "/api/v1/asks",
            Some(json!({"context": "x".repeat(4_001), "questions": [{"id": "q", "question": "Go?"}]})),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["problems"][0]["path"], "context", "{body}");
    assert_eq!(body["problems"][0]["code"], "context_too_long", "{body}");
}

/// A server function's body that is not its arguments is the caller's
/// mistake: `400` with the API's JSON error naming the field, and the ask
/// stays as it was. The right body still answers.
#[tokio::test]
async fn a_server_function_body_of_the_wrong_shape_is_a_400_naming_the_field() {
    let server = TestServer::new().await;
    let id = server.create(release_ask()).await;
    for (body, names) in [
        (json!({"id": id}), "answers"),
        (json!({"id": 5, "answers": combined_answers()}), "id"),
        (
            json!({"id": id, "answers": {"answers": [{"selected": ["SQLite"]}]}}),
            "answers.answers[0]",
        ),
        (
            json!({"id": id, "answers": {"answers": [{"id": "db", "selected": "SQLite"}]}}),
            "answers.answers[0].selected",
        ),
    ] {
        let (status, reply) = server
            .json(Method::POST, "/rpc/ask_answer", Some(body.clone()))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {reply}");
        let message = reply["message"].as_str().expect("a message");
        assert!(message.contains(names), "{body}: {message}");
    }
    let broken = Request::post("/rpc/ask_answer")
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{\"id\": "))
        .expect("request");
    let broken = server.send(broken).await;
    assert_eq!(broken.status(), StatusCode::BAD_REQUEST);
    let (status, reply) = server
        .json(Method::POST, "/rpc/history", Some(json!({"status": 3})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{reply}");
    let (_, ask) = server
        .json(Method::GET, &format!("/api/v1/asks/{id}"), None)
        .await;
    assert_eq!(ask["status"], "pending", "{ask}");

    let (status, answered) = server
        .json(
            Method::POST,
            "/rpc/ask_answer",
            Some(json!({"id": id, "answers": combined_answers()})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answered}");
    assert_eq!(answered["status"], "answered", "{answered}");
}

/// `dir="auto"` isolates a preview from the page, not its parts from each
/// other, and a tab's title isolates nothing: there, an override is shown
/// as its code point, so a command reads in the order it runs.
#[tokio::test]
async fn bidi_controls_in_a_preview_and_the_tab_title_are_shown_as_their_code_points() {
    let server = TestServer::new().await;
    let id = server
        .create(json!({
            "title": "Bash: echo safe \u{202e}fr- mr",
            "questions": [{"id": "run", "question": "Run it?", "options": [
                {"label": "Allow once", "preview": "echo safe \u{202e}fr- mr\u{202c}"},
                {"label": "Deny"}
            ]}]
        }))
        .await;
    let (status, html) = server.get_page(&format!("/asks/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("echo safe ⟨U+202E⟩fr- mr⟨U+202C⟩</pre>"),
        "{html}"
    );
    let tab = html
        .split("<title>")
        .nth(1)
        .and_then(|rest| rest.split("</title>").next())
        .expect("a title");
    assert!(tab.contains("Bash: echo safe ⟨U+202E⟩fr- mr"), "{tab}");
    assert!(!tab.contains('\u{202e}'), "{tab}");
}

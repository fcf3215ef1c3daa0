//! Drives the whole router in-process, as a browser would over HTTP.

use axum::{
    body::Body,
    http::{header, Request, StatusCode},
    Router,
};
use http_body_util::BodyExt;
use server::{app, config::ServeArgs, AppState};
use tower::ServiceExt;

fn router() -> Router {
    let args = ServeArgs {
        addr: "127.0.0.1:0".parse().expect("valid address"),
        site_root: "target/site".into(),
    };
    app(AppState {
        leptos_options: args.leptos_options(),
    })
}

async fn body_text(response: axum::response::Response) -> String {
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    String::from_utf8(bytes.to_vec()).expect("utf-8 body")
}

#[tokio::test]
async fn home_page_is_rendered_on_the_server_from_the_question() {
    let response = router()
        .oneshot(Request::get("/").body(Body::empty()).expect("request"))
        .await
        .expect("response");
    assert_eq!(response.status(), StatusCode::OK);
    let html = body_text(response).await;
    let question = app::demo::demo_question();
    assert!(
        html.contains(&question.question),
        "question text missing:\n{html}"
    );
    for option in &question.options {
        assert!(
            html.contains(&format!(r#"value="{}""#, option.label)),
            "{} missing",
            option.label
        );
    }
    assert!(
        html.contains(r#"<output id="summary">Nothing chosen yet</output>"#),
        "{html}"
    );
    // The hydration script must point at the bundle the build lays out.
    assert!(
        html.contains("/pkg/askdesk.js") && html.contains("/pkg/askdesk.wasm"),
        "{html}"
    );
}

#[tokio::test]
async fn demo_server_function_echoes_labels_and_other_text() {
    let form = "question_id=features&selected[0]=Auth&selected[1]=Logging&custom=Rate+limiting";
    let response = router()
        .oneshot(
            Request::post("/rpc/demo_submit")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header(header::ACCEPT, "application/json")
                .body(Body::from(form))
                .expect("request"),
        )
        .await
        .expect("response");
    assert_eq!(response.status(), StatusCode::OK);
    let body = body_text(response).await;
    assert_eq!(
        body,
        r#"{"message":"The server received [\"Auth\", \"Logging\"] and Other \"Rate limiting\"."}"#
    );
}

#[tokio::test]
async fn demo_server_function_refuses_an_unknown_question() {
    let response = router()
        .oneshot(
            Request::post("/rpc/demo_submit")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header(header::ACCEPT, "application/json")
                .body(Body::from("question_id=nope&custom="))
                .expect("request"),
        )
        .await
        .expect("response");
    assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let body = body_text(response).await;
    assert!(
        body.contains("UnknownQuestion") && body.contains("nope"),
        "{body}"
    );
}

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
        html.contains(r#"<output id="summary">unanswered</output>"#),
        "{html}"
    );
    // The hydration script must point at the bundle the build lays out.
    assert!(
        html.contains("/pkg/askdesk.js") && html.contains("/pkg/askdesk.wasm"),
        "{html}"
    );
}

#[tokio::test]
async fn demo_server_function_accepts_labels_with_other_text() {
    let form =
        "item[id]=features&item[selected][0]=Logging&item[selected][1]=Auth&item[custom]=Rate+limiting";
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
        r#"{"message":"The server accepted Auth, Logging + \"Rate limiting\"."}"#
    );
}

#[tokio::test]
async fn demo_server_function_refuses_what_the_validator_refuses() {
    let response = router()
        .oneshot(
            Request::post("/rpc/demo_submit")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header(header::ACCEPT, "application/json")
                .body(Body::from(
                    "item[id]=features&item[selected][0]=Nope&item[custom]=+",
                ))
                .expect("request"),
        )
        .await
        .expect("response");
    assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let body = body_text(response).await;
    for needle in ["unknown_label", "answers[0].selected[0]", "empty_custom"] {
        assert!(body.contains(needle), "{needle} missing from {body}");
    }
}

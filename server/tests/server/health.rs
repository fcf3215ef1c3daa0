//! `/healthz` and `/readyz` as a load balancer probes them: no token, any
//! Host, every method but GET refused, and `/readyz` 503 once the
//! instance is shutting down.

use crate::common::{body_text, TestServer};
use axum::{
    body::Body,
    http::{header, Method, Request, StatusCode},
};
use serde_json::{json, Value};

async fn probe(server: &TestServer, method: Method, path: &str) -> (StatusCode, Option<Value>) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        // A probe names the instance by its address, not the desk's name.
        .header(header::HOST, "10.1.2.3:3000")
        .body(Body::empty())
        .expect("request");
    let response = server.send(request).await;
    let status = response.status();
    if status == StatusCode::OK || status == StatusCode::SERVICE_UNAVAILABLE {
        let cache = response.headers().get(header::CACHE_CONTROL).cloned();
        assert_eq!(
            cache.as_ref().map(|v| v.to_str().expect("text")),
            Some("no-store")
        );
    }
    let text = body_text(response).await;
    (status, serde_json::from_str(&text).ok())
}

#[tokio::test]
async fn the_probes_answer_without_a_token_from_any_host() {
    let server = TestServer::with_token().await;
    assert_eq!(
        probe(&server, Method::GET, "/healthz").await,
        (StatusCode::OK, Some(json!({"status": "ok"})))
    );
    assert_eq!(
        probe(&server, Method::GET, "/readyz").await,
        (StatusCode::OK, Some(json!({"status": "ready"})))
    );
    // The rest of the desk still wants its Host and token.
    let (status, _) = probe(&server, Method::GET, "/api/v1/me").await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    let (status, _) = probe(&server, Method::POST, "/readyz").await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn readyz_says_draining_once_the_instance_is_stopping_and_healthz_still_serves() {
    let server = TestServer::new().await;
    server.shutdown.cancel();
    assert_eq!(
        probe(&server, Method::GET, "/readyz").await,
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Some(json!({"status": "draining", "message": "this instance is shutting down"}))
        )
    );
    assert_eq!(
        probe(&server, Method::GET, "/healthz").await,
        (StatusCode::OK, Some(json!({"status": "ok"})))
    );
}

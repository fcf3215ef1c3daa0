use super::*;
use serde_json::json;

const ID: &str = "https://app.example/oauth/client.json";

#[test]
fn a_document_names_itself_and_its_redirects() {
    let document = checked(
        ID,
        "app.example".to_owned(),
        &json!({
            "client_id": ID,
            "client_name": "App",
            "redirect_uris": ["https://app.example/callback", "http://127.0.0.1:3334/cb"],
        }),
    )
    .expect("a client's document");
    assert_eq!(document.client_name.as_deref(), Some("App"));
    assert_eq!(document.redirect_uris.len(), 2);
}

#[test]
fn a_document_that_is_not_its_clients_is_refused() {
    let host = || "app.example".to_owned();
    let uris = json!(["https://app.example/callback"]);
    for (document, says) in [
        (
            json!({"client_id": "https://other.example/c.json", "redirect_uris": uris}),
            "its own URL",
        ),
        (json!({"client_id": ID}), "redirect_uris"),
        (
            json!({"client_id": ID, "redirect_uris": []}),
            "redirect_uris",
        ),
        (
            json!({"client_id": ID, "redirect_uris": ["https://app.example/cb#x"]}),
            "not a redirect URI",
        ),
        (
            json!({"client_id": ID, "redirect_uris": uris, "client_secret": "s"}),
            "client_secret",
        ),
        (
            json!({"client_id": ID, "redirect_uris": uris, "token_endpoint_auth_method": "client_secret_basic"}),
            "only \"none\"",
        ),
    ] {
        let refusal = checked(ID, host(), &document).expect_err("refused");
        assert!(refusal.contains(says), "{refusal}");
    }
}

#[test]
fn a_client_id_must_be_an_https_documents_url() {
    for (id, says) in [
        ("http://app.example/c.json", "https"),
        ("https://app.example/", "path"),
        ("https://app.example", "path"),
        ("https://user:pw@app.example/c.json", "credentials"),
        ("https://app.example/c.json#x", "fragment"),
        ("not a url", "no URL"),
    ] {
        let refusal = document_url(id).expect_err(id);
        assert!(refusal.contains(says), "{id}: {refusal}");
    }
    assert!(document_url(ID).is_ok());
    assert!(is_document_id(ID));
    assert!(!is_document_id("a1b2c3"));
}

#[tokio::test]
async fn a_document_at_a_private_address_is_not_fetched() {
    let documents = Documents::new(Fetching::default()).expect("documents");
    for id in [
        "https://127.0.0.1:9/client.json",
        "https://localhost:9/client.json",
        "https://[::1]:9/client.json",
    ] {
        let refusal = documents.get(id).await.expect_err(id);
        assert!(refusal.contains("not a public address"), "{id}: {refusal}");
    }
}

#[tokio::test]
async fn a_private_address_is_tried_when_allowed_and_its_failure_is_no_document() {
    // A plain HTTP listener answering a redirect: the TLS handshake
    // fails, and nothing it sends is taken for a document.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("addr").port();
    tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        while let Ok((mut socket, _)) = listener.accept().await {
            let _ = socket
                .write_all(b"HTTP/1.1 302 Found\r\nLocation: http://10.0.0.1/\r\n\r\n")
                .await;
        }
    });
    let documents = Documents::new(Fetching {
        private_addresses: true,
        extra_root: None,
    })
    .expect("documents");
    let id = format!("https://127.0.0.1:{port}/client.json");
    let refusal = documents.get(&id).await.expect_err("no document");
    assert!(refusal.contains("failed"), "{refusal}");
}

#[test]
fn a_ca_that_is_no_certificate_is_refused() {
    let refusal = Documents::new(Fetching {
        private_addresses: false,
        extra_root: Some(b"not a certificate".to_vec()),
    })
    .expect_err("refused");
    assert!(refusal.contains("PEM"), "{refusal}");
}

//! Upgrades that are tested: each fixture in `server/tests/fixtures/` is a
//! desk written by a released askdesk's own binary (`make.py` there says
//! how), with asks in every state, people, a session, notifications owed
//! and idempotency keys. Today's askdesk opens each one, migrating it, and
//! must read everything back exactly as that version's API said it.

use crate::common::{args, body_text, TestServer, HOST};
use axum::{
    body::Body,
    http::{header, Method, Request, StatusCode},
};
use desk::{PoolSettings, PostgresStore, SqliteStore, Store};
use serde_json::Value;
use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

/// Every fixture folder, oldest release first.
fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("server/tests/fixtures")
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.join("sqlite.json").is_file())
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no fixtures in {}", root.display());
    found
}

fn expected(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("fixture JSON")
}

async fn call(
    server: &TestServer,
    method: Method,
    path: &str,
    token: Option<&str>,
    extra: &[(&str, &str)],
    body: Option<&Value>,
) -> (StatusCode, Value) {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    let body = match body {
        Some(value) => {
            request = request.header(header::CONTENT_TYPE, "application/json");
            Body::from(value.to_string())
        }
        None => Body::empty(),
    };
    let response = server.send(request.body(body).expect("request")).await;
    let status = response.status();
    let text = body_text(response).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Serves `store` as the fixture's server did, and checks that it reads
/// back everything `expected` recorded.
async fn reads_back_the_same(name: &str, store: Arc<dyn Store>, expected: &Value) -> TestServer {
    let shared = expected["token"].as_str().expect("token");
    let mut settings = args(Some(shared));
    settings.public_url = Some(expected["publicUrl"].as_str().expect("url").to_owned());
    let server = TestServer::configured(store, settings, Default::default()).await;

    for (id, ask) in expected["asks"].as_object().expect("asks") {
        let (status, read) = call(
            &server,
            Method::GET,
            &format!("/api/v1/asks/{id}"),
            Some(shared),
            &[],
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{name}: ask {id}");
        assert_eq!(&read, ask, "{name}: ask {id} reads back as it was written");
    }
    let (status, listed) = call(
        &server,
        Method::GET,
        "/api/v1/asks?limit=200",
        Some(shared),
        &[],
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&Value> = listed["asks"]
        .as_array()
        .expect("asks")
        .iter()
        .map(|summary| &summary["id"])
        .collect();
    let written: Vec<&Value> = expected["list"].as_array().expect("list").iter().collect();
    assert_eq!(ids, written, "{name}: the list, newest first");

    // People: the same names, roles and dates, and their tokens still work
    // with the rights of their roles.
    let people: Vec<Value> = server
        .desk
        .people()
        .await
        .expect("people")
        .iter()
        .map(|p| serde_json::json!({"name": p.name, "role": p.role, "createdAt": p.created_at}))
        .collect();
    assert_eq!(&Value::from(people), &expected["people"], "{name}: people");
    let tokens = &expected["tokens"];
    let alice = tokens["alice"].as_str().expect("alice");
    let bot = tokens["ci-bot"].as_str().expect("ci-bot");
    let (status, _) = call(&server, Method::GET, "/api/v1/asks", Some(alice), &[], None).await;
    assert_eq!(status, StatusCode::OK, "{name}: alice's token reads");
    let pending = expected["idempotencyKeys"]["fixture-pending-key"]["ask"]
        .as_str()
        .expect("pending");
    let answer = serde_json::json!({"answers": []});
    let (status, _) = call(
        &server,
        Method::POST,
        &format!("/api/v1/asks/{pending}/answers"),
        Some(bot),
        &[],
        Some(&answer),
    )
    .await;
    // An ask made before askdesk recorded who asked is no agent's: the
    // agent does not even find it, and only the admin acts on it as its
    // asker.
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "{name}: an agent's token finds no ask whose maker is unknown"
    );
    let path = format!("/api/v1/asks/{pending}");
    let (status, ask) = call(&server, Method::GET, &path, Some(shared), &[], None).await;
    assert_eq!(status, StatusCode::OK, "{name}: the admin reads it");
    assert!(
        ask.get("askedBy").is_none(),
        "{name}: nobody is named: {ask}"
    );

    // Alice's browser is still signed in.
    let cookie = expected["sessionCookie"].as_str().expect("cookie");
    let (status, _) = call(
        &server,
        Method::GET,
        "/api/v1/asks",
        None,
        &[("cookie", cookie)],
        None,
    )
    .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{name}: the session cookie still signs in"
    );
    let (status, _) = call(&server, Method::GET, "/api/v1/asks", None, &[], None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{name}: without it, not");

    // A retried create with a key used then finds the ask made then, when
    // the shared token made it (an agent's: `old_keys_are_no_agents`).
    for (key, made) in expected["idempotencyKeys"].as_object().expect("keys") {
        let token = match made["token"].as_str() {
            Some(_) => continue,
            None => shared,
        };
        let (status, again) = call(
            &server,
            Method::POST,
            "/api/v1/asks",
            Some(token),
            &[("idempotency-key", key)],
            Some(&made["body"]),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{name}: key {key}: {again}");
        assert_eq!(again["id"], made["ask"], "{name}: key {key}");
    }
    server
}

/// Keys are each creator's own now, and who made an ask was not recorded
/// then: an agent's old key makes a new ask of its own rather than hand
/// it one it may not read. (Last: it adds an ask.)
async fn old_keys_are_no_agents(name: &str, server: &TestServer, expected: &Value) {
    for (key, made) in expected["idempotencyKeys"].as_object().expect("keys") {
        let Some(person) = made["token"].as_str() else {
            continue;
        };
        let token = expected["tokens"][person].as_str().expect("token");
        let (status, again) = call(
            server,
            Method::POST,
            "/api/v1/asks",
            Some(token),
            &[("idempotency-key", key)],
            Some(&made["body"]),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{name}: key {key}: {again}");
        assert_ne!(again["id"], made["ask"], "{name}: key {key}");
    }
}

#[tokio::test]
async fn every_sqlite_fixture_opens_and_reads_back_the_same() {
    for fixture in fixtures() {
        let name = fixture.display().to_string();
        let dir = tempfile::tempdir().expect("tempdir");
        let copy = dir.path().join("askdesk.db");
        std::fs::copy(fixture.join("askdesk.db"), &copy).expect("copy");
        let store = SqliteStore::open(&copy)
            .await
            .expect("today's askdesk opens it");
        drop(
            reads_back_the_same(
                &name,
                Arc::new(store),
                &expected(&fixture.join("sqlite.json")),
            )
            .await,
        );
        // Opened again, nothing is migrated twice and all still reads.
        let store = SqliteStore::open(&copy).await.expect("and again");
        let expected = expected(&fixture.join("sqlite.json"));
        let server = reads_back_the_same(&name, Arc::new(store), &expected).await;
        old_keys_are_no_agents(&name, &server, &expected).await;
    }
}

#[tokio::test]
async fn every_postgres_fixture_opens_and_reads_back_the_same() {
    let url = std::env::var("ASKDESK_TEST_POSTGRES").unwrap_or_else(|_| {
        panic!("ASKDESK_TEST_POSTGRES is not set: run `scripts/dev.sh test unit`")
    });
    for fixture in fixtures() {
        let dump = fixture.join("postgres.sql");
        let Ok(text) = std::fs::read_to_string(&dump) else {
            panic!("{} has no postgres.sql", fixture.display());
        };
        let name = dump.display().to_string();
        // The dump's schema, renamed so runs and fixtures stay apart.
        let schema = format!("upgrade_{}", desk::AskId::random().expect("random"));
        let restored = std::process::Command::new("psql")
            .args([
                &url,
                "-q",
                "-v",
                "ON_ERROR_STOP=1",
                "-c",
                &format!("CREATE SCHEMA {schema}"),
            ])
            .status()
            .expect("psql runs");
        assert!(restored.success());
        let mut psql = std::process::Command::new("psql")
            .args([&url, "-q", "-v", "ON_ERROR_STOP=1", "-f", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("psql runs");
        {
            use std::io::Write;
            let text = text
                .replace("CREATE SCHEMA askdesk_fixture;", "")
                .replace("askdesk_fixture", &schema);
            psql.stdin
                .take()
                .expect("stdin")
                .write_all(text.as_bytes())
                .expect("dump written to psql");
        }
        assert!(psql.wait().expect("psql").success(), "{name} restores");
        let in_schema = format!("{url}?options=-c%20search_path%3D{schema}");
        let store = PostgresStore::connect(&in_schema, PoolSettings::default())
            .await
            .expect("today's askdesk opens it");
        let expected = expected(&fixture.join("postgres.json"));
        let server = reads_back_the_same(&name, Arc::new(store), &expected).await;
        old_keys_are_no_agents(&name, &server, &expected).await;
    }
}

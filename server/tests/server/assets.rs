//! The site's files as a browser expects them: content-hashed names kept
//! for a year, the best encoding the request accepts, pages that link the
//! hashed names and stay uncached.

use crate::common::{body_text, release_ask, TestServer, HOST};
use app::Bundle;
use axum::{
    body::Body,
    http::{header, Method, Request, StatusCode},
};
use http_body_util::BodyExt;
use server::http::assets::Assets;
use std::path::Path;

/// A site as `scripts/dev.sh` lays it out: the two bundles (the ask
/// page's is `js`; each is JavaScript with the wasm in it), its compressed
/// forms, the CSS and a public file.
fn site(root: &Path, js: &str) -> Assets {
    let files: [(&str, &[u8]); 8] = [
        ("pkg/ask.js", js.as_bytes()),
        ("pkg/ask.js.br", b"brotli bytes"),
        ("pkg/ask.js.gz", b"gzip bytes"),
        ("pkg/desk.js", b"export default 'desk';"),
        ("pkg/askdesk.css", b"body { color: black }"),
        ("favicon.svg", b"<svg/>"),
        ("favicon.svg.gz", b"gzip svg"),
        ("sw.js", b"self.addEventListener('push', () => {});"),
    ];
    for (name, bytes) in files {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().expect("folder")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
    Assets::from_dir(root).expect("site")
}

async fn get(server: &TestServer, path: &str, accept: Option<&str>) -> axum::response::Response {
    let mut request = Request::get(path).header(header::HOST, HOST);
    if let Some(accept) = accept {
        request = request.header(header::ACCEPT_ENCODING, accept);
    }
    server
        .send(request.body(Body::empty()).expect("request"))
        .await
}

async fn bytes(response: axum::response::Response) -> Vec<u8> {
    response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
        .to_vec()
}

#[tokio::test]
async fn the_bundle_is_served_by_its_hash_in_the_best_accepted_encoding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let assets = site(dir.path(), "export default 1;");
    let bundle = assets.bundle(Bundle::Ask).expect("bundle").to_owned();
    assert!(
        bundle.starts_with("/pkg/ask.")
            && bundle.ends_with(".js")
            && bundle.len() == "/pkg/ask.".len() + 16 + ".js".len(),
        "{bundle}"
    );
    let server = TestServer::with_site(assets).await;
    let js = bundle;
    for (accept, encoding, body) in [
        (Some("gzip, deflate, br"), Some("br"), &b"brotli bytes"[..]),
        (Some("br;q=0, gzip"), Some("gzip"), b"gzip bytes"),
        (Some("identity"), None, b"export default 1;"),
        (None, None, b"export default 1;"),
    ] {
        let response = get(&server, &js, accept).await;
        assert_eq!(response.status(), StatusCode::OK);
        let headers = response.headers().clone();
        assert_eq!(
            headers
                .get(header::CONTENT_ENCODING)
                .map(|v| v.to_str().expect("ascii")),
            encoding,
            "{accept:?}"
        );
        assert_eq!(headers[header::VARY], "accept-encoding");
        assert_eq!(
            headers[header::CACHE_CONTROL],
            "public, max-age=31536000, immutable"
        );
        assert_eq!(
            headers[header::CONTENT_TYPE],
            "text/javascript; charset=utf-8"
        );
        assert_eq!(bytes(response).await, body);
    }
    // Only hashed names: an unhashed one could be kept past a new build.
    for stale in [
        "/pkg/ask.js",
        "/pkg/ask.js.br",
        "/pkg/ask.wasm",
        "/pkg/desk.js",
    ] {
        assert_eq!(
            get(&server, stale, None).await.status(),
            StatusCode::NOT_FOUND
        );
    }
}

#[tokio::test]
async fn a_new_build_gets_new_names_and_fixed_names_are_kept_briefly() {
    let (one, two) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let first = site(one.path(), "export default 1;");
    let second = site(two.path(), "export default 2;");
    assert_ne!(first.bundle(Bundle::Ask), second.bundle(Bundle::Ask));
    assert_eq!(
        first.bundle(Bundle::Desk),
        second.bundle(Bundle::Desk),
        "the desk's bundle did not change"
    );
    assert_eq!(
        first.stylesheet(),
        second.stylesheet(),
        "the CSS did not change"
    );
    let server = TestServer::with_site(first).await;
    let favicon = get(&server, "/favicon.svg", Some("gzip")).await;
    assert_eq!(
        favicon.headers()[header::CACHE_CONTROL],
        "public, max-age=300"
    );
    assert_eq!(favicon.headers()[header::CONTENT_ENCODING], "gzip");
    assert_eq!(favicon.headers()[header::CONTENT_TYPE], "image/svg+xml");
}

#[tokio::test]
async fn pages_link_the_hashed_names_of_their_own_bundle_and_stay_out_of_caches() {
    let dir = tempfile::tempdir().expect("tempdir");
    let assets = site(dir.path(), "export default 1;");
    let (ask, desk, css) = (
        assets.bundle(Bundle::Ask).expect("ask bundle").to_owned(),
        assets.bundle(Bundle::Desk).expect("desk bundle").to_owned(),
        assets.stylesheet().expect("css").to_owned(),
    );
    let server = TestServer::with_site(assets).await;
    let id = server.create(release_ask()).await;
    for (path, own, other) in [
        (format!("/asks/{id}"), &ask, &desk),
        ("/".to_owned(), &desk, &ask),
    ] {
        let response = get(&server, &path, None).await;
        assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
        let html = body_text(response).await;
        // A deferred script in the head, which the preload scanner fetches
        // early and which wakes the page once it is parsed; the page's
        // nonce lets it run.
        let head = &html[..html.find("</head>").expect("head")];
        let tag = script_tags(head)
            .find(|tag| tag.contains(&format!(r#"src="{own}""#)))
            .unwrap_or_else(|| panic!("{path}: no script {own} in the head: {html}"));
        assert!(tag.contains("defer"), "{path}: {tag}");
        assert!(tag.contains("nonce="), "{path}: {tag}");
        assert!(!tag.contains("type="), "{path}: a classic script: {tag}");
        // The other page's bundle is never run here; the desk only has the
        // browser prefetch the ask page's, for the first ask opened after it.
        assert!(
            !script_tags(&html).any(|tag| tag.contains(other.as_str())),
            "{path}: {html}"
        );
        let prefetch = format!(r#"<link as="script" href="{other}" rel="prefetch">"#);
        let prefetched = html.matches(other.as_str()).count();
        assert_eq!(
            (prefetched, head.contains(&prefetch)),
            if path == "/" { (1, true) } else { (0, false) },
            "{path}: {html}"
        );
        // The stylesheet is in the page, allowed by its hash, so that the
        // first paint waits for no other request; the bundle is announced
        // in the response's head.
        assert!(
            head.contains("<style>body { color: black }</style>"),
            "{path}: {head}"
        );
        assert!(!html.contains(&css), "{path}: the stylesheet is linked");
        let policy = response_policy(&server, &path).await;
        let hash = "sha256-9nTC/7dB2f1JpbRTvOrSQbb3pM4m9KB3UwcuNN8sxso=";
        assert!(
            policy.contains(&format!("style-src 'self' '{hash}';")),
            "{policy}"
        );
        assert_eq!(
            get(&server, &path, None).await.headers()[header::LINK],
            format!("<{own}>; rel=preload; as=script").as_str(),
        );
    }
    let css = get(&server, &css, None).await;
    assert_eq!(
        css.headers()[header::CONTENT_TYPE],
        "text/css; charset=utf-8"
    );
}

/// A site as cargo-leptos lays it out (`cargo leptos watch`, with the
/// workspace's `[[workspace.metadata.leptos]]`): one wasm-bindgen module
/// and its wasm for every island, named after the site, and the CSS.
#[tokio::test]
async fn a_site_cargo_leptos_built_is_loaded_by_leptos_own_hydration_scripts() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, bytes) in [
        ("pkg/askdesk.js", &b"export default function init() {}"[..]),
        ("pkg/askdesk.wasm", b"\0asm"),
        ("pkg/askdesk.css", b"body { color: black }"),
    ] {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("folder")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }
    let assets = Assets::from_dir(dir.path()).expect("site");
    assert!(assets.is_cargo_leptos());
    assert_eq!(assets.bundle(Bundle::Ask), None);
    let server = TestServer::with_site(assets).await;
    let id = server.create(release_ask()).await;
    for path in [format!("/asks/{id}"), "/".to_owned()] {
        let html = body_text(get(&server, &path, None).await).await;
        // Leptos' loader: a nonced module script that imports the module,
        // initialises it with the wasm and wakes each island.
        let tag = script_tags(&html)
            .find(|tag| tag.contains(r#"type="module""#))
            .unwrap_or_else(|| panic!("{path}: no module script: {html}"));
        assert!(tag.contains("nonce="), "{path}: {tag}");
        assert!(html.contains("/pkg/askdesk.js"), "{path}: {html}");
        assert!(html.contains("askdesk.wasm"), "{path}: {html}");
        assert!(!html.contains("/pkg/ask.js"), "{path}: {html}");
    }
    for (file, kind) in [
        ("/pkg/askdesk.js", "text/javascript; charset=utf-8"),
        ("/pkg/askdesk.wasm", "application/wasm"),
    ] {
        let response = get(&server, file, None).await;
        assert_eq!(response.status(), StatusCode::OK, "{file}");
        assert_eq!(response.headers()[header::CONTENT_TYPE], kind, "{file}");
    }
    // The site scripts/dev.sh lays out is not cargo-leptos's.
    let own = tempfile::tempdir().expect("tempdir");
    assert!(!site(own.path(), "export default 1;").is_cargo_leptos());
}

/// The workspace's `[[workspace.metadata.leptos]]` names what the
/// workspace has: its packages, the bundle features, the profile, the
/// stylesheet and public folder, and the site's name the server expects.
#[test]
fn the_cargo_leptos_settings_name_what_the_workspace_has() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |path: &str| -> toml::Table {
        std::fs::read_to_string(root.join(path))
            .expect("manifest")
            .parse()
            .expect("toml")
    };
    let workspace = read("Cargo.toml");
    let leptos = &workspace["workspace"]["metadata"]["leptos"][0];
    let text = |key: &str| leptos[key].as_str().unwrap_or_else(|| panic!("{key}"));
    assert_eq!(text("name"), env!("LEPTOS_OUTPUT_NAME"));
    let server = read("server/Cargo.toml");
    assert_eq!(
        server["package"]["name"].as_str(),
        Some(text("bin-package"))
    );
    assert!(server["bin"]
        .as_array()
        .expect("bins")
        .iter()
        .any(|bin| bin["name"].as_str() == Some(text("bin-target"))));
    let frontend = read("frontend/Cargo.toml");
    assert_eq!(
        frontend["package"]["name"].as_str(),
        Some(text("lib-package"))
    );
    let features = frontend["features"].as_table().expect("features");
    for feature in leptos["lib-features"].as_array().expect("lib-features") {
        let feature = feature.as_str().expect("feature");
        assert!(features.contains_key(feature), "{feature}");
    }
    for bundle in Bundle::ALL {
        assert!(features.contains_key(bundle.name()), "{}", bundle.name());
    }
    assert!(workspace["profile"]
        .as_table()
        .expect("profiles")
        .contains_key(text("lib-profile-release")));
    assert!(root.join(text("style-file")).is_file());
    assert!(root.join(text("assets-dir")).is_dir());
    assert_eq!(text("site-pkg-dir"), "pkg");
}

/// The attributes of each `<script>` tag in `html`: the text between
/// `<script` and the tag's `>`.
fn script_tags(html: &str) -> impl Iterator<Item = &str> {
    html.split("<script")
        .skip(1)
        .map(|rest| &rest[..rest.find('>').unwrap_or(rest.len())])
}

/// Whether a page loads code: a module script, a script file, or a link to
/// a bundle. (Leptos ends every page with two inline lines declaring
/// empty resource tables; they load nothing.)
fn loads_code(html: &str) -> bool {
    html.contains(r#"type="module""#)
        || script_tags(html).any(|tag| tag.contains(" src="))
        || html.contains("/pkg/ask.")
        || html.contains("/pkg/desk.")
}

#[tokio::test]
async fn only_pages_with_an_island_load_the_bundle() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = TestServer::with_site(site(dir.path(), "export default 1;")).await;
    let pending = server.create(release_ask()).await;
    let finished = server.create(release_ask()).await;
    let (status, _) = server
        .json(Method::DELETE, &format!("/api/v1/asks/{finished}"), None)
        .await;
    assert_eq!(status, StatusCode::OK);

    for path in ["/".to_owned(), format!("/asks/{pending}")] {
        let html = body_text(get(&server, &path, None).await).await;
        assert!(loads_code(&html), "{path}: {html}");
    }
    for path in [
        format!("/asks/{finished}"),
        "/signin".to_owned(),
        "/no/such/page".to_owned(),
        "/asks/no-such-ask".to_owned(),
    ] {
        let html = body_text(get(&server, &path, None).await).await;
        assert!(!loads_code(&html), "{path}: {html}");
        assert!(
            html.contains("<h1>") || html.contains("<h1 "),
            "{path}: {html}"
        );
    }
}

#[tokio::test]
async fn pages_are_gzipped_for_browsers_that_accept_it_and_site_files_keep_their_own_encoding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let assets = site(dir.path(), "export default 1;");
    let bundle = assets.bundle(Bundle::Ask).expect("bundle").to_owned();
    let server = TestServer::with_site(assets).await;
    let id = server.create(release_ask()).await;
    let plain = get(&server, &format!("/asks/{id}"), None).await;
    assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
    let html = body_text(plain).await;

    let page = get(&server, &format!("/asks/{id}"), Some("gzip, deflate, br")).await;
    assert_eq!(page.headers()[header::CONTENT_ENCODING], "gzip");
    assert!(page.headers()[header::VARY]
        .to_str()
        .expect("vary")
        .contains("accept-encoding"));
    let gzipped = page.into_body().collect().await.expect("body").to_bytes();
    assert!(
        gzipped.len() < html.len() / 2,
        "{} of {}",
        gzipped.len(),
        html.len()
    );
    let mut unzipped = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(&gzipped[..]),
        &mut unzipped,
    )
    .expect("gunzip");
    // The same page, but for its nonce.
    assert_eq!(unzipped.len(), html.len());

    let js = get(&server, &bundle, Some("gzip, br")).await;
    assert_eq!(js.headers()[header::CONTENT_ENCODING], "br");
    assert_eq!(
        js.into_body().collect().await.expect("body").to_bytes(),
        &b"brotli bytes"[..]
    );
}

#[tokio::test]
async fn an_unknown_path_is_the_not_found_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = TestServer::with_site(site(dir.path(), "1")).await;
    let response = get(&server, "/no/such/page", None).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
    assert!(body_text(response).await.contains("<h1>"));
}

/// The service worker's policy governs what it may fetch: only this
/// server. Other site files keep the policy of every non-page response.
#[tokio::test]
async fn the_service_worker_is_served_with_its_own_policy() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = TestServer::with_site(site(dir.path(), "export default 1;")).await;
    let policy = |response: &axum::response::Response| {
        response.headers()[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .expect("ascii")
            .to_owned()
    };
    let worker = get(&server, "/sw.js", None).await;
    assert_eq!(worker.status(), StatusCode::OK);
    assert_eq!(policy(&worker), server::http::guard::SERVICE_WORKER_CSP);
    let icon = get(&server, "/favicon.svg", None).await;
    assert_eq!(icon.status(), StatusCode::OK);
    assert_ne!(policy(&icon), server::http::guard::SERVICE_WORKER_CSP);
}

/// The Content-Security-Policy `path` is sent with.
async fn response_policy(server: &TestServer, path: &str) -> String {
    get(server, path, None).await.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("ASCII")
        .to_owned()
}

//! The site's static files — the bundles (JavaScript with their wasm in
//! them), the CSS, and `public/` — served from memory as a browser
//! expects: under content-hashed names cached for a year (`immutable`),
//! compressed with brotli or gzip as the request accepts (`Vary:
//! Accept-Encoding`).
//!
//! The site is embedded in the binary when it is built in release mode
//! (`scripts/dev.sh` builds the site first), so one file is an install;
//! `--site-root` serves a folder instead, for development. `.br` and `.gz`
//! files beside a file, made at build time, are its compressed forms.

use axum::{
    body::{Body, Bytes},
    http::{
        header::{ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, VARY},
        HeaderMap, HeaderValue, StatusCode,
    },
    response::{IntoResponse, Response},
};
use sha2::{Digest, Sha256};
use std::{collections::HashMap, path::Path};

/// The stylesheet's base name: `LEPTOS_OUTPUT_NAME`, which
/// `.cargo/config.toml` sets for every build.
const NAME: &str = env!("LEPTOS_OUTPUT_NAME");

/// The files of the site built into the binary, as `askdesk`'s `main`
/// gives them ([`build_in`]): the site is embedded there, not here, so that
/// this library, and all it depends on, compiles before the site is built.
static BUILT_IN: std::sync::OnceLock<SiteFiles> = std::sync::OnceLock::new();

/// Lists a site's files: each one's path below the site, and its bytes.
pub type SiteFiles = fn() -> Vec<(String, Vec<u8>)>;

/// Says where the binary's own site is. The first call counts.
pub fn build_in(files: SiteFiles) {
    let _ = BUILT_IN.set(files);
}

/// How long a browser keeps a file whose name changes with its content.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// How long a browser keeps a file served under a fixed name.
const SHORT: &str = "public, max-age=300";

#[derive(Debug, Clone)]
struct Asset {
    identity: Bytes,
    brotli: Option<Bytes>,
    gzip: Option<Bytes>,
    content_type: &'static str,
    cache: &'static str,
}

/// The site's files by URL path, and the hashed names pages link.
#[derive(Debug, Clone, Default)]
pub struct Assets {
    files: HashMap<String, Asset>,
    /// Each bundle's hashed path, in [`app::Bundle::ALL`]'s order.
    bundles: [Option<String>; app::Bundle::ALL.len()],
    stylesheet: Option<String>,
    /// The stylesheet's text, which the pages hold.
    style: Option<app::InlineStyle>,
    /// The site is cargo-leptos's: one wasm-bindgen module and its wasm
    /// (`pkg/<name>.js`, `pkg/<name>.wasm`) for every island, served
    /// under those names.
    cargo_leptos: bool,
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or_default() {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "txt" => "text/plain; charset=utf-8",
        "html" => "text/html; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The first 16 hex digits of the SHA-256 of `bytes`.
fn hash(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes)[..8])
}

impl Assets {
    /// The site built into this binary ([`build_in`]); none when it
    /// has none.
    pub fn embedded() -> Self {
        Self::from_files(BUILT_IN.get().map(|files| files()).unwrap_or_default())
    }

    /// The site in `root`, read now.
    pub fn from_dir(root: &Path) -> std::io::Result<Self> {
        let mut files = Vec::new();
        let mut folders = vec![root.to_path_buf()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder)? {
                let path = entry?.path();
                if path.is_dir() {
                    folders.push(path);
                } else if let Ok(relative) = path.strip_prefix(root) {
                    let name = relative.to_string_lossy().replace('\\', "/");
                    files.push((name, std::fs::read(&path)?));
                }
            }
        }
        Ok(Self::from_files(files))
    }

    pub(crate) fn from_files(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> Self {
        let mut raw: HashMap<String, Bytes> = files
            .into_iter()
            .map(|(name, bytes)| (name, Bytes::from(bytes)))
            .collect();
        // A file with its compressed forms, which are never served as
        // files of their own.
        fn take(raw: &mut HashMap<String, Bytes>, name: &str) -> Option<Asset> {
            let identity = raw.remove(name)?;
            Some(Asset {
                brotli: raw.remove(&format!("{name}.br")),
                gzip: raw.remove(&format!("{name}.gz")),
                content_type: content_type(name),
                cache: SHORT,
                identity,
            })
        }
        let mut assets = Self::default();
        for bundle in app::Bundle::ALL {
            let name = bundle.name();
            if let Some(js) = take(&mut raw, &format!("pkg/{name}.js")) {
                let path = format!("/pkg/{name}.{}.js", hash(&js.identity));
                assets.bundles[bundle as usize] = Some(path.clone());
                assets.add(path, js, IMMUTABLE);
            }
        }
        assets.cargo_leptos = assets.bundles.iter().all(Option::is_none)
            && raw.contains_key(&format!("pkg/{NAME}.js"))
            && raw.contains_key(&format!("pkg/{NAME}.wasm"));
        if let Some(css) = take(&mut raw, &format!("pkg/{NAME}.css")) {
            let path = format!("/pkg/{NAME}.{}.css", hash(&css.identity));
            assets.stylesheet = Some(path.clone());
            assets.style = inline_style(&css.identity);
            assets.add(path, css, IMMUTABLE);
        }
        let rest: Vec<String> = raw
            .keys()
            .filter(|name| !name.ends_with(".br") && !name.ends_with(".gz"))
            .cloned()
            .collect();
        for name in rest {
            if let Some(asset) = take(&mut raw, &name) {
                assets.add(format!("/{name}"), asset, SHORT);
            }
        }
        assets
    }

    fn add(&mut self, path: String, mut asset: Asset, cache: &'static str) {
        asset.cache = cache;
        self.files.insert(path, asset);
    }

    /// The path of `bundle` (`/pkg/<name>.<hash>.js`), when the site has
    /// it.
    pub fn bundle(&self, bundle: app::Bundle) -> Option<&str> {
        self.bundles[bundle as usize].as_deref()
    }

    /// The bytes of the site's file at `path` (e.g. `/pkg/hosted.js`), as
    /// built (not compressed).
    pub fn bytes(&self, path: &str) -> Option<&Bytes> {
        self.files.get(path).map(|asset| &asset.identity)
    }

    /// Whether the site is one cargo-leptos built (`cargo leptos watch`):
    /// its one module, which Leptos' own `<HydrationScripts>` loads, wakes
    /// every island.
    pub fn is_cargo_leptos(&self) -> bool {
        self.cargo_leptos
    }

    /// The stylesheet as the pages hold it, when the site has one.
    pub fn inline_style(&self) -> Option<&app::InlineStyle> {
        self.style.as_ref()
    }

    /// The stylesheet's path, when the site has one.
    pub fn stylesheet(&self) -> Option<&str> {
        self.stylesheet.as_deref()
    }

    /// How many files the site has.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether the site has no files (a build without the site).
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The response for `path`, if it is a file of the site: its best
    /// encoding that `headers` accept.
    pub fn response(&self, path: &str, headers: &HeaderMap) -> Option<Response> {
        let asset = self.files.get(path)?;
        let accepts = |coding: &str| accepts(headers, coding);
        let (body, encoding) = match (&asset.brotli, &asset.gzip) {
            (Some(br), _) if accepts("br") => (br, Some("br")),
            (_, Some(gz)) if accepts("gzip") => (gz, Some("gzip")),
            _ => (&asset.identity, None),
        };
        let mut response = (StatusCode::OK, Body::from(body.clone())).into_response();
        let out = response.headers_mut();
        out.insert(CONTENT_TYPE, HeaderValue::from_static(asset.content_type));
        out.insert(CACHE_CONTROL, HeaderValue::from_static(asset.cache));
        if asset.brotli.is_some() || asset.gzip.is_some() {
            out.insert(VARY, HeaderValue::from_static("accept-encoding"));
        }
        if let Some(encoding) = encoding {
            out.insert(CONTENT_ENCODING, HeaderValue::from_static(encoding));
        }
        Some(response)
    }
}

/// Whether `Accept-Encoding` accepts `coding` (listed without `q=0`).
fn accepts(headers: &HeaderMap, coding: &str) -> bool {
    headers
        .get_all(ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            name.eq_ignore_ascii_case(coding) && !refused
        })
}

/// The form askdesk shows inside agents' hosts is made of the site's files.
impl agents::mcp::hosted::SiteFiles for Assets {
    fn bytes(&self, path: &str) -> Option<&[u8]> {
        Assets::bytes(self, path).map(|bytes| bytes.as_ref())
    }

    fn stylesheet(&self) -> Option<&str> {
        Assets::stylesheet(self)
    }
}

/// `css` as the pages hold it, with its CSP hash; `None` when it is not
/// UTF-8 (then the pages link it).
fn inline_style(css: &[u8]) -> Option<app::InlineStyle> {
    use base64::Engine as _;
    use sha2::Digest as _;
    let text = std::str::from_utf8(css).ok()?;
    let digest = sha2::Sha256::digest(css);
    Some(app::InlineStyle {
        css: text.into(),
        hash: format!(
            "sha256-{}",
            base64::engine::general_purpose::STANDARD.encode(digest)
        ),
    })
}

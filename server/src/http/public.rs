//! The paths anyone may reach, token or not, and the site's own files.

/// A path, or every path under a prefix, that anyone may reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Public {
    /// Exactly this path.
    Exact(&'static str),
    /// Every path starting with this prefix.
    Under(&'static str),
}

/// What anyone may reach when the server has a token; every other path
/// needs it (a bearer token, or the signed-in cookie for pages). Ask
/// pages, their plain form post and their event stream are open because
/// the unguessable id in the link is the capability to answer; the same
/// holds for the ask page's server functions, which [`is_public`] adds by
/// their types so that renaming one cannot open or close it by accident.
pub const PUBLIC: &[Public] = &[
    Public::Under("/asks/"),
    Public::Under("/pkg/"),
    Public::Exact("/favicon.svg"),
    // What installs the desk and shows its pushes: static, no secrets.
    Public::Exact("/manifest.webmanifest"),
    Public::Exact("/icon-192.png"),
    Public::Exact("/icon-512.png"),
    Public::Exact("/sw.js"),
    Public::Exact("/push.js"),
    Public::Exact("/signin"),
    // Signing in with the identity provider, and on from it.
    Public::Exact(app::signin::OIDC_START_PATH),
    Public::Exact(crate::oidc::CALLBACK_PATH),
    Public::Exact(app::signin::DONE_PATH),
    // A one-time sign-in link: its secret is the capability, once.
    Public::Under("/signin/link/"),
    Public::Under("/lang/"),
    Public::Exact("/api/v1/openapi.json"),
    // A notification's button: its action token is the capability.
    Public::Under("/api/v1/actions/"),
    // Slack's button presses: each is signed with Slack's signing secret.
    Public::Exact("/integrations/slack/actions"),
    // OAuth's metadata, and the endpoints a client calls before it has a
    // token (the consent page is a page: signed-in people only).
    Public::Under("/.well-known/"),
    Public::Exact(oauth::TOKEN_PATH),
    Public::Exact(oauth::REGISTER_PATH),
    Public::Exact(oauth::REVOKE_PATH),
];

/// Whether `path` is one of the site's files, the same for everyone: no
/// handler of it asks who calls, so the guard does not look.
pub fn is_site_file(path: &str) -> bool {
    path.starts_with("/pkg/")
        || [
            "/favicon.svg",
            "/manifest.webmanifest",
            "/icon-192.png",
            "/icon-512.png",
            "/sw.js",
            "/push.js",
        ]
        .contains(&path)
}

/// Whether anyone may reach `path`, token or not.
pub fn is_public(path: &str) -> bool {
    PUBLIC.iter().any(|public| match public {
        Public::Exact(exact) => path == *exact,
        Public::Under(prefix) => path.starts_with(prefix),
    }) || app::rpc::link_capability_paths().contains(&path)
}

//! What a redirect URI may be, and when two name the same place: the
//! rules both kinds of client (documents and registrations) are held to.

/// Whether `a` and `b` are the same loopback redirect URI but for the
/// port, which a native app picks when it starts.
pub(crate) fn same_loopback(a: &str, b: &str) -> bool {
    let (Ok(a), Ok(b)) = (url::Url::parse(a), url::Url::parse(b)) else {
        return false;
    };
    a.scheme() == "http"
        && b.scheme() == "http"
        && is_loopback(&a)
        && a.host() == b.host()
        && a.path() == b.path()
        && a.query() == b.query()
}

/// Whether `url` names this machine itself.
fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name == "localhost",
        None => false,
    }
}

/// Why `uri` may not be a redirect URI, if it may not: it must be an
/// absolute URL without a fragment, `https`, `http` on loopback only, or
/// a native app's own scheme; never a scheme that runs or reads
/// something in the browser.
pub(crate) fn redirect_problem(uri: &str) -> Option<String> {
    let Ok(url) = url::Url::parse(uri) else {
        return Some(format!("{uri:?} is not an absolute URL"));
    };
    if url.fragment().is_some() {
        return Some(format!("{uri:?} may not have a fragment"));
    }
    match url.scheme() {
        "https" => None,
        "http" if is_loopback(&url) => None,
        "http" => Some(format!("{uri:?} must be https, or http on loopback")),
        "javascript" | "data" | "file" | "blob" | "about" | "vbscript" | "ftp" | "ws" | "wss" => {
            Some(format!("{uri:?} has a scheme a redirect may not have"))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_redirect_uri_is_https_loopback_or_an_apps_own() {
        for fine in [
            "https://app.example/cb",
            "http://127.0.0.1:8080/cb",
            "http://localhost/cb",
            "http://[::1]:9/cb",
            "cursor://anysphere.cursor-mcp/oauth/callback",
        ] {
            assert_eq!(redirect_problem(fine), None, "{fine}");
        }
        for bad in [
            "http://app.example/cb",
            "https://app.example/cb#frag",
            "javascript:alert(1)",
            "data:text/html,x",
            "/relative",
        ] {
            assert!(redirect_problem(bad).is_some(), "{bad}");
        }
    }
}

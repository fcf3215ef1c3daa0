//! Dynamic client registration (RFC 7591): deprecated by the MCP
//! specification in favour of metadata documents, and still what Cursor,
//! Gemini CLI and Copilot CLI use. A registered client is a public one
//! (no secret, PKCE); its name is its own, and the consent page says
//! that nobody checked it. The number of registrations is capped.

use crate::{redirects::redirect_problem, AuthServer, OAuthError};
use desk::{Desk, OAuthClient};
use serde_json::{json, Value};

/// What a registration asked for, as checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    /// Its name, controls made visible, at most 100 characters.
    pub name: String,
    /// Its redirect URIs.
    pub redirect_uris: Vec<String>,
    /// `native` or `web`.
    pub application_type: String,
}

fn metadata_error(description: String) -> OAuthError {
    OAuthError::bad("invalid_client_metadata", description)
}

/// The strings of the array field `name`, if it is one.
fn strings(body: &Value, name: &str) -> Result<Option<Vec<String>>, OAuthError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| metadata_error(format!("{name} must be an array of strings")))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(metadata_error(format!(
            "{name} must be an array of strings"
        ))),
    }
}

/// Reads a registration request's body (RFC 7591 section 2).
pub fn read(body: &Value) -> Result<Asked, OAuthError> {
    if !body.is_object() {
        return Err(metadata_error("the body must be a JSON object".to_owned()));
    }
    let redirect_uris = strings(body, "redirect_uris")?.unwrap_or_default();
    if redirect_uris.is_empty() {
        return Err(OAuthError::bad(
            "invalid_redirect_uri",
            "redirect_uris must name at least one redirect URI",
        ));
    }
    if let Some(problem) = redirect_uris.iter().find_map(|u| redirect_problem(u)) {
        return Err(OAuthError::bad(
            "invalid_redirect_uri",
            format!("redirect_uris: {problem}"),
        ));
    }
    if let Some(grants) = strings(body, "grant_types")? {
        if !grants.iter().any(|g| g == "authorization_code")
            || grants
                .iter()
                .any(|g| g != "authorization_code" && g != "refresh_token")
        {
            return Err(metadata_error(
                "grant_types may hold only authorization_code and refresh_token, and must hold authorization_code"
                    .to_owned(),
            ));
        }
    }
    if let Some(types) = strings(body, "response_types")? {
        if types.iter().any(|t| t != "code") {
            return Err(metadata_error(
                "response_types may hold only \"code\"".to_owned(),
            ));
        }
    }
    let all_web = redirect_uris.iter().all(|u| {
        url::Url::parse(u).is_ok_and(|u| {
            u.scheme() == "https"
                && !matches!(u.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"))
        })
    });
    let application_type = match body.get("application_type").and_then(Value::as_str) {
        Some(kind @ ("native" | "web")) => kind.to_owned(),
        Some(other) => {
            return Err(metadata_error(format!(
                "application_type {other:?} must be \"native\" or \"web\""
            )))
        }
        None if all_web => "web".to_owned(),
        None => "native".to_owned(),
    };
    let name = body
        .get("client_name")
        .and_then(Value::as_str)
        .map(|name| interaction::with_visible_controls(name.trim()).into_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "unnamed client".to_owned());
    Ok(Asked {
        name: name.chars().take(100).collect(),
        redirect_uris,
        application_type,
    })
}

impl AuthServer {
    /// Registers the client `body` describes: the registration's reply
    /// (`201`'s body), or why not. A client that asks to authenticate
    /// with a secret is registered as the public client it will be (RFC
    /// 7591 lets the server say what it registered).
    pub async fn register(&self, desk: &Desk, body: &Value) -> Result<Value, OAuthError> {
        let asked = read(body)?;
        let client = OAuthClient {
            client_id: format!("askd_client_{}", random_hex()?),
            name: asked.name,
            redirect_uris: asked.redirect_uris,
            application_type: asked.application_type,
            created_at: desk.now_ms(),
        };
        let registered = desk
            .register_oauth_client(&client, self.registrations)
            .await
            .map_err(|e| OAuthError::storage(&e))?;
        if !registered {
            return Err(OAuthError {
                error: "access_denied",
                error_description: format!(
                    "this desk has registered as many clients as it takes ({}); its administrator \
                     can raise --oauth-registrations, or the client can use a metadata document",
                    self.registrations
                ),
                status: 403,
            });
        }
        Ok(json!({
            "client_id": client.client_id,
            "client_id_issued_at": client.created_at / 1000,
            "client_name": client.name,
            "redirect_uris": client.redirect_uris,
            "application_type": client.application_type,
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        }))
    }
}

/// 16 random bytes in hex.
fn random_hex() -> Result<String, OAuthError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| OAuthError {
        error: "server_error",
        error_description: format!("no randomness: {e}"),
        status: 500,
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::read;
    use serde_json::json;

    #[test]
    fn a_registration_names_its_redirects_and_gets_a_type() {
        let asked = read(&json!({
            "client_name": "Cursor\u{202e}",
            "redirect_uris": ["cursor://anysphere.cursor-mcp/oauth/callback"],
            "token_endpoint_auth_method": "client_secret_post",
        }))
        .expect("registered");
        assert_eq!(asked.application_type, "native");
        assert_eq!(asked.name, "Cursor⟨U+202E⟩");
        let web = read(&json!({"redirect_uris": ["https://claude.ai/api/mcp/auth_callback"]}))
            .expect("registered");
        assert_eq!(web.application_type, "web");
        assert_eq!(web.name, "unnamed client");
    }

    #[test]
    fn a_bad_registration_says_which_field() {
        for (body, error, says) in [
            (json!([]), "invalid_client_metadata", "object"),
            (json!({}), "invalid_redirect_uri", "redirect_uris"),
            (
                json!({"redirect_uris": "https://a.example/cb"}),
                "invalid_client_metadata",
                "redirect_uris",
            ),
            (
                json!({"redirect_uris": ["http://a.example/cb"]}),
                "invalid_redirect_uri",
                "https",
            ),
            (
                json!({"redirect_uris": ["javascript:x"]}),
                "invalid_redirect_uri",
                "scheme",
            ),
            (
                json!({"redirect_uris": ["https://a.example/cb"], "grant_types": ["client_credentials"]}),
                "invalid_client_metadata",
                "grant_types",
            ),
            (
                json!({"redirect_uris": ["https://a.example/cb"], "response_types": ["token"]}),
                "invalid_client_metadata",
                "response_types",
            ),
            (
                json!({"redirect_uris": ["https://a.example/cb"], "application_type": "tv"}),
                "invalid_client_metadata",
                "application_type",
            ),
        ] {
            let refusal = read(&body).expect_err("refused");
            assert_eq!(refusal.error, error, "{body}");
            assert!(refusal.error_description.contains(says), "{refusal:?}");
        }
    }
}

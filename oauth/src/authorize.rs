//! The authorization endpoint's rules: what a request must hold before a
//! person is asked, and the redirect their answer sends the browser on.
//!
//! A request whose client or redirect URI does not check out is refused
//! on the desk's own page, never by a redirect (RFC 6749 section 4.1.2.1:
//! the redirect might be an attacker's); every other refusal goes back to
//! the client's redirect URI with `error`, `state` and `iss`.

use crate::{pkce, AuthServer, Client, OAuthError, CODE_LIFETIME, SCOPE};
use desk::{Code, Desk, Terms};
use serde::Deserialize;

/// The authorization request's parameters, as the query (or the consent
/// form, which carries them on) has them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Params {
    pub response_type: Option<String>,
    pub client_id: Option<String>,
    pub redirect_uri: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
    pub state: Option<String>,
    pub scope: Option<String>,
    pub resource: Option<String>,
}

impl Params {
    /// The parameters present, by name: what the consent form carries on.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        [
            ("response_type", &self.response_type),
            ("client_id", &self.client_id),
            ("redirect_uri", &self.redirect_uri),
            ("code_challenge", &self.code_challenge),
            ("code_challenge_method", &self.code_challenge_method),
            ("state", &self.state),
            ("scope", &self.scope),
            ("resource", &self.resource),
        ]
        .into_iter()
        .filter_map(|(name, value)| value.clone().map(|value| (name, value)))
        .collect()
    }
}

/// A request a person may allow or deny.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Its parameters, as sent.
    pub params: Params,
    /// Who asks.
    pub client: Client,
    /// Where the answer goes.
    pub redirect_uri: String,
    /// The PKCE challenge (S256).
    pub challenge: String,
    /// The scopes it would be given.
    pub scope: String,
    /// The resource its tokens would be for.
    pub resource: String,
}

/// Why a request is refused, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Said on the desk's page: the client or the redirect URI does not
    /// check out, so nothing is sent to it.
    Shown(String),
    /// The redirect that tells the client.
    Redirect(String),
}

impl AuthServer {
    /// The request `params` make, once checked; or its refusal.
    pub async fn check(&self, desk: &Desk, params: Params) -> Result<Request, Refusal> {
        let client_id = params
            .client_id
            .as_deref()
            .filter(|id| !id.is_empty())
            .ok_or_else(|| Refusal::Shown("client_id is required".to_owned()))?;
        let client = Client::find(self, desk, client_id)
            .await
            .map_err(Refusal::Shown)?;
        let redirect_uri = client
            .redirect(params.redirect_uri.as_deref())
            .map_err(Refusal::Shown)?;
        let state = params.state.as_deref();
        let back = |error: &str, description: &str| {
            Refusal::Redirect(self.redirect_url(
                &redirect_uri,
                &[("error", error), ("error_description", description)],
                state,
            ))
        };
        if params.response_type.as_deref() != Some("code") {
            return Err(back(
                "unsupported_response_type",
                "response_type must be \"code\"",
            ));
        }
        if params.code_challenge_method.as_deref() != Some("S256") {
            return Err(back(
                "invalid_request",
                "code_challenge_method must be S256 (PKCE; plain is not accepted)",
            ));
        }
        let challenge = match params.code_challenge.as_deref() {
            Some(challenge) if pkce::is_challenge(challenge) => challenge.to_owned(),
            _ => {
                return Err(back(
                    "invalid_request",
                    "code_challenge is required: the base64url SHA-256 of the verifier (S256)",
                ))
            }
        };
        let resource = match params.resource.as_deref() {
            None => self.resource(),
            Some(resource) if self.is_resource(resource) => self.resource(),
            Some(_) => {
                let rule = format!(
                    "resource must be this desk's MCP endpoint, {}",
                    self.resource()
                );
                return Err(back("invalid_target", &rule));
            }
        };
        if let Some(scope) = params.scope.as_deref() {
            if !scope.split(' ').all(|s| s.is_empty() || s == SCOPE) {
                let rule = format!("scope may only be \"{SCOPE}\"");
                return Err(back("invalid_scope", &rule));
            }
        }
        Ok(Request {
            params: params.clone(),
            client,
            redirect_uri,
            challenge,
            scope: SCOPE.to_owned(),
            resource,
        })
    }

    /// `redirect_uri` with `pairs`, the request's `state` and the issuer
    /// (RFC 9207) added to its query.
    pub fn redirect_url(
        &self,
        redirect_uri: &str,
        pairs: &[(&str, &str)],
        state: Option<&str>,
    ) -> String {
        let Ok(mut url) = url::Url::parse(redirect_uri) else {
            return redirect_uri.to_owned();
        };
        {
            let mut query = url.query_pairs_mut();
            for (name, value) in pairs {
                query.append_pair(name, value);
            }
            if let Some(state) = state {
                query.append_pair("state", state);
            }
            query.append_pair("iss", self.issuer());
        }
        url.to_string()
    }

    /// The person `owner` allows `request`: a code for it, and the
    /// redirect that hands it to the client.
    pub async fn allow(
        &self,
        desk: &Desk,
        request: &Request,
        owner: &str,
    ) -> Result<String, OAuthError> {
        let lifetime = i64::try_from(CODE_LIFETIME.as_millis()).unwrap_or(i64::MAX);
        let code = Code {
            terms: Terms {
                owner: owner.to_owned(),
                client_id: request.client.id.clone(),
                client_name: request.client.name.clone(),
                verified: request.client.verified,
                scope: request.scope.clone(),
                resource: request.resource.clone(),
            },
            redirect_uri: request.redirect_uri.clone(),
            challenge: request.challenge.clone(),
            expires_at: desk.now_ms().saturating_add(lifetime),
        };
        let secret = desk
            .issue_code(&code)
            .await
            .map_err(|e| OAuthError::storage(&e))?;
        Ok(self.redirect_url(
            &request.redirect_uri,
            &[("code", &secret)],
            request.params.state.as_deref(),
        ))
    }

    /// The person denies `request`: `access_denied`, back to the client.
    pub fn deny(&self, request: &Request) -> String {
        self.redirect_url(
            &request.redirect_uri,
            &[
                ("error", "access_denied"),
                ("error_description", "the person did not allow it"),
            ],
            request.params.state.as_deref(),
        )
    }
}

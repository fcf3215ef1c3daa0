//! The token endpoint: a code exchanged once, with its PKCE verifier, for
//! an access token bound to the MCP endpoint and a refresh token; a
//! refresh token rotated, and one used twice revoking its grant; and
//! revocation (RFC 7009).

use crate::{pkce, AuthServer, OAuthError};
use desk::{CodeTaken, Desk, Issued, Refresh};
use serde::Deserialize;
use serde_json::{json, Value};

/// A token or revocation request's form fields.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct TokenForm {
    pub grant_type: Option<String>,
    pub code: Option<String>,
    pub redirect_uri: Option<String>,
    pub code_verifier: Option<String>,
    pub client_id: Option<String>,
    pub refresh_token: Option<String>,
    pub resource: Option<String>,
    /// Revocation's token.
    pub token: Option<String>,
}

fn required<'a>(value: &'a Option<String>, name: &str) -> Result<&'a str, OAuthError> {
    value
        .as_deref()
        .filter(|v| !v.is_empty())
        .ok_or_else(|| OAuthError::invalid_request(format!("{name} is required")))
}

/// The reply that hands out `issued`.
fn reply(issued: &Issued) -> Value {
    json!({
        "access_token": issued.access,
        "token_type": "Bearer",
        "expires_in": issued.expires_in.as_secs(),
        "refresh_token": issued.refresh,
        "scope": issued.grant.terms.scope,
    })
}

impl AuthServer {
    /// `POST /oauth/token`: the tokens' reply, or why not.
    pub async fn token(&self, desk: &Desk, form: &TokenForm) -> Result<Value, OAuthError> {
        match form.grant_type.as_deref() {
            Some("authorization_code") => self.exchange(desk, form).await,
            Some("refresh_token") => self.refresh(desk, form).await,
            None => Err(OAuthError::invalid_request("grant_type is required")),
            Some(other) => Err(OAuthError::bad(
                "unsupported_grant_type",
                format!(
                    "grant_type {other:?} is not supported: authorization_code or refresh_token"
                ),
            )),
        }
    }

    /// Whether a token request's `resource`, if it names one, is `bound`.
    fn check_resource(&self, form: &TokenForm, bound: &str) -> Result<(), OAuthError> {
        match form.resource.as_deref() {
            Some(resource) if !(self.is_resource(resource) && self.is_resource(bound)) => {
                Err(OAuthError::bad(
                    "invalid_target",
                    format!("resource must be {bound}, which the grant is for"),
                ))
            }
            _ => Ok(()),
        }
    }

    async fn exchange(&self, desk: &Desk, form: &TokenForm) -> Result<Value, OAuthError> {
        let secret = required(&form.code, "code")?;
        let verifier = required(&form.code_verifier, "code_verifier")?;
        let client_id = required(&form.client_id, "client_id")?;
        // Taken before anything else is checked: a code is spent by its
        // first exchange, right or wrong.
        let code = match desk
            .take_code(secret)
            .await
            .map_err(|e| OAuthError::storage(&e))?
        {
            CodeTaken::Fresh(code) => code,
            CodeTaken::Reused => {
                return Err(OAuthError::invalid_grant(
                    "this code was used before; the grant it opened is revoked",
                ))
            }
            CodeTaken::Unknown => {
                return Err(OAuthError::invalid_grant("the code is unknown or expired"))
            }
        };
        if code.terms.client_id != client_id {
            return Err(OAuthError::invalid_grant(
                "the code was issued to another client_id",
            ));
        }
        if form
            .redirect_uri
            .as_deref()
            .is_some_and(|uri| uri != code.redirect_uri)
        {
            return Err(OAuthError::invalid_grant(
                "redirect_uri is not the one the code was sent to",
            ));
        }
        if let Some(why) = pkce::refusal(verifier, &code.challenge) {
            return Err(OAuthError::invalid_grant(why));
        }
        self.check_resource(form, &code.terms.resource)?;
        let issued = desk
            .open_grant(secret, code.terms, self.lifetimes)
            .await
            .map_err(|e| OAuthError::storage(&e))?;
        tracing::info!(
            agent = %issued.grant.agent,
            client = %issued.grant.terms.client_name,
            "OAuth: a client is connected"
        );
        Ok(reply(&issued))
    }

    async fn refresh(&self, desk: &Desk, form: &TokenForm) -> Result<Value, OAuthError> {
        let token = required(&form.refresh_token, "refresh_token")?;
        let grant = desk
            .grant_of_token(token)
            .await
            .map_err(|e| OAuthError::storage(&e))?
            .ok_or_else(|| OAuthError::invalid_grant("the refresh token is unknown or revoked"))?;
        if form
            .client_id
            .as_deref()
            .is_some_and(|id| id != grant.terms.client_id)
        {
            return Err(OAuthError::invalid_grant(
                "the refresh token was issued to another client_id",
            ));
        }
        self.check_resource(form, &grant.terms.resource)?;
        match desk
            .refresh_grant(token, self.lifetimes)
            .await
            .map_err(|e| OAuthError::storage(&e))?
        {
            Refresh::Issued(issued) => Ok(reply(&issued)),
            Refresh::Reused => {
                tracing::warn!(agent = %grant.agent, "OAuth: a refresh token was used twice; its grant is revoked");
                Err(OAuthError::invalid_grant(
                    "this refresh token was used before; its grant is revoked, with every token of it",
                ))
            }
            Refresh::Unknown => Err(OAuthError::invalid_grant(
                "the refresh token is unknown, expired or revoked",
            )),
        }
    }

    /// `POST /oauth/revoke`: ends the grant of the token named, if the
    /// client named is its own (RFC 7009 answers `200` either way, so
    /// that the reply tells nothing of other clients' tokens).
    pub async fn revoke(&self, desk: &Desk, form: &TokenForm) -> Result<(), OAuthError> {
        let token = required(&form.token, "token")?;
        let grant = desk
            .grant_of_token(token)
            .await
            .map_err(|e| OAuthError::storage(&e))?;
        if let Some(grant) = grant {
            if form
                .client_id
                .as_deref()
                .is_none_or(|id| id == grant.terms.client_id)
            {
                desk.revoke_grant(&grant.id)
                    .await
                    .map_err(|e| OAuthError::storage(&e))?;
                tracing::info!(agent = %grant.agent, "OAuth: a grant is revoked by its client");
            }
        }
        Ok(())
    }
}

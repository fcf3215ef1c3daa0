//! Sign-in with the company's identity provider: askdesk as an OpenID
//! Connect relying party, through the `openidconnect` crate. The
//! authorization code flow with PKCE, `state` and `nonce`; the provider
//! found by discovery from its issuer; the ID token verified (signature,
//! issuer, audience, expiry, nonce) before its verified email names a
//! person of the desk.
//!
//! Nothing is kept on the server while a sign-in is under way: its state,
//! nonce, PKCE verifier and where to go after are in a cookie of the
//! browser that started it ([`FLOW_COOKIE`]), signed with a key the
//! desk's instances share, so the provider may send the browser back to
//! any of them.

#[cfg(test)]
mod tests;

use anyhow::Context;
use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use hmac::Mac;
use openidconnect::{
    core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata},
    AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointMaybeSet, EndpointNotSet,
    EndpointSet, IssuerUrl, Nonce, OAuth2TokenResponse, PkceCodeChallenge, PkceCodeVerifier,
    RedirectUrl, Scope, TokenResponse,
};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};
use tokio::sync::RwLock;

/// Where the provider sends the browser back, under the public URL.
pub const CALLBACK_PATH: &str = "/signin/oidc/callback";
/// The cookie that carries a sign-in under way.
pub const FLOW_COOKIE: &str = "askdesk_oidc";
/// How long a sign-in may take at the provider, in seconds.
pub const FLOW_SECONDS: u64 = 600;
/// How old the provider's metadata (its keys) may grow before it is
/// discovered again: providers rotate their signing keys.
const REDISCOVER_AFTER: Duration = Duration::from_secs(3600);
/// How long one request to the provider may take.
const PROVIDER_TIMEOUT: Duration = Duration::from_secs(10);
/// The name of the flow cookie's key among the desk's server keys.
const KEY_NAME: &str = "oidc-flow";

/// The client after discovery: an authorization endpoint, and the token
/// and user-info endpoints as the provider said.
type Client = CoreClient<
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointMaybeSet,
    EndpointMaybeSet,
>;

/// The identity provider people sign in with.
pub struct Oidc {
    issuer: IssuerUrl,
    client_id: ClientId,
    secret: ClientSecret,
    redirect: RedirectUrl,
    http: reqwest::Client,
    /// What discovery found, and when.
    discovered: RwLock<(Instant, CoreProviderMetadata)>,
    /// Signs flow cookies.
    key: Vec<u8>,
    /// What the sign-in page calls the provider: its issuer's host.
    name: String,
    /// [`Provider::trusted_domains`].
    trusted_domains: Vec<String>,
}

/// A sign-in under way, as its cookie carries it.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Flow {
    state: String,
    nonce: String,
    verifier: String,
    /// Where the browser goes once signed in: a path of this server.
    next: String,
    /// Until when (Unix seconds) the provider may send it back.
    until: u64,
}

/// Why a sign-in with the provider opened no session.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// No flow cookie, a forged or stale one, or another sign-in's state.
    #[error("the sign-in was not started in this browser, was started again, or took longer than {FLOW_SECONDS} seconds")]
    Flow,
    /// The provider said no, or could not be reached.
    #[error("the identity provider refused or failed: {0}")]
    Provider(String),
    /// The ID token did not check out.
    #[error("the ID token was refused: {0}")]
    Token(String),
    /// The ID token named no email the provider verified.
    #[error("the identity provider verified no email address")]
    Unverified,
}

/// What the provider sends the browser back with.
#[derive(Debug, Default, Deserialize)]
pub struct Callback {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
    error_description: Option<String>,
}

/// Which provider people sign in with, and askdesk's client there: the
/// `--oidc-*` flags, checked (the secret read from its file).
pub struct Provider {
    /// The issuer's URL, as `--oidc-issuer` gave it.
    pub issuer: String,
    /// askdesk's client id there.
    pub client_id: String,
    /// Its secret.
    pub secret: String,
    /// Domains whose addresses count as verified when the provider says
    /// nothing either way (`--oidc-trust-email-domain`), lower case.
    pub trusted_domains: Vec<String>,
}

impl Oidc {
    /// `provider`, discovered, for a server whose public URL is
    /// `public_url`; `None` without one. An issuer that cannot be
    /// discovered is an error naming the flag.
    pub async fn open(
        provider: Option<&Provider>,
        public_url: &str,
        desk: &desk::Desk,
    ) -> anyhow::Result<Option<Self>> {
        let Some(provider) = provider else {
            return Ok(None);
        };
        let issuer = IssuerUrl::new(provider.issuer.clone())
            .with_context(|| format!("--oidc-issuer {:?} is not a URL", provider.issuer))?;
        let client_id = ClientId::new(provider.client_id.clone());
        let secret = ClientSecret::new(provider.secret.clone());
        let http = reqwest::Client::builder()
            // The provider's endpoints answer; they never send askdesk on.
            .redirect(reqwest::redirect::Policy::none())
            .timeout(PROVIDER_TIMEOUT)
            .build()?;
        let metadata = CoreProviderMetadata::discover_async(issuer.clone(), &http)
            .await
            .with_context(|| {
                format!(
                    "--oidc-issuer {}: cannot discover it at {}/.well-known/openid-configuration",
                    issuer.as_str(),
                    issuer.as_str().trim_end_matches('/')
                )
            })?;
        let redirect = RedirectUrl::new(format!("{public_url}{CALLBACK_PATH}"))
            .with_context(|| format!("{public_url}{CALLBACK_PATH} is not a URL"))?;
        let mut fresh = [0u8; 32];
        getrandom::fill(&mut fresh).map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
        let key = desk
            .server_key(KEY_NAME, &hex::encode(fresh))
            .await
            .context("reading the sign-in key")?
            .into_bytes();
        let name = issuer
            .url()
            .host_str()
            .unwrap_or(issuer.as_str())
            .to_owned();
        Ok(Some(Self {
            issuer,
            client_id,
            secret,
            redirect,
            http,
            discovered: RwLock::new((Instant::now(), metadata)),
            key,
            name,
            trusted_domains: provider.trusted_domains.clone(),
        }))
    }

    /// What the sign-in page calls the provider.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Starts a sign-in that ends at `next`: where to send the browser,
    /// and the flow cookie's value, at `now` (Unix seconds).
    pub async fn begin(&self, next: &str, now: u64) -> (String, String) {
        let client = self.client().await;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state, nonce) = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .add_scope(Scope::new("email".to_owned()))
            .set_pkce_challenge(challenge)
            .url();
        let flow = Flow {
            state: state.secret().clone(),
            nonce: nonce.secret().clone(),
            verifier: verifier.secret().clone(),
            next: next.to_owned(),
            until: now + FLOW_SECONDS,
        };
        (url.to_string(), seal(&self.key, &flow))
    }

    /// Ends the sign-in whose cookie is `sealed` with what the provider
    /// sent back, at `now`: the verified email address, and where to go.
    pub async fn finish(
        &self,
        sealed: Option<&str>,
        callback: Callback,
        now: u64,
    ) -> Result<(String, String), Refusal> {
        let flow = sealed
            .and_then(|sealed| unseal(&self.key, sealed))
            .filter(|flow| flow.until > now)
            .ok_or(Refusal::Flow)?;
        if let Some(error) = callback.error {
            let description = callback.error_description.unwrap_or_default();
            return Err(Refusal::Provider(
                format!("{error} {description}").trim().to_owned(),
            ));
        }
        let (Some(code), Some(state)) = (callback.code, callback.state) else {
            return Err(Refusal::Flow);
        };
        if state != flow.state {
            return Err(Refusal::Flow);
        }
        let client = self.client().await;
        let response = client
            .exchange_code(AuthorizationCode::new(code))
            .map_err(|e| Refusal::Provider(e.to_string()))?
            .set_pkce_verifier(PkceCodeVerifier::new(flow.verifier))
            .request_async(&self.http)
            .await
            .map_err(|e| Refusal::Provider(e.to_string()))?;
        let token = response
            .id_token()
            .ok_or_else(|| Refusal::Token("the provider sent none".to_owned()))?;
        let claims = token
            .claims(&client.id_token_verifier(), &Nonce::new(flow.nonce))
            .map_err(|e| Refusal::Token(e.to_string()))?;
        let mut email = Email {
            address: claims.email().map(|e| e.as_str().to_owned()),
            verified: claims.email_verified(),
        };
        if !email.is_complete() {
            // A conforming provider sends the email's claims from its
            // UserInfo endpoint in the code flow, not in the ID token
            // (OpenID Connect Core 5.4).
            let told = client
                .user_info(
                    response.access_token().clone(),
                    Some(claims.subject().clone()),
                )
                .map_err(|e| Refusal::Provider(format!("no UserInfo endpoint: {e}")))?
                .request_async::<openidconnect::EmptyAdditionalClaims, _, openidconnect::core::CoreGenderClaim>(&self.http)
                .await
                .map_err(|e| match e {
                    openidconnect::UserInfoError::ClaimsVerification(e) => {
                        Refusal::Token(format!("UserInfo: {e}"))
                    }
                    e => Refusal::Provider(format!("UserInfo: {e}")),
                })?;
            email.fill(Email {
                address: told.email().map(|e| e.as_str().to_owned()),
                verified: told.email_verified(),
            });
        }
        match email.verified_address(&self.trusted_domains) {
            Some(address) => Ok((address, flow.next)),
            None => Err(Refusal::Unverified),
        }
    }

    /// A client for the provider as last discovered.
    async fn client(&self) -> Client {
        CoreClient::from_provider_metadata(
            self.metadata().await,
            self.client_id.clone(),
            Some(self.secret.clone()),
        )
        .set_redirect_uri(self.redirect.clone())
    }

    /// The provider's metadata, discovered again once it is
    /// [`REDISCOVER_AFTER`] old; what it said before while it cannot be.
    async fn metadata(&self) -> CoreProviderMetadata {
        {
            let discovered = self.discovered.read().await;
            if discovered.0.elapsed() < REDISCOVER_AFTER {
                return discovered.1.clone();
            }
        }
        let mut discovered = self.discovered.write().await;
        if discovered.0.elapsed() >= REDISCOVER_AFTER {
            match CoreProviderMetadata::discover_async(self.issuer.clone(), &self.http).await {
                Ok(metadata) => discovered.1 = metadata,
                Err(e) => tracing::warn!(
                    "discovering the identity provider again failed; using what it said before: {e}"
                ),
            }
            discovered.0 = Instant::now();
        }
        discovered.1.clone()
    }
}

/// What the provider said of the person's email, from the ID token and
/// then UserInfo.
#[derive(Debug, Default, PartialEq, Eq)]
struct Email {
    address: Option<String>,
    verified: Option<bool>,
}

impl Email {
    /// Whether both the address and whether it is verified are said.
    fn is_complete(&self) -> bool {
        self.address.is_some() && self.verified.is_some()
    }

    /// What `later` says that this did not.
    fn fill(&mut self, later: Self) {
        self.address = self.address.take().or(later.address);
        self.verified = self.verified.or(later.verified);
    }

    /// The address, if the provider verified it, or said nothing either
    /// way of an address in one of `trusted` domains.
    fn verified_address(self, trusted: &[String]) -> Option<String> {
        let address = self.address?;
        let domain = address.rsplit_once('@')?.1.to_ascii_lowercase();
        match self.verified {
            Some(true) => Some(address),
            None if trusted.contains(&domain) => Some(address),
            Some(false) | None => None,
        }
    }
}

/// `flow` as a cookie value: its JSON and its MAC, base64url.
fn seal(key: &[u8], flow: &Flow) -> String {
    let json = serde_json::to_vec(flow).unwrap_or_default();
    let tag = notify::mac::digest(key, &[&json]);
    format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(json),
        URL_SAFE_NO_PAD.encode(tag)
    )
}

/// The flow `sealed` carries, if this desk sealed it.
fn unseal(key: &[u8], sealed: &str) -> Option<Flow> {
    let (json, tag) = sealed.split_once('.')?;
    let json = URL_SAFE_NO_PAD.decode(json).ok()?;
    let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
    notify::mac::keyed(key, &[&json]).verify_slice(&tag).ok()?;
    serde_json::from_slice(&json).ok()
}

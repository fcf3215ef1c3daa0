//! askdesk as the OAuth authorization server of its own MCP endpoint, for
//! the hosts that connect only so (claude.ai, Claude's apps, ChatGPT):
//! the metadata of the endpoint and of the server, registration, the
//! token and revocation endpoints, and the consent page ([`consent`]).
//! The rules are the `oauth` crate's; this is their HTTP.
//!
//! Who may touch what: the metadata, registration, token and revocation
//! endpoints are anyone's (a client has no token before them; a code, a
//! refresh token or a token to revoke is its own capability); the consent
//! page only a person signed in to the desk, in a browser; the tokens it
//! leads to only `/mcp`, as the agent of the grant (`http::guard`).

mod consent;

use crate::AppState;
use ::oauth::{
    token::TokenForm, OAuthError, AUTHORIZE_PATH, REGISTER_PATH, RESOURCE_METADATA_PATH,
    RESOURCE_PATH, REVOKE_PATH, SERVER_METADATA_PATH, TOKEN_PATH,
};
use axum::{
    body::Bytes,
    extract::State,
    http::{
        header::{CACHE_CONTROL, PRAGMA},
        HeaderValue, StatusCode,
    },
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use serde_json::Value;
use tower_http::cors::{Any, CorsLayer};

/// OAuth's routes. All but the consent page answer any origin's scripts
/// (a web client exchanging its code reads the reply); none reads a
/// cookie.
pub fn routes() -> Router<AppState> {
    let any_origin = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods(Any)
        .allow_headers(Any);
    Router::new()
        .route(RESOURCE_METADATA_PATH, get(resource_metadata))
        .route(
            &format!("{RESOURCE_METADATA_PATH}{RESOURCE_PATH}"),
            get(resource_metadata),
        )
        .route(SERVER_METADATA_PATH, get(server_metadata))
        .route(REGISTER_PATH, post(register))
        .route(TOKEN_PATH, post(token))
        .route(REVOKE_PATH, post(revoke))
        .layer(any_origin)
        .route(AUTHORIZE_PATH, get(consent::page).post(consent::decide))
}

/// An OAuth error reply: its status, and `error` with its description.
fn refused(e: &OAuthError) -> Response {
    let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::BAD_REQUEST);
    no_store((status, Json(e)).into_response())
}

/// A reply that no cache may keep (RFC 6749 section 5.1).
fn no_store(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(PRAGMA, HeaderValue::from_static("no-cache"));
    response
}

/// `GET /.well-known/oauth-protected-resource[/mcp]` (RFC 9728).
async fn resource_metadata(State(state): State<AppState>) -> Json<Value> {
    Json(state.oauth.resource_metadata())
}

/// `GET /.well-known/oauth-authorization-server` (RFC 8414).
async fn server_metadata(State(state): State<AppState>) -> Json<Value> {
    Json(state.oauth.server_metadata())
}

/// `POST /oauth/register` (RFC 7591): a JSON body; `201` with the client.
async fn register(State(state): State<AppState>, body: Bytes) -> Response {
    let body: Value = match serde_json::from_slice(&body) {
        Ok(body) => body,
        Err(e) => {
            return refused(&OAuthError::bad(
                "invalid_client_metadata",
                format!("the body must be a JSON object: {e}"),
            ))
        }
    };
    match state.oauth.register(&state.desk, &body).await {
        Ok(client) => no_store((StatusCode::CREATED, Json(client)).into_response()),
        Err(e) => refused(&e),
    }
}

/// A form body (`application/x-www-form-urlencoded`).
fn form(body: &Bytes) -> Result<TokenForm, OAuthError> {
    serde_urlencoded::from_bytes(body).map_err(|e| {
        OAuthError::invalid_request(format!(
            "the body must be a form (application/x-www-form-urlencoded): {e}"
        ))
    })
}

/// `POST /oauth/token`: a code or a refresh token for tokens.
async fn token(State(state): State<AppState>, body: Bytes) -> Response {
    let result = match form(&body) {
        Ok(form) => state.oauth.token(&state.desk, &form).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(tokens) => no_store(Json(tokens).into_response()),
        Err(e) => refused(&e),
    }
}

/// `POST /oauth/revoke` (RFC 7009): `200` whether or not there was such
/// a token.
async fn revoke(State(state): State<AppState>, body: Bytes) -> Response {
    let result = match form(&body) {
        Ok(form) => state.oauth.revoke(&state.desk, &form).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(()) => no_store(StatusCode::OK.into_response()),
        Err(e) => refused(&e),
    }
}

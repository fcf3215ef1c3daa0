//! The pages' server functions (`/rpc/…`, [`app::rpc`]): their bodies
//! read before Leptos runs them. Leptos answers a body it cannot decode
//! with `500`, as if the server had failed; this answers it with `400`
//! and what the API says of a body that is not its JSON, the field named.

use crate::http::reply::error;
use axum::{
    body::{Body, Bytes},
    extract::{FromRequest, Request},
    http::StatusCode,
    middleware::Next,
    response::Response,
    Json,
};
use leptos::server_fn::ServerFn;
use serde::de::DeserializeOwned;

/// Whether a body decodes as the arguments `T`; the rejection that names
/// the field that does not, if not.
type Check = fn(&Bytes) -> Result<(), axum::extract::rejection::JsonRejection>;

fn decodes<T: DeserializeOwned>(
    body: &Bytes,
) -> Result<(), axum::extract::rejection::JsonRejection> {
    Json::<T>::from_bytes(body).map(drop)
}

/// Every server function's path and the check of its arguments. A test
/// holds this to the functions the app registers.
fn checks() -> [(&'static str, Check); 5] {
    use app::rpc::{AnswerAsk, DeclineAsk, ListDesk, LoadAsk, SearchHistory};
    [
        (<LoadAsk as ServerFn>::PATH, decodes::<LoadAsk>),
        (<AnswerAsk as ServerFn>::PATH, decodes::<AnswerAsk>),
        (<DeclineAsk as ServerFn>::PATH, decodes::<DeclineAsk>),
        (<ListDesk as ServerFn>::PATH, decodes::<ListDesk>),
        (<SearchHistory as ServerFn>::PATH, decodes::<SearchHistory>),
    ]
}

/// The middleware in front of the server functions: a body that is not
/// the arguments of the function it calls is `400`, naming the field;
/// any other request goes on with its body as it came.
pub async fn checked(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let Some((_, check)) = checks().into_iter().find(|(at, _)| *at == path) else {
        return next.run(request).await;
    };
    let (parts, body) = request.into_parts();
    // Read with axum's limit on bodies, as the ask page's form post is.
    let body = match Bytes::from_request(Request::from_parts(parts.clone(), body), &()).await {
        Ok(body) => body,
        Err(rejection) => return error(rejection.status(), rejection.body_text()),
    };
    if let Err(rejection) = check(&body) {
        return error(
            StatusCode::BAD_REQUEST,
            format!(
                "the body is not the JSON this call takes: {}",
                rejection.body_text()
            ),
        );
    }
    next.run(Request::from_parts(parts, Body::from(body))).await
}

#[cfg(test)]
mod tests {
    use super::checks;

    #[test]
    fn every_server_function_of_the_app_has_its_arguments_checked() {
        let checked: Vec<&str> = checks().iter().map(|(path, _)| *path).collect();
        let registered: Vec<&str> = leptos::server_fn::axum::server_fn_paths()
            .map(|(path, _)| path)
            .collect();
        assert!(!registered.is_empty());
        for path in &registered {
            assert!(checked.contains(path), "{path} is not checked");
        }
        assert_eq!(checked.len(), registered.len(), "{registered:?}");
    }
}

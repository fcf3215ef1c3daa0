//! The guard's check of who a request is, kept for a handler to repeat
//! when a wait ends: an agent removed, or a session ended, while it
//! waited is refused rather than handed what it waited for.

use super::{
    gate::Gate,
    identity::{identify, Identified},
    reply::{unauthorized, ApiError},
};
use axum::{
    http::{
        header::{AUTHORIZATION, COOKIE},
        HeaderMap, HeaderName, HeaderValue,
    },
    response::{IntoResponse, Response},
};
use desk::Caller;
use std::sync::Arc;

/// The guard's check of who a request is, for a handler to repeat when a
/// wait ends; the guard hands it to every request, with the request's
/// credentials.
#[derive(Clone)]
pub struct Recheck {
    gate: Arc<Gate>,
    /// The request's `Authorization` and `Cookie` headers, and no others.
    credentials: Vec<(HeaderName, HeaderValue)>,
}

impl Recheck {
    pub(super) fn new(gate: &Arc<Gate>, headers: &HeaderMap) -> Self {
        let credentials = [AUTHORIZATION, COOKIE]
            .into_iter()
            .flat_map(|name| {
                let values = headers.get_all(&name).iter().cloned();
                values.map(move |value| (name.clone(), value))
            })
            .collect();
        Self {
            gate: gate.clone(),
            credentials,
        }
    }

    /// Whether the credentials still name `caller`: the guard's refusal
    /// when they do not (a person removed, a session ended meanwhile).
    pub async fn still(&self, caller: &Caller) -> Result<(), Response> {
        let gate = &self.gate;
        let credentials: HeaderMap = self.credentials.iter().cloned().collect();
        let now = identify(&gate.security, &gate.desk, &credentials);
        match Box::pin(now).await {
            Ok(Identified::Caller(now) | Identified::Granted { caller: now, .. })
                if now == *caller =>
            {
                Ok(())
            }
            Ok(_) => Err(unauthorized(
                "this token is not one of this desk's (or it was removed)",
            )),
            Err(e) => Err(ApiError::from(e).into_response()),
        }
    }
}

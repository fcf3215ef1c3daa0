//! Errors that server functions return to the page.

use interaction::Problems;
use leptos::server_fn::{
    codec::JsonEncoding,
    error::{FromServerFnError, ServerFnErrorErr},
};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a server function could not do what the page asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ServerError {
    /// The answer broke rules of the `interaction` validator.
    Invalid(Problems),
    /// The call did not reach the server, or its reply did not come back.
    Transport(ServerFnErrorErr),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid(problems) => write!(f, "the answer was refused:\n{problems}"),
            Self::Transport(e) => write!(f, "could not reach the server: {e}"),
        }
    }
}

impl std::error::Error for ServerError {}

impl FromServerFnError for ServerError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        Self::Transport(value)
    }
}

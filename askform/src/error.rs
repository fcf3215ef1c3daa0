//! Errors that server functions return to the page. Their `Display` is
//! English, for logs; the page's words say them in its own language.

use interaction::{Ask, Problems};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a server function could not do what the page asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ServerError {
    /// The input broke rules of the `interaction` validator.
    Invalid(Problems),
    /// No ask has this id.
    NotFound,
    /// The ask has already ended, as shown; nothing was changed.
    Finished(Box<Ask>),
    /// This viewer may not do that here (the desk requires signing in to
    /// answer, or the ask is for someone else).
    Forbidden,
    /// The server failed; its log has the details.
    Internal,
    /// The call did not reach the server, or its reply did not come back
    /// readable: what went wrong.
    Transport(String),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid(problems) => write!(f, "the answer was refused:\n{problems}"),
            Self::NotFound => f.write_str("there is no ask at this address"),
            Self::Finished(ask) => write!(f, "this ask was already {}", ask.status.as_str()),
            Self::Forbidden => f.write_str("you may not answer this ask"),
            Self::Internal => f.write_str("the server failed; its log says why"),
            Self::Transport(e) => write!(f, "could not reach the server: {e}"),
        }
    }
}

impl std::error::Error for ServerError {}

#[cfg(feature = "server-fn")]
impl server_fn::error::FromServerFnError for ServerError {
    type Encoder = server_fn::codec::JsonEncoding;

    fn from_server_fn_error(value: server_fn::error::ServerFnErrorErr) -> Self {
        Self::Transport(value.to_string())
    }
}

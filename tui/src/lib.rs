//! askdesk in a terminal (`askdesk tui`, `askdesk answer`), in the Elm
//! shape: [`model`] holds the state and [`update`] changes it, [`view`]
//! draws it; [`terminal`] owns the terminal and runs the loop, and [`net`]
//! talks to a server through the `client` crate.
//!
//! Two modes: connected (a server's queue, answered through its HTTP API)
//! and keyless (a request file answered with no server; the validated
//! answers go to stdout).

pub mod args;
pub mod i18n;
pub mod model;
pub mod net;
pub mod session;
pub mod terminal;
pub mod text;
pub mod update;
pub mod view;

pub use args::{AnswerArgs, TuiArgs};

use interaction::{LenientAsk, Problems, ValidRequest};

/// Why a request file cannot be answered.
#[derive(Debug)]
pub enum FileError {
    /// It is not JSON of the expected shape.
    Json(serde_json::Error),
    /// Its questions break the validator's rules.
    Invalid(Problems),
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Json(e) => write!(f, "the request is not the JSON askdesk answer takes: {e}"),
            Self::Invalid(problems) => write!(f, "the request was refused:\n{problems}"),
        }
    }
}

impl std::error::Error for FileError {}

/// Reads and validates a request file.
pub fn read_request(json: &str) -> Result<(ValidRequest, Option<String>), FileError> {
    // The fields of `POST /api/v1/asks` that mean nothing without a server
    // (agent, timeout) are accepted and checked, then left unused.
    let file: LenientAsk = serde_json::from_str(json).map_err(FileError::Json)?;
    let ask = file.validate().map_err(FileError::Invalid)?;
    Ok((ask.request, ask.title))
}

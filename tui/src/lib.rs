//! askdesk in a terminal, in the Elm shape: [`model`] holds the state and
//! [`model::update`] changes it, [`view`] draws it, [`client`] talks to a
//! server; `main.rs` owns the terminal and runs the loop.
//!
//! Two modes: connected (a server's queue, answered through its HTTP API)
//! and keyless (a request file answered with no server; the validated
//! answers go to stdout).

pub mod client;
pub mod i18n;
pub mod model;
pub mod text;
pub mod view;

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
            Self::Json(e) => write!(f, "the request is not the JSON askdesk-tui takes: {e}"),
            Self::Invalid(problems) => write!(f, "the request was refused:\n{problems}"),
        }
    }
}

/// Reads and validates a request file.
pub fn read_request(json: &str) -> Result<(ValidRequest, Option<String>), FileError> {
    // The fields of `POST /api/v1/asks` that mean nothing without a server
    // (agent, timeout) are accepted and checked, then left unused.
    let file: LenientAsk = serde_json::from_str(json).map_err(FileError::Json)?;
    let ask = file.validate().map_err(FileError::Invalid)?;
    Ok((ask.request, ask.title))
}

//! The server functions the ask page's browser code calls, as it calls
//! them: their paths and arguments. `app` defines the functions (with
//! `#[server]`); its tests hold these to the functions' own `PATH`s and
//! argument types, so the two cannot drift apart.
//!
//! With feature `server-fn`, also the encoding every server function of
//! the pages uses ([`StrJsonEncoding`]).

use interaction::Answers;
use serde::Serialize;

/// `app::rpc::load_ask`: the ask and what its page shows.
pub const LOAD_ASK: &str = "/rpc/ask_load";
/// `app::rpc::answer_ask`: answers the ask.
pub const ANSWER_ASK: &str = "/rpc/ask_answer";
/// `app::rpc::decline_ask`: declines the ask.
pub const DECLINE_ASK: &str = "/rpc/ask_decline";

/// The arguments of [`LOAD_ASK`].
#[derive(Debug, Serialize)]
pub struct LoadArgs<'a> {
    /// The ask's id.
    pub id: &'a str,
}

/// The arguments of [`ANSWER_ASK`].
#[derive(Debug, Serialize)]
pub struct AnswerArgs<'a> {
    /// The ask's id.
    pub id: &'a str,
    /// The answers.
    pub answers: &'a Answers,
}

/// The arguments of [`DECLINE_ASK`].
#[derive(Debug, Serialize)]
pub struct DeclineArgs<'a> {
    /// The ask's id.
    pub id: &'a str,
    /// Why, for the agent (may be empty).
    pub reason: &'a str,
}

#[cfg(feature = "server-fn")]
pub use encoding::StrJsonEncoding;

#[cfg(feature = "server-fn")]
mod encoding {
    use serde::{de::DeserializeOwned, Serialize};
    use server_fn::{Bytes, ContentType, Decodes, Encodes, Format, FormatType};

    /// JSON like `server_fn`'s own codec, read with `serde_json::from_str`.
    ///
    /// The browser code reads its props from strings, and every type
    /// serde_json reads costs a bundle one copy of its decoder per reader
    /// (`from_slice` and `from_str` are two): reading replies as strings
    /// too keeps one.
    pub struct StrJsonEncoding;

    impl ContentType for StrJsonEncoding {
        const CONTENT_TYPE: &'static str = "application/json";
    }

    impl FormatType for StrJsonEncoding {
        const FORMAT_TYPE: Format = Format::Text;
    }

    impl<T: Serialize> Encodes<T> for StrJsonEncoding {
        type Error = serde_json::Error;

        fn encode(output: &T) -> Result<Bytes, Self::Error> {
            serde_json::to_vec(output).map(Into::into)
        }
    }

    impl<T: DeserializeOwned> Decodes<T> for StrJsonEncoding {
        type Error = serde_json::Error;

        fn decode(bytes: Bytes) -> Result<T, Self::Error> {
            let text = std::str::from_utf8(&bytes).map_err(|e| {
                <serde_json::Error as serde::de::Error>::custom(format_args!("not UTF-8: {e}"))
            })?;
            serde_json::from_str(text)
        }
    }
}

//! The answering form of askdesk's ask page, without a framework: its state
//! ([`state::FormState`]), its HTML ([`markup`]), the fields a plain form
//! post carries ([`form`]), the pages' words ([`i18n`]), the errors the
//! server functions return ([`error`]) and, with feature `browser`, the
//! browser code that takes the form over (`client`).
//!
//! The server (through `app`) writes the form with [`markup`]; the ask
//! page's wasm bundle links this crate alone, so the page a person opens
//! on a phone downloads no framework. `app` turns on feature `server-fn`,
//! which makes [`error::ServerError`] the server functions' error type.

#[cfg(feature = "browser")]
pub mod client;
pub mod error;
pub mod form;
pub mod i18n;
pub mod markup;
pub mod rpc;
pub mod state;

use form::Posted;
use i18n::Lang;
use interaction::ValidRequest;
use serde::{Deserialize, Serialize};

/// The element id of a pending ask's form, which the browser code takes
/// over.
pub const ROOT_ID: &str = "pending-ask";

/// The element id of the `<script type="application/json">` holding the
/// [`PendingProps`].
pub const PROPS_ID: &str = "ask-props";

/// What the ask page's browser code needs besides the form's HTML.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingProps {
    /// The pending ask's id.
    pub id: String,
    /// Its questions: decoding the props validates them.
    pub request: ValidRequest,
    /// A refused form post whose input and problems the page shows.
    pub posted: Option<Posted>,
    /// In an iframe: the host origin to tell when the ask finishes.
    pub notify: Option<String>,
    /// The page's language.
    pub lang: Lang,
}

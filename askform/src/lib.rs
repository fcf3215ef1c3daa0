//! The answering form's state without a framework: one
//! [`state::FormState`] with its transitions as plain methods, the fields a
//! plain form post carries ([`form`]), the pages' words ([`i18n`]) and the
//! errors the server functions return ([`error`]).
//!
//! `app`'s Leptos components hold a `FormState` in a signal and render it,
//! on the server and in the ask island; this crate does no I/O and knows no
//! browser, so its tests run natively. `app` turns on feature `server-fn`,
//! which makes [`error::ServerError`] the server functions' error type.

pub mod error;
pub mod form;
pub mod i18n;
pub mod state;

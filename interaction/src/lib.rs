//! The answer vocabulary of askdesk.
//!
//! An agent sends a [`Request`]: a batch of [`Question`]s. A human answers
//! with one [`AnswerItem`] per question. This crate owns what those mean; the
//! web page (compiled to wasm), the server, the terminal UI and the agent tool
//! all use it, so no rule about answers is written twice.
//!
//! Architecture invariant: this crate depends on serde and small pure crates
//! only, knows no UI or web framework, and does no I/O.

mod model;

pub use model::{AnswerItem, Answers, Question, QuestionOption, Request};

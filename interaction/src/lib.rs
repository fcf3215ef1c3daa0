//! The answer vocabulary of askdesk.
//!
//! An agent sends a [`Request`]: a batch of [`Question`]s. A human answers
//! with one [`AnswerItem`] per question. This crate owns what those mean; the
//! web page (compiled to wasm), the server, the terminal UI and the agent tool
//! all call it, so no rule about answers is written twice.
//!
//! - [`ValidRequest::new`] validates a request; [`LenientAsk`] decodes the
//!   looser shape agents often send and validates it the same way.
//! - [`ValidRequest::validate_answers`] checks answers against their request.
//! - [`QuestionDraft`] and [`BatchDraft`] hold answers in progress for a UI.
//! - [`project`] turns an [`Outcome`] into the text and structured value the
//!   agent's model reads.
//!
//! On a multi-select question one answer item may hold labels **and** custom
//! text; on single-select and optionless questions they are exclusive.
//!
//! # Problem codes
//!
//! Validators report every problem at once, each with a path such as
//! `answers[1].selected[0]`, one of these stable codes and a message.
//!
//! | code | path | meaning |
//! |---|---|---|
//! | `no_questions` | `questions` | the request has no questions |
//! | `too_many_questions` | `questions` | more than 50 questions |
//! | `invalid_id` | `questions[i].id` | id not 1–64 characters of `A-Za-z0-9_-` |
//! | `duplicate_id` | `questions[i].id` | another question has this id |
//! | `empty_question` | `questions[i].question` | question text blank |
//! | `question_too_long` | `questions[i].question` | over 4,000 characters |
//! | `header_too_long` | `questions[i].header` | over 40 characters |
//! | `too_many_options` | `questions[i].options` | more than 32 options |
//! | `empty_label` | `questions[i].options[j].label` | label blank |
//! | `label_too_long` | `questions[i].options[j].label` | over 200 characters |
//! | `duplicate_option` | `questions[i].options[j].label` | another option of the question has this label |
//! | `description_too_long` | `questions[i].options[j].description` | over 2,000 characters |
//! | `preview_too_long` | `questions[i].options[j].preview` | over 20,000 characters |
//! | `context_too_long` | `context` | over 4,000 characters |
//! | `multi_select_without_options` | `questions[i].multiSelect` | multi-select needs at least one option |
//! | `unknown_format` | `questions[i].format` | not `integer`, `number`, `date`, `date-time`, `email` or `uri` |
//! | `format_with_options` | `questions[i].format`, `questions[i].default` | a format or a default on a question with options |
//! | `invalid_bound` | `questions[i].minimum`, `questions[i].maximum` | not a value of the format, on a format without order (or none), or `maximum` below `minimum` |
//! | `invalid_default` | `questions[i].default` | not a valid answer to the question (its format and bounds) |
//! | `unknown_question` | `answers[i].id` | no question has this id |
//! | `duplicate_answer` | `answers[i].id` | the question is answered twice |
//! | `missing_answer` | `answers` | a question has no answer |
//! | `unknown_label` | `answers[i].selected[j]` | not an option of the question |
//! | `duplicate_label` | `answers[i].selected[j]` | selected twice |
//! | `too_many_selected` | `answers[i].selected` | single-select with more than one label |
//! | `empty_custom` | `answers[i].custom` | custom text present but blank |
//! | `custom_too_long` | `answers[i].custom` | over 10,000 characters |
//! | `empty_answer` | `answers[i]` | neither a label nor custom text |
//! | `exclusive_custom` | `answers[i].custom` | single-select or optionless with both a label and custom text |
//! | `invalid_format` | `answers[i].custom` | typed text that is not of the question's format |
//! | `out_of_range` | `answers[i].custom` | typed text below the question's `minimum` or above its `maximum` |
//! | `title_too_long` | `title` | an ask's title over 200 characters |
//! | `agent_too_long` | `agent` | the agent's name over 100 characters |
//! | `timeout_out_of_range` | `timeoutSeconds` | not between 1 and 604,800 (7 days) |
//! | `defaults_without_timeout` | `defaultAnswers` | default answers on an ask without `timeoutSeconds` |
//! | `reason_too_long` | `reason` | a decline reason over 10,000 characters |
//! | `invalid_idempotency_key` | `idempotencyKey` (MCP), `Idempotency-Key` (HTTP) | not 1–200 visible ASCII characters |
//! | `idempotency_conflict` | `idempotencyKey`, `Idempotency-Key` | the key was used for an ask with other content |
//! | `invalid_recipient` | `to[i]` | not a person's name (1–64 characters of `A-Za-z0-9._-`), named twice, or more than 20 names |
//! | `unknown_recipient` | `to[i]` | no person of the desk has this name |
//! | `invalid_session` | `session` | not 1–64 characters of `A-Za-z0-9_-` |
//! | `session_taken` | `session` | another agent's session (the agent that first named it reads it) |
//! | `empty_message` | `text` | a message to the agent's session that is blank |
//! | `message_too_long` | `text` | a message over 10,000 characters |
//! | `control_character` | any text: `questions[i].question`, `title`, `answers[i].custom`, `reason`, … | a control character (C0, DEL or C1: U+0000–U+001F, U+007F–U+009F) other than tab and newline |
//!
//! Lengths count Unicode scalar values; "blank" means empty after trimming
//! whitespace.
//!
//! Architecture invariant: this crate depends on serde and small pure crates
//! only, knows no UI or web framework, and does no I/O. With the feature
//! `schema` (the server's, never a browser bundle's) the wire types also
//! derive their JSON Schemas with `schemars`: the MCP tools' schemas and
//! the OpenAPI document's components are those.

mod ask;
mod chars;
mod decline;
mod delivery;
mod draft;
mod event;
mod format;
mod idempotency;
mod lang;
mod lenient;
mod listing;
mod message;
mod model;
mod people;
mod problem;
mod projection;
#[cfg(feature = "schema")]
mod schema;
#[cfg(feature = "schema")]
pub use schema::{AskPath, SessionPath};
mod time;
mod validate;

pub use ask::{
    Ask, AskCreated, AskStatus, ErrorBody, NewAsk, ValidNewAsk, MAX_AGENT_CHARS,
    MAX_TIMEOUT_SECONDS, MAX_TITLE_CHARS,
};
pub use decline::{Decline, Declined, ValidDecline};
pub use delivery::{Delivery, DeliveryState, Notice};
pub use draft::{BatchDraft, Blocker, QuestionDraft, Reason};
pub use event::{AskEvent, ResetEvent, ASK_EVENT, RESET_EVENT};
pub use format::{Format, Scalar};
pub use idempotency::{IdempotencyKey, MAX_IDEMPOTENCY_KEY_CHARS};
pub use lang::Lang;
pub use lenient::{LenientAsk, LenientOption, LenientQuestion};
pub use listing::{AskList, AskSummary, PAGE_LIMIT};
pub use message::{is_session, NewMessage, SessionMessage, SessionMessages, MAX_MESSAGE_CHARS};
pub use model::{AnswerItem, Answers, Question, QuestionOption, Request};
pub use people::{
    check_recipients, is_person_name, person_email, person_name_problem, Me, Role, Via,
    MAX_EMAIL_CHARS, MAX_PERSON_NAME_CHARS, MAX_RECIPIENTS,
};
pub use problem::{Problem, ProblemCode, Problems};
pub use projection::{claude_code_answer, json_quote, project, Outcome, Structured, ToolOutput};
pub use time::{NotATime, Timestamp};
pub use validate::{
    with_visible_controls, ValidAnswers, ValidRequest, MAX_CONTEXT_CHARS, MAX_CUSTOM_CHARS,
    MAX_DESCRIPTION_CHARS, MAX_HEADER_CHARS, MAX_ID_CHARS, MAX_LABEL_CHARS, MAX_OPTIONS,
    MAX_PREVIEW_CHARS, MAX_QUESTIONS, MAX_QUESTION_CHARS,
};

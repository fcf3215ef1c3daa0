//! The server's tests, one binary: the router driven in-process with
//! `tower::ServiceExt::oneshot`, and a few real sockets.

// The 100-line rule is `src/`'s: a scenario reads best as one story.
#![allow(clippy::too_many_lines)]

mod allocator;
mod api;
mod assets;
mod backup;
mod channel;
mod client_tls;
mod common;
mod contract;
mod database;
mod defaults;
mod docs;
mod doctor;
mod elicitation;
mod events;
mod faults;
mod health;
mod hook;
mod logs;
mod messages;
mod metrics;
mod notify;
mod oauth;
mod oidc;
mod owners;
mod pages;
mod people;
mod permission;
mod phone;
mod retention;
mod security;
mod serving;
mod session;
mod setup;
mod shell;
mod stop;
mod tls;
mod trust;
mod upgrade;
mod user_input;

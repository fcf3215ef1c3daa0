//! The agents' doors to the desk: how an agent's question reaches a
//! person, whatever the agent speaks.
//!
//! - [`backend`]: the desk an agent's door uses, this process's own or
//!   another askdesk server's (over `client`), with one error.
//! - [`mcp`]: the MCP server (`ask_user`, `await_answer`, `cancel_ask`;
//!   2026-07-28's rounds and tasks; askdesk's form as an MCP App; Claude
//!   Code's channel), over any transport rmcp serves; the binary mounts it
//!   at `/mcp` and on stdio.
//! - [`hook`]: the hooks of Claude Code and Codex, one pipeline for every
//!   event.
//! - [`acp`]: an Agent Client Protocol proxy between an editor and its
//!   agent, putting the agent's permission prompts and forms to the desk
//!   too.
//! - [`opencode`]: OpenCode's questions and permission requests, followed
//!   on its server's event stream and answered at the desk.
//! - [`detached`]: the desk `askdesk mcp` and the hooks find at their URL,
//!   or start there as a process of its own.
//! - [`limit`]: how many asks an agent may make a minute.
//!
//! It knows nothing of HTTP routes or flags: the binary hands it a
//! [`backend::Backend`] (or a [`detached::Place`] to find one at, with the
//! command line that serves one) and the site's files
//! ([`mcp::hosted::SiteFiles`]).

pub mod acp;
pub mod backend;
pub mod detached;
pub mod hook;
pub mod limit;
pub mod mcp;
pub mod opencode;

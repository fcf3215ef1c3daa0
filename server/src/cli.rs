//! The commands `askdesk` runs: their settings ([`config`]), starting and
//! serving the desk ([`run`]), people,
//! the check of agents' setups ([`doctor`]), MCP over stdio ([`stdio`]),
//! removing old asks ([`retention`]), backups ([`backup`]), setting agents
//! up ([`setup`]), and completions and the manual page ([`shell`]). The
//! hooks, MCP and the desk they start in the background are the `agents`
//! crate's.

pub mod backup;
pub mod config;
pub mod doctor;
pub mod people;
pub mod run;
pub mod setup;
pub mod shell;
pub mod stdio;

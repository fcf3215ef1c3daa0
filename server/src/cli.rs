//! The commands `askdesk` runs: their settings ([`config`]), starting and
//! serving the desk ([`run`]), running it in the background ([`detached`]),
//! people, the agents' hooks and MCP over stdio.

pub mod config;
pub mod detached;
pub mod hook;
pub mod people;
pub mod run;
pub mod stdio;

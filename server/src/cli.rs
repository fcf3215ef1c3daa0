//! The commands `askdesk` runs: their settings ([`config`]), starting and
//! serving the desk ([`run`]), running it in the background ([`detached`]),
//! people, the agents' hooks and their check ([`doctor`]), MCP over stdio, removing old asks
//! ([`retention`]), backups ([`backup`]), setting agents up ([`setup`]), and
//! completions and the manual page ([`shell`]).

pub mod backup;
pub mod config;
pub mod detached;
pub mod doctor;
pub mod hook;
pub mod people;
pub mod retention;
pub mod run;
pub mod setup;
pub mod shell;
pub mod stdio;

//! The terminal UI's tests, one binary: `update` key by key, `view` drawn
//! into a buffer, and (ignored unless the `tui` suite runs them) the
//! `askdesk` binary in tmux.

mod tmux;
mod update;
mod view;

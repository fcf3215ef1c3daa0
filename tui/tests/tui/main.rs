//! The terminal UI's tests, one binary: `update` key by key, `view` drawn
//! into a buffer, and (ignored unless the `tui` suite runs them) the
//! `askdesk` binary in tmux.

// The 100-line rule is `src/`'s: a scenario reads best as one story.
#![allow(clippy::too_many_lines)]

mod tmux;
mod update;
mod view;

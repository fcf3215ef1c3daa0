//! What a command-line user expects beside `--help`: completion scripts
//! and a manual page, both generated from the one clap definition
//! ([`Cli`]), so neither can drift from the options askdesk takes.

use crate::cli::config::Cli;
use clap::CommandFactory;
use std::io::Write;

/// Writes `shell`'s completion script for askdesk to `out`.
pub fn completions(shell: clap_complete::Shell, out: &mut impl Write) {
    clap_complete::generate(shell, &mut Cli::command(), "askdesk", out);
}

/// Writes askdesk's manual page, in roff, to `out`.
pub fn manual(out: &mut impl Write) -> std::io::Result<()> {
    clap_mangen::Man::new(Cli::command()).render(out)
}

//! `cargo xtask tidy`: the workspace's own checks (see the library).

use std::process::ExitCode;

fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        Some("tidy") => {
            // Another checkout's, when one is named.
            let root = std::env::args()
                .nth(2)
                .map_or_else(xtask::workspace, std::path::PathBuf::from);
            let problems = xtask::tidy(&root);
            for problem in &problems {
                eprintln!("{problem}");
            }
            if problems.is_empty() {
                println!("tidy: the workspace keeps ARCHITECTURE.md's rules");
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        _ => {
            eprintln!("usage: cargo xtask tidy [WORKSPACE]");
            ExitCode::FAILURE
        }
    }
}

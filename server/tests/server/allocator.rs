//! The server's allocator runs with the settings `.cargo/config.toml`
//! builds into it: one arena, so that waiting connections do not leave
//! partly used pages in several (bench/waiters.sh).

use std::process::Command;

#[test]
fn the_allocator_keeps_one_arena() {
    // jemalloc prints its settings and statistics at exit when asked to.
    let output = Command::new(env!("CARGO_BIN_EXE_askdesk"))
        .arg("--version")
        .env("_RJEM_MALLOC_CONF", "stats_print:true")
        .output()
        .expect("askdesk runs");
    assert!(output.status.success());
    let stats = String::from_utf8_lossy(&output.stderr);
    assert!(
        stats.contains("opt.narenas: 1\n"),
        "jemalloc's settings, as it printed them:\n{}",
        stats.lines().take(40).collect::<Vec<_>>().join("\n")
    );
}

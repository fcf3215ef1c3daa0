//! The workspace keeps the rules ARCHITECTURE.md promises, and the checks
//! would see each one broken.

use std::{fs, path::Path};

#[test]
fn the_workspace_keeps_architecture_mds_rules() {
    let problems = xtask::tidy(&xtask::workspace());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A small workspace: `low` below `high`, each with its entry.
fn workspace(dir: &Path, high_depends_on: &str, long_file: bool, map: &str) {
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
        fs::write(path, text).expect("written");
    };
    write("Cargo.toml", "[workspace]\nmembers = [\"high\", \"low\"]\n");
    write(
        "high/Cargo.toml",
        &format!("[package]\nname = \"high\"\n[dependencies]\n{high_depends_on} = {{ path = \"../{high_depends_on}\" }}\n"),
    );
    write(
        "low/Cargo.toml",
        "[package]\nname = \"low\"\n[dependencies]\nserde = \"1\"\n",
    );
    write("high/src/lib.rs", "");
    let lines = if long_file { 401 } else { 3 };
    write("low/src/lib.rs", &"//\n".repeat(lines));
    write(
        "ARCHITECTURE.md",
        &format!(
            "## The crates\n\n```\nhigh     the top\nlow      the bottom\n```\n\n\
             ### `high`: top\n\nNothing depends on it. {map}\n\n\
             ### `low`: bottom\n\n**May not:** depend on `high`.\n"
        ),
    );
}

#[test]
fn a_dependency_up_a_long_file_and_a_missing_path_are_each_reported() {
    let dir = tempfile_dir();
    workspace(&dir, "low", false, "`src/lib.rs`");
    assert_eq!(xtask::tidy(&dir), Vec::<String>::new(), "a tidy workspace");

    fs::write(
        dir.join("low/Cargo.toml"),
        "[package]\nname = \"low\"\n[dependencies]\nhigh = { path = \"../high\" }\n",
    )
    .expect("written");
    let problems = xtask::tidy(&dir);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`low` depends on `high`")),
        "{problems:?}"
    );

    let dir = tempfile_dir();
    workspace(&dir, "low", true, "`src/gone.rs`");
    let problems = xtask::tidy(&dir);
    assert!(
        problems.iter().any(|p| p.contains("401 lines")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`src/gone.rs` (in `high`) does not exist")),
        "{problems:?}"
    );
}

/// A fresh folder under the target directory, for one test.
fn tempfile_dir() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "xtask-tidy-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("folder");
    dir
}

//! `cargo test` with libtest's JUnit output (`-Z unstable-options --format
//! junit`: libtest takes unstable options when `RUSTC_BOOTSTRAP=1` is set
//! when the tests run, as it is for every cargo call here). Each test
//! binary, doc-tests too, prints one document on standard output when it
//! ends, instead of its console lines; those are kept in the report, and
//! the console gets each binary's counts and its failed tests with what
//! they printed. Cargo's own lines ("Running …") are on standard error, as
//! before.

use std::{
    fs,
    io::{BufRead, BufReader, Write},
    path::Path,
    process::{Command, Stdio},
};

use crate::{
    junit::{tally, Piece, Splitter},
    process::{at, shown, succeeded, Error, Result},
};

/// Runs `cargo` (a `cargo test` command) with JUnit output, written to
/// `report`.
pub fn junit(cargo: &mut Command, report: &Path) -> Result {
    junit_showing(cargo, report, &mut std::io::stdout())
}

/// [`junit`], showing what it shows on `console`.
fn junit_showing(cargo: &mut Command, report: &Path, console: &mut dyn Write) -> Result {
    if !cargo.get_args().any(|a| a == "--") {
        cargo.arg("--");
    }
    cargo
        .args(["-Z", "unstable-options", "--format", "junit"])
        .stdout(Stdio::piped());
    let mut file = fs::File::create(report).map_err(at(report))?;
    let mut child = cargo
        .spawn()
        .map_err(|e| Error::new(format!("{}: {e}", shown(cargo))))?;
    let stdout = child.stdout.take().ok_or_else(|| Error::new("no stdout"))?;
    let mut reader = BufReader::new(stdout);
    let mut splitter = Splitter::default();
    let mut line = Vec::new();
    while reader.read_until(b'\n', &mut line)? > 0 {
        for piece in splitter.push(&String::from_utf8_lossy(&line)) {
            show(piece, &mut file, console)?;
        }
        line.clear();
    }
    if let Some(piece) = splitter.finish() {
        show(piece, &mut file, console)?;
    }
    let status = child.wait()?;
    succeeded(cargo, status)
}

/// A document into the report and its counts onto the console; any other
/// text onto the console as it came.
fn show(piece: Piece, report: &mut fs::File, out: &mut dyn Write) -> Result {
    match piece {
        Piece::Other(text) => out.write_all(text.as_bytes())?,
        Piece::Document(document) => {
            writeln!(report, "{document}")?;
            match tally(&document) {
                Ok(tally) => {
                    for failed in &tally.failures {
                        writeln!(out, "\n---- {} ----\n{}\n", failed.name, failed.output)?;
                    }
                    let verdict = if tally.failed == 0 { "ok" } else { "FAILED" };
                    writeln!(out, "    {verdict}: {}", tally.counts())?;
                }
                Err(why) => writeln!(out, "    (a JUnit report that does not parse: {why})")?,
            }
        }
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{junit::documents, process::TempDir};

    #[test]
    fn the_documents_go_to_the_report_and_the_exit_status_decides() {
        let dir = TempDir::new(&std::env::temp_dir(), "xtask-libtest-").expect("a folder");
        let report = dir.path().join("unit.xml");
        // A stand-in for cargo: two binaries' documents, a line between.
        let script = r#"printf '%s\n' '<?xml version="1.0"?><testsuites><testsuite skipped="1"><testcase classname="a" name="b"/></testsuite></testsuites>' 'a child said this' '<?xml version="1.0"?><testsuites><testsuite skipped="0"><testcase classname="c" name="d"><failure/></testcase></testsuite></testsuites>'; exit "$0""#;
        let mut console = Vec::new();
        let passed = junit_showing(
            Command::new("sh").args(["-c", script, "0"]),
            &report,
            &mut console,
        );
        assert!(passed.is_ok(), "{passed:?}");
        assert_eq!(
            String::from_utf8_lossy(&console),
            "    ok: 1 passed, 0 failed, 1 skipped\na child said this\n\n---- c::d ----\n\n\n    \
             FAILED: 0 passed, 1 failed, 0 skipped\n"
        );
        let written = fs::read_to_string(&report).expect("a report");
        assert_eq!(documents(&written).len(), 2);
        assert!(!written.contains("a child said this"), "only documents");

        let failed = junit_showing(
            Command::new("sh").args(["-c", script, "101"]),
            &report,
            &mut Vec::new(),
        );
        assert!(
            failed.is_err(),
            "a failed run fails, whatever its report says"
        );
    }
}

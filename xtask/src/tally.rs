//! What a suite's tests came to: how many passed, failed and were
//! skipped, and which failed, with what they said.

/// One failed test: its name (`module::test`, `file::title`) and what it
/// printed or reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed {
    pub name: String,
    pub output: String,
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    pub failures: Vec<Failed>,
}

impl Tally {
    /// `other` added to this one.
    pub fn add(&mut self, other: Tally) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.skipped += other.skipped;
        self.failures.extend(other.failures);
    }

    /// "N passed, M failed, K skipped".
    pub fn counts(&self) -> String {
        format!(
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )
    }

    /// A tally of libtest's console output, for wasm-bindgen-test-runner,
    /// which has no JUnit report: each binary's "test result:" line, and
    /// the tests it marks `FAIL` or `FAILED` (their output is in the log).
    pub fn of_libtest_console(text: &str) -> Tally {
        let mut tally = Tally::default();
        for line in text.lines() {
            if let Some(result) = line.strip_prefix("test result: ") {
                tally.passed += count(result, "passed");
                tally.failed += count(result, "failed");
                tally.skipped += count(result, "ignored");
            } else if let Some(name) = line.strip_prefix("test ").and_then(|l| {
                l.strip_suffix(" ... FAIL")
                    .or_else(|| l.strip_suffix(" ... FAILED"))
            }) {
                tally.failures.push(Failed {
                    name: name.to_owned(),
                    output: String::new(),
                });
            }
        }
        tally
    }
}

/// N of "…; N `what`; …" in a "test result:" line, 0 if not there.
fn count(result: &str, what: &str) -> usize {
    result
        .split([';', '.'])
        .filter_map(|part| part.trim().strip_suffix(what))
        .find_map(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libtests_console_results_are_summed_and_failures_named() {
        let log = "\
running 3 tests
test browser::types_first ... ok
test browser::draft_survives ... FAIL
test browser::other ... ignored, slow

failures:
    browser::draft_survives

test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 filtered out; finished in 2.10s

test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s
";
        let tally = Tally::of_libtest_console(log);
        assert_eq!((tally.passed, tally.failed, tally.skipped), (5, 1, 1));
        assert_eq!(tally.failures.len(), 1);
        assert_eq!(tally.failures[0].name, "browser::draft_survives");
        assert_eq!(tally.counts(), "5 passed, 1 failed, 1 skipped");
    }
}

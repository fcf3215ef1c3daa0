//! The end of `cargo xtask test`: which suites passed, each suite's counts
//! from its reports, the tests that failed, and one total line.

use crate::tally::Tally;

/// How one suite went.
pub struct Outcome {
    pub suite: &'static str,
    pub passed: bool,
    pub seconds: u64,
    /// Its tests' counts, when it has a report.
    pub tally: Option<Tally>,
}

/// The summary of `outcomes`, ending with `tests: N passed, M failed`.
pub fn render(outcomes: &[Outcome]) -> String {
    let suites = |passed: bool| {
        let named: Vec<String> = outcomes
            .iter()
            .filter(|o| o.passed == passed)
            .map(|o| format!("{} ({}s)", o.suite, o.seconds))
            .collect();
        if named.is_empty() {
            "none".to_owned()
        } else {
            named.join(" ")
        }
    };
    let mut text = format!(
        "suites passed: {}\nsuites failed: {}\n",
        suites(true),
        suites(false)
    );
    let mut total = Tally::default();
    let mut failed = Vec::new();
    for outcome in outcomes {
        let Some(tally) = &outcome.tally else {
            continue;
        };
        text.push_str(&format!("{}: {}\n", outcome.suite, tally.counts()));
        failed.extend(
            tally
                .failures
                .iter()
                .map(|f| (outcome.suite, f.name.as_str())),
        );
        total.add(Tally {
            failures: Vec::new(),
            ..tally.clone()
        });
    }
    if !failed.is_empty() {
        text.push_str("failed tests:\n");
        for (suite, name) in failed {
            text.push_str(&format!("  {suite}: {name}\n"));
        }
    }
    text.push_str(&format!(
        "tests: {} passed, {} failed\n",
        total.passed, total.failed
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::Failed;

    #[test]
    fn the_summary_names_the_suites_their_counts_the_failures_and_a_total() {
        let outcomes = [
            Outcome {
                suite: "fmt",
                passed: true,
                seconds: 2,
                tally: None,
            },
            Outcome {
                suite: "unit",
                passed: true,
                seconds: 90,
                tally: Some(Tally {
                    passed: 700,
                    skipped: 4,
                    ..Tally::default()
                }),
            },
            Outcome {
                suite: "e2e",
                passed: false,
                seconds: 300,
                tally: Some(Tally {
                    passed: 80,
                    failed: 1,
                    skipped: 0,
                    failures: vec![Failed {
                        name: "phone.spec.ts::signs in".into(),
                        output: "timeout".into(),
                    }],
                }),
            },
        ];
        assert_eq!(
            render(&outcomes),
            "suites passed: fmt (2s) unit (90s)\n\
             suites failed: e2e (300s)\n\
             unit: 700 passed, 0 failed, 4 skipped\n\
             e2e: 80 passed, 1 failed, 0 skipped\n\
             failed tests:\n  e2e: phone.spec.ts::signs in\n\
             tests: 780 passed, 1 failed\n"
        );
    }

    #[test]
    fn no_suite_failed_and_no_counts() {
        let outcomes = [Outcome {
            suite: "clippy",
            passed: true,
            seconds: 1,
            tally: None,
        }];
        assert_eq!(
            render(&outcomes),
            "suites passed: clippy (1s)\nsuites failed: none\ntests: 0 passed, 0 failed\n"
        );
    }
}

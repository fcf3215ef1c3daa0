//! JUnit XML, as the runners write it: libtest's (`--format junit`, one
//! document per test binary, doc-tests too, one after another on standard
//! output), pytest's `--junitxml`, Playwright's junit reporter and
//! schemathesis' `--report junit`. Read into a [`Tally`].

use roxmltree::{Document, Node};

use crate::tally::{Failed, Tally};

/// What a stream of test output holds: JUnit documents, and the lines
/// between them (anything a test's child process printed straight to the
/// terminal), in order.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece {
    Document(String),
    Other(String),
}

/// Splits a stream fed line by line into JUnit documents and the text
/// around them. A document starts at `<?xml` (or `<testsuites` without
/// one) and ends after the last `</testsuites>` of a line: libtest writes
/// each document on one line, and a failed test's output in it may hold
/// the words too.
#[derive(Default)]
pub struct Splitter {
    document: Option<String>,
}

const START: [&str; 2] = ["<?xml", "<testsuites"];
const END: &str = "</testsuites>";

impl Splitter {
    /// What `line` completes: text outside documents (the line's own, with
    /// its newline), and whole documents.
    pub fn push(&mut self, mut line: &str) -> Vec<Piece> {
        let mut pieces = Vec::new();
        loop {
            if let Some(document) = &mut self.document {
                let Some(end) = line.rfind(END) else {
                    document.push_str(line);
                    return pieces;
                };
                let end = end + END.len();
                document.push_str(&line[..end]);
                pieces.push(Piece::Document(std::mem::take(document)));
                self.document = None;
                line = &line[end..];
                if line.trim().is_empty() {
                    return pieces;
                }
            } else {
                let Some(start) = START.iter().filter_map(|s| line.find(s)).min() else {
                    pieces.push(Piece::Other(line.to_owned()));
                    return pieces;
                };
                if !line[..start].trim().is_empty() {
                    pieces.push(Piece::Other(format!("{}\n", &line[..start])));
                }
                self.document = Some(String::new());
                line = &line[start..];
            }
        }
    }

    /// Whatever is left: a document never finished, as text.
    pub fn finish(self) -> Option<Piece> {
        self.document.map(Piece::Other)
    }
}

/// Every document in `text` (a report file, or a stream saved whole).
pub fn documents(text: &str) -> Vec<String> {
    let mut splitter = Splitter::default();
    text.split_inclusive('\n')
        .flat_map(|line| splitter.push(line))
        .filter_map(|piece| match piece {
            Piece::Document(d) => Some(d),
            Piece::Other(_) => None,
        })
        .collect()
}

/// The tally of one JUnit document. A test case with a `<failure>` or an
/// `<error>` failed, one with `<skipped>` was skipped, and any other
/// passed. libtest lists no case for an ignored test, only counts it in
/// its suite's `skipped`, so a suite's skipped is the larger of the two.
pub fn tally(document: &str) -> Result<Tally, String> {
    match Document::parse(document) {
        Ok(parsed) => Ok(count(&parsed)),
        Err(why) => {
            // A test's output may hold what XML 1.0 allows in no document
            // (a terminal's colour codes): dropped, rather than the whole
            // report.
            let allowed = |c: &char| *c >= ' ' || "\t\n\r".contains(*c);
            let cleaned: String = document.chars().filter(allowed).collect();
            if cleaned.len() == document.len() {
                return Err(why.to_string());
            }
            let parsed = Document::parse(&cleaned).map_err(|e| e.to_string())?;
            Ok(count(&parsed))
        }
    }
}

/// The counts of a parsed report.
fn count(document: &Document) -> Tally {
    let mut tally = Tally::default();
    for suite in document
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
    {
        let mut skipped = 0;
        for case in suite.children().filter(|n| n.has_tag_name("testcase")) {
            let failures: Vec<Node> = case
                .children()
                .filter(|n| n.has_tag_name("failure") || n.has_tag_name("error"))
                .collect();
            if !failures.is_empty() {
                tally.failed += 1;
                tally.failures.push(failed(case, &failures));
            } else if case.children().any(|n| n.has_tag_name("skipped")) {
                skipped += 1;
            } else {
                tally.passed += 1;
            }
        }
        let counted = suite.attribute("skipped").and_then(|s| s.parse().ok());
        tally.skipped += skipped.max(counted.unwrap_or(0));
    }
    tally
}

/// A failed case: `classname::name`, and its failures' messages and text
/// and what it printed (libtest puts the panic there).
fn failed(case: Node, failures: &[Node]) -> Failed {
    let name = match (case.attribute("classname"), case.attribute("name")) {
        (Some(class), Some(name)) if !class.is_empty() => format!("{class}::{name}"),
        (_, name) => name.unwrap_or("?").to_owned(),
    };
    let mut output = Vec::new();
    for failure in failures {
        output.extend(failure.attribute("message").map(str::to_owned));
        output.push(text(*failure));
    }
    for printed in case.children().filter(|n| n.has_tag_name("system-out")) {
        output.push(text(printed));
    }
    output.retain(|o| !o.trim().is_empty());
    Failed {
        name,
        output: output.join("\n"),
    }
}

/// The text in `node`, its CDATA sections joined.
fn text(node: Node) -> String {
    node.descendants()
        .filter(Node::is_text)
        .filter_map(|n| n.text())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two binaries' documents as libtest prints them, with a line a
    /// test's child printed between them.
    const LIBTEST: &str = concat!(
        r#"<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="test" package="test" id="0" errors="0" failures="1" tests="4" skipped="1" ><testcase classname="tests" name="panics" time="0"/><testcase classname="tests" name="passes" time="0"/><testcase classname="tests" name="fails" time="0"><failure type="assert"/><system-out><![CDATA[some output]]>&#xA;<![CDATA[assertion `left == right` failed: one & <two>]]></system-out></testcase><system-out/><system-err/></testsuite></testsuites>"#,
        "\nserver listening\n",
        r#"<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="test" package="test" id="0" errors="0" failures="0" tests="1" skipped="0" ><testcase classname="src/lib.rs" name="a (line 1)" time="0"/><system-out/><system-err/></testsuite></testsuites>"#,
        "\n"
    );

    #[test]
    fn concatenated_documents_are_split_from_the_lines_between_them() {
        let mut splitter = Splitter::default();
        let pieces: Vec<Piece> = LIBTEST
            .split_inclusive('\n')
            .flat_map(|l| splitter.push(l))
            .collect();
        assert_eq!(pieces.len(), 3, "{pieces:?}");
        assert!(matches!(&pieces[0], Piece::Document(d) if d.ends_with("</testsuites>")));
        assert_eq!(pieces[1], Piece::Other("server listening\n".into()));
        assert!(splitter.finish().is_none());
        assert_eq!(documents(LIBTEST).len(), 2);
    }

    #[test]
    fn a_document_over_several_lines_and_text_before_it_on_its_line() {
        let mut splitter = Splitter::default();
        let mut pieces = splitter.push("noise <?xml version=\"1.0\"?>\n");
        pieces.extend(splitter.push("<testsuites><testsuite tests=\"0\">\n"));
        assert_eq!(pieces, [Piece::Other("noise \n".into())]);
        let end = splitter.push("</testsuite></testsuites> tail\n");
        assert!(matches!(&end[0], Piece::Document(d) if d.contains("<testsuite tests")));
        assert_eq!(end[1], Piece::Other(" tail\n".into()));
        assert!(
            Splitter {
                document: Some("<?xml".into())
            }
            .finish()
            .is_some(),
            "cut short"
        );
    }

    #[test]
    fn libtests_report_counts_its_ignored_tests_and_names_its_failures() {
        let all = documents(LIBTEST)
            .iter()
            .map(|d| tally(d).expect("parsed"))
            .fold(Tally::default(), |mut sum, t| {
                sum.add(t);
                sum
            });
        assert_eq!((all.passed, all.failed, all.skipped), (3, 1, 1));
        assert_eq!(all.failures[0].name, "tests::fails");
        assert_eq!(
            all.failures[0].output,
            "some output\nassertion `left == right` failed: one & <two>"
        );
    }

    #[test]
    fn a_failed_tests_output_may_hold_the_closing_tag_and_colour_codes() {
        let line = "<?xml version=\"1.0\"?><testsuites><testsuite failures=\"1\"><testcase classname=\"t\" name=\"x\"><failure type=\"assert\"/><system-out><![CDATA[left: </testsuites> \u{1b}[31mred\u{1b}[0m]]></system-out></testcase></testsuite></testsuites>\n";
        let documents = documents(line);
        assert_eq!(documents.len(), 1, "{documents:?}");
        let t = tally(&documents[0]).expect("parsed without the colour codes");
        assert_eq!(t.failed, 1);
        assert_eq!(t.failures[0].output, "left: </testsuites> [31mred[0m");
    }

    #[test]
    fn pytest_playwright_and_schemathesis_reports_are_read_alike() {
        let pytest = r#"<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="1" failures="1" skipped="1" tests="5"><testcase classname="test_multi" name="test_a" time="1"/><testcase classname="test_multi" name="test_b"><failure message="assert 1 == 2">trace</failure></testcase><testcase classname="test_multi" name="test_c"><skipped type="pytest.skip" message="no"/></testcase><testcase classname="test_multi" name="test_d"><error message="fixture failed">setup</error></testcase><testcase classname="test_multi" name="test_e"/></testsuite></testsuites>"#;
        let t = tally(pytest).expect("parsed");
        assert_eq!((t.passed, t.failed, t.skipped), (2, 2, 1));
        assert_eq!(t.failures[1].name, "test_multi::test_d");
        assert_eq!(t.failures[0].output, "assert 1 == 2\ntrace");

        let playwright = "<testsuites id=\"\" name=\"\" tests=\"2\" failures=\"1\" skipped=\"0\" errors=\"0\">\n<testsuite name=\"phone.spec.ts\" tests=\"2\" failures=\"1\" skipped=\"0\">\n<testcase name=\"signs in › by link\" classname=\"phone.spec.ts\"><failure message=\"phone.spec.ts:3:1 signs in\" type=\"FAILURE\">\n<![CDATA[Error: expect(locator)]]>\n</failure>\n</testcase>\n<testcase name=\"answers\" classname=\"phone.spec.ts\">\n</testcase>\n</testsuite>\n</testsuites>";
        let t = tally(playwright).expect("parsed");
        assert_eq!((t.passed, t.failed), (1, 1));
        assert_eq!(t.failures[0].name, "phone.spec.ts::signs in › by link");

        let schemathesis = r#"<testsuites errors="0" failures="1" skipped="0" tests="2" time="1"><testsuite name="schemathesis" errors="0" failures="1" skipped="0" tests="2"><testcase name="GET /api/v1/asks" time="0.5"><failure type="failure" message="server_error">500</failure></testcase><testcase name="POST /api/v1/asks" time="0.5"/></testsuite></testsuites>"#;
        let t = tally(schemathesis).expect("parsed");
        assert_eq!((t.passed, t.failed), (1, 1));
        assert_eq!(t.failures[0].name, "GET /api/v1/asks");
        assert!(tally("<testsuites><testsuite>").is_err(), "cut short");
    }
}

//! The problem codes' strings and messages.

use super::*;

#[test]
fn codes_serialize_as_their_documented_strings() {
    for code in ProblemCode::ALL {
        let json = serde_json::to_string(&code).expect("serializes");
        assert_eq!(json, format!("\"{}\"", code.as_str()));
        let read: ProblemCode = serde_json::from_str(&json).expect("reads back");
        assert_eq!(read, code);
    }
    assert!(serde_json::from_str::<ProblemCode>("\"no_such_code\"").is_err());
}

#[test]
fn the_documentation_tables_exactly_the_codes() {
    let documented: Vec<&str> = include_str!("../lib.rs")
        .lines()
        .filter_map(|line| line.strip_prefix("//! | `"))
        .filter_map(|rest| rest.split_once('`').map(|(code, _)| code))
        .collect();
    let all: Vec<&str> = ProblemCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(documented, all);
}

/// The messages read the same in the browser, where `{:?}` writes
/// nothing, as they did on the server with it.
#[test]
fn quoting_writes_a_text_as_debug_would() {
    for text in [
        "plain",
        "",
        "say \"hi\" isn't",
        "back\\slash",
        "tab\tnew\nline\r",
        "nul\0 esc\u{1b} del\u{7f}",
        "ünï 中文 \u{202e}rtl\u{2066}\u{2069}\u{200f}",
        "arabic mark\u{61c} next line\u{85} csi\u{9b}",
    ] {
        assert_eq!(quoted(text).to_string(), format!("{text:?}"), "{text}");
    }
}

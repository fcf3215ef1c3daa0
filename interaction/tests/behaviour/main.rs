//! Behaviour of the vocabulary, one module per concern.

// The 100-line rule is `src/`'s: a scenario reads best as one story.
#![allow(clippy::too_many_lines)]

mod answers;
mod asks;
mod defaults;
mod drafts;
mod lang;
mod lenient;
mod projection;
mod properties;
mod request;
mod texts;
mod typed;

use interaction::{Request, ValidRequest};

/// The request of the crate's documentation: single-select, multi-select
/// and optionless questions.
pub fn sample_request() -> ValidRequest {
    let request: Request = serde_json::from_str(
        r#"{"questions": [
          {"id": "db", "question": "Which database should we use?", "header": "Database",
           "options": [{"label": "PostgreSQL", "description": "Relational, ACID"}, {"label": "SQLite"}],
           "multiSelect": false},
          {"id": "features", "question": "Which features do you want?", "header": "Features",
           "options": [{"label": "Auth"}, {"label": "Logging"}, {"label": "Metrics"}], "multiSelect": true},
          {"id": "notes", "question": "Anything else we should know?", "options": []}
        ]}"#,
    )
    .expect("sample request parses");
    ValidRequest::new(request).expect("sample request is valid")
}

/// Parses `{"answers": …}` JSON.
pub fn answers(json: &str) -> interaction::Answers {
    serde_json::from_str(json).expect("answers parse")
}

/// The codes and paths of a validation failure, for compact assertions.
pub fn codes(problems: &interaction::Problems) -> Vec<(String, &'static str)> {
    problems
        .iter()
        .map(|p| (p.path.clone(), p.code.as_str()))
        .collect()
}

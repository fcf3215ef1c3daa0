//! Answer validation throughput for a 4-question batch:
//!   cargo bench -p interaction --bench validate
//! The goal is at least 1,000,000 answers per second per core.
//!
//! The validator takes the answers it checks (the server has just decoded
//! them and keeps only the canonical result), so each iteration is given
//! its own copy, made outside the timing, and the result is dropped
//! outside it too: what is timed is the check and the canonical form.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use interaction::{Answers, Request, ValidRequest};
use std::hint::black_box;

fn batch() -> (ValidRequest, Answers) {
    let request: Request = serde_json::from_str(
        r#"{"questions": [
          {"id": "db", "question": "Which database should we use?", "header": "Database",
           "options": [{"label": "PostgreSQL", "description": "Relational, ACID"}, {"label": "SQLite"}, {"label": "MySQL"}]},
          {"id": "features", "question": "Which features do you want?", "header": "Features",
           "options": [{"label": "Auth"}, {"label": "Logging"}, {"label": "Metrics"}, {"label": "Tracing"}], "multiSelect": true},
          {"id": "deploy", "question": "Where does it run?", "options": [{"label": "Cloud"}, {"label": "On premises"}]},
          {"id": "notes", "question": "Anything else we should know?", "options": []}
        ]}"#,
    )
    .expect("request parses");
    let answers: Answers = serde_json::from_str(
        r#"{"answers": [
          {"id": "db", "selected": ["SQLite"]},
          {"id": "features", "selected": ["Auth", "Logging", "Tracing"], "custom": "Rate limiting"},
          {"id": "deploy", "selected": [], "custom": "A Raspberry Pi under my desk"},
          {"id": "notes", "selected": [], "custom": "Keep it simple."}
        ]}"#,
    )
    .expect("answers parse");
    (ValidRequest::new(request).expect("valid request"), answers)
}

fn validate(c: &mut Criterion) {
    let (request, answers) = batch();
    assert!(request.validate_answers(answers.clone()).is_ok());
    let mut group = c.benchmark_group("validate_answers");
    group.throughput(Throughput::Elements(1));
    group.bench_function("4_questions", |b| {
        b.iter_batched(
            || answers.clone(),
            |answers| request.validate_answers(black_box(answers)),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, validate);
criterion_main!(benches);

//! Arbitrary bytes through decoding, validation, drafts and projection.
//! The input is `request JSON`, a NUL byte, then `answers JSON`.
#![no_main]

use interaction::{project, Answers, BatchDraft, LenientAsk, Outcome, Request, ValidRequest};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(2, |b| *b == 0);
    let request_bytes = parts.next().unwrap_or_default();
    let answer_bytes = parts.next().unwrap_or_default();

    let strict = serde_json::from_slice::<Request>(request_bytes).ok().map(ValidRequest::new);
    let lenient = serde_json::from_slice::<LenientAsk>(request_bytes)
        .ok()
        .map(|ask| ask.validate().map(|valid| valid.request));
    let answers = serde_json::from_slice::<Answers>(answer_bytes).ok();

    for request in [strict, lenient].into_iter().flatten().flatten() {
        let batch = BatchDraft::new(&request);
        assert!(batch.is_complete() == batch.blockers().is_empty());
        if let Some(answers) = &answers {
            if let Ok(valid) = request.validate_answers(answers.clone()) {
                // Canonical answers validate again, to themselves.
                let again = request.validate_answers(valid.clone().into_answers()).expect("canonical answers stay valid");
                assert_eq!(again, valid);
                let out = project(&request, &Outcome::Answered(valid));
                assert_eq!(out.text.lines().filter(|l| l.starts_with("Question ")).count(), request.questions().len());
            }
        }
    }
});

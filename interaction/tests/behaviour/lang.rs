use interaction::{Answers, Lang, ProblemCode, Reason, Request, ValidRequest};
use std::collections::HashSet;

#[test]
fn accept_language_picks_by_quality() {
    assert_eq!(
        Lang::from_accept_language("zh-CN,zh;q=0.9,en;q=0.8"),
        Lang::Zh
    );
    assert_eq!(
        Lang::from_accept_language("en-US,en;q=0.9,zh;q=0.8"),
        Lang::En
    );
    assert_eq!(Lang::from_accept_language("fr-FR, zh-TW;q=0.5"), Lang::Zh);
    assert_eq!(Lang::from_accept_language("de"), Lang::En);
    assert_eq!(Lang::from_accept_language(""), Lang::En);
}

#[test]
fn the_locale_picks_the_language() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    };
    assert_eq!(Lang::from_locale(env(&[("LANG", "zh_CN.UTF-8")])), Lang::Zh);
    assert_eq!(
        Lang::from_locale(env(&[("LC_ALL", "en_US.UTF-8"), ("LANG", "zh_CN.UTF-8")])),
        Lang::En
    );
    assert_eq!(Lang::from_locale(env(&[("LANG", "C.UTF-8")])), Lang::En);
    assert_eq!(Lang::from_locale(env(&[])), Lang::En);
}

#[test]
fn reasons_read_in_both_languages_validator_problems_too() {
    assert_eq!(Reason::Unanswered.text(Lang::En), "unanswered");
    assert_eq!(Reason::Unanswered.text(Lang::Zh), "未回答");
    assert_eq!(Reason::BlankCustom.text(Lang::Zh), "“其他”内容为空");
    let request: Request = serde_json::from_str(
        r#"{"questions": [{"id": "db", "question": "Which?", "options": [{"label": "A"}, {"label": "B"}]}]}"#,
    )
    .expect("request");
    let request = ValidRequest::new(request).expect("valid");
    let answers: Answers =
        serde_json::from_str(r#"{"answers": [{"id": "db", "selected": ["C"]}]}"#).expect("answers");
    let problem = request.validate_answers(answers).expect_err("refused").0[0].clone();
    let reason = Reason::Invalid {
        problem,
        typed: None,
    };
    assert!(
        !reason.text(Lang::Zh).is_ascii(),
        "{}",
        reason.text(Lang::Zh)
    );
    assert_eq!(reason.text(Lang::En), reason.to_string());
}

/// Every code, and a match that stops compiling when a code is added, as a
/// reminder to list it in `ProblemCode::ALL` (and so to word it here).
fn every_problem_code() -> Vec<ProblemCode> {
    use ProblemCode as C;
    let all = ProblemCode::ALL.to_vec();
    for code in &all {
        match code {
            C::NoQuestions
            | C::TooManyQuestions
            | C::InvalidId
            | C::DuplicateId
            | C::EmptyQuestion
            | C::QuestionTooLong
            | C::HeaderTooLong
            | C::TooManyOptions
            | C::EmptyLabel
            | C::LabelTooLong
            | C::DuplicateOption
            | C::DescriptionTooLong
            | C::PreviewTooLong
            | C::ContextTooLong
            | C::MultiSelectWithoutOptions
            | C::UnknownFormat
            | C::FormatWithOptions
            | C::InvalidBound
            | C::InvalidDefault
            | C::UnknownQuestion
            | C::DuplicateAnswer
            | C::MissingAnswer
            | C::UnknownLabel
            | C::DuplicateLabel
            | C::TooManySelected
            | C::EmptyCustom
            | C::CustomTooLong
            | C::EmptyAnswer
            | C::ExclusiveCustom
            | C::InvalidFormat
            | C::OutOfRange
            | C::TitleTooLong
            | C::AgentTooLong
            | C::TimeoutOutOfRange
            | C::DefaultsWithoutTimeout
            | C::ReasonTooLong
            | C::InvalidIdempotencyKey
            | C::IdempotencyConflict
            | C::InvalidRecipient
            | C::UnknownRecipient
            | C::InvalidSession
            | C::SessionTaken
            | C::EmptyMessage
            | C::MessageTooLong
            | C::ControlCharacter => {}
        }
    }
    all
}

#[test]
fn every_problem_code_has_its_own_chinese_text() {
    let codes = every_problem_code();
    let texts: HashSet<String> = codes.iter().map(|c| c.text_zh()).collect();
    for code in &codes {
        let text = code.text_zh();
        assert!(!text.trim().is_empty(), "{code} has no Chinese text");
        assert!(!text.is_ascii(), "{code}: {text}");
    }
    assert_eq!(texts.len(), codes.len(), "two codes share a text");
}

#[test]
fn problems_read_in_chinese_by_code_and_keep_their_english_message() {
    let request: Request = serde_json::from_str(
        r#"{"questions": [{"id": "db", "question": "Which?", "options": [{"label": "SQLite"}]}]}"#,
    )
    .expect("request");
    let request = ValidRequest::new(request).expect("valid");
    let answers: Answers =
        serde_json::from_str(r#"{"answers": [{"id": "db", "selected": ["Oracle"]}]}"#)
            .expect("answers");
    let problems = request.validate_answers(answers).expect_err("refused");
    let problem = problems.iter().next().expect("a problem");
    assert_eq!(problem.code, ProblemCode::UnknownLabel);
    assert_eq!(problem.text(Lang::En), problem.message);
    let zh = problem.text(Lang::Zh);
    assert!(
        zh.starts_with("问题“db”（answers[0].selected[0]）："),
        "{zh}"
    );
    assert!(zh.contains("请从列出的选项中选择"), "{zh}");
}

use crate::sample_request;
use interaction::{AnswerItem, BatchDraft, QuestionDraft, Reason};

fn draft(id: &str) -> QuestionDraft {
    let request = sample_request();
    QuestionDraft::new(request.question(id).expect("question exists"))
}

fn item(id: &str, selected: &[&str], custom: Option<&str>) -> AnswerItem {
    AnswerItem {
        id: id.to_owned(),
        selected: selected.iter().map(|s| (*s).to_owned()).collect(),
        custom: custom.map(str::to_owned),
    }
}

#[test]
fn custom_typed_before_checking_labels_is_kept() {
    let mut d = draft("features");
    d.set_custom("Rate limiting");
    d.toggle(2);
    d.toggle(0);
    assert_eq!(
        d.status(),
        Ok(item(
            "features",
            &["Auth", "Metrics"],
            Some("Rate limiting")
        ))
    );
}

#[test]
fn labels_checked_before_typing_custom_are_kept() {
    let mut d = draft("features");
    d.toggle(1);
    d.set_custom("Rate limiting");
    assert_eq!(
        d.status(),
        Ok(item("features", &["Logging"], Some("Rate limiting")))
    );
}

#[test]
fn unchecking_a_label_keeps_the_custom_text() {
    let mut d = draft("features");
    d.toggle(0);
    d.set_custom("Rate limiting");
    d.toggle(0);
    assert_eq!(d.status(), Ok(item("features", &[], Some("Rate limiting"))));
}

#[test]
fn text_typed_before_checking_labels_is_kept_beside_them() {
    let mut d = draft("features");
    d.set_custom("typed first");
    d.toggle(0);
    d.toggle(1);
    assert_eq!(
        d.status(),
        Ok(item("features", &["Auth", "Logging"], Some("typed first")))
    );
}

#[test]
fn custom_text_is_trimmed_and_blank_text_is_left_out() {
    let mut d = draft("features");
    d.toggle(0);
    d.set_custom("  two words \n");
    assert_eq!(d.item().custom.as_deref(), Some("two words"));
    d.set_custom("   ");
    assert_eq!(d.status(), Ok(item("features", &["Auth"], None)));
}

#[test]
fn single_select_custom_text_overrides_the_choice() {
    let mut d = draft("db");
    d.pick(0);
    assert!(!d.custom_overrides_choice());
    d.set_custom("MySQL");
    assert!(d.custom_overrides_choice());
    assert_eq!(d.status(), Ok(item("db", &[], Some("MySQL"))));
    d.clear_custom();
    assert_eq!(
        d.status(),
        Ok(item("db", &["PostgreSQL"], None)),
        "the choice comes back"
    );
}

#[test]
fn single_select_picking_replaces_the_previous_choice() {
    let mut d = draft("db");
    d.pick(0);
    d.pick(1);
    assert_eq!(d.status(), Ok(item("db", &["SQLite"], None)));
    d.toggle(1);
    assert_eq!(
        d.status(),
        Err(Reason::Unanswered),
        "toggling the choice un-chooses it"
    );
}

#[test]
fn optionless_questions_take_only_text() {
    let mut d = draft("notes");
    d.toggle(0);
    assert_eq!(d.status(), Err(Reason::Unanswered));
    d.set_custom("\n");
    assert_eq!(d.status(), Err(Reason::BlankCustom));
    d.set_custom("Nothing else");
    assert_eq!(d.status(), Ok(item("notes", &[], Some("Nothing else"))));
}

#[test]
fn reasons_explain_what_is_missing() {
    let mut d = draft("features");
    assert_eq!(d.status(), Err(Reason::Unanswered));
    d.set_custom("  ");
    assert_eq!(d.status(), Err(Reason::BlankCustom));
    d.set_custom("x".repeat(10_001));
    assert_eq!(d.status(), Err(Reason::CustomTooLong { chars: 10_001 }));
    assert_eq!(Reason::BlankCustom.to_string(), "Other text is blank");
}

#[test]
fn out_of_range_options_change_nothing() {
    let mut d = draft("features");
    d.toggle(99);
    d.set_checked(3, true);
    assert_eq!(d.item(), item("features", &[], None));
}

#[test]
fn batch_draft_names_each_blocked_question() {
    let request = sample_request();
    let mut batch = BatchDraft::new(&request);
    let blockers: Vec<(String, Reason)> = batch
        .blockers()
        .into_iter()
        .map(|b| (b.question_id, b.reason))
        .collect();
    assert_eq!(blockers.len(), 3);
    assert!(!batch.is_complete());

    batch.draft_by_id_mut("db").expect("db").pick(1);
    batch
        .draft_by_id_mut("features")
        .expect("features")
        .set_custom(" ");
    let blockers: Vec<(usize, Reason)> = batch
        .blockers()
        .into_iter()
        .map(|b| (b.index, b.reason))
        .collect();
    assert_eq!(
        blockers,
        [(1, Reason::BlankCustom), (2, Reason::Unanswered)]
    );

    batch.draft_mut(1).expect("features").toggle(0);
    batch.draft_mut(2).expect("notes").set_custom("Thanks");
    assert!(batch.is_complete());
    let valid = request
        .validate_answers(batch.answers())
        .expect("complete batch validates");
    assert_eq!(valid.items()[1], item("features", &["Auth"], None));
}

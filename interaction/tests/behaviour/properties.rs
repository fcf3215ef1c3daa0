use interaction::{
    AnswerItem, Answers, BatchDraft, Question, QuestionOption, Request, ValidRequest,
};
use proptest::prelude::*;

fn question(i: usize) -> impl Strategy<Value = Question> {
    (
        prop::collection::btree_set("[A-Za-z][a-z ]{0,6}", 0..6),
        any::<bool>(),
    )
        .prop_map(move |(labels, multi)| {
            let options: Vec<QuestionOption> = labels
                .into_iter()
                .map(|label| QuestionOption {
                    label,
                    description: None,
                    preview: None,
                })
                .collect();
            Question {
                id: format!("q{i}"),
                question: format!("Question {i}?"),
                header: None,
                multi_select: multi && !options.is_empty(),
                options,
                format: None,
                minimum: None,
                maximum: None,
                default: None,
            }
        })
}

fn request() -> impl Strategy<Value = ValidRequest> {
    (1usize..9)
        .prop_flat_map(|n| (0..n).map(question).collect::<Vec<_>>())
        .prop_map(|questions| {
            ValidRequest::new(Request {
                questions,
                context: None,
            })
            .expect("valid by construction")
        })
}

#[derive(Debug, Clone)]
enum Op {
    Toggle(usize, usize),
    Pick(usize, usize),
    SetChecked(usize, usize, bool),
    SetCustom(usize, String),
    ClearCustom(usize),
}

fn op() -> impl Strategy<Value = Op> {
    let q = 0usize..6;
    let o = 0usize..7;
    prop_oneof![
        (q.clone(), o.clone()).prop_map(|(q, o)| Op::Toggle(q, o)),
        (q.clone(), o.clone()).prop_map(|(q, o)| Op::Pick(q, o)),
        (q.clone(), o, any::<bool>()).prop_map(|(q, o, on)| Op::SetChecked(q, o, on)),
        (q.clone(), "[ \\na-z]{0,8}").prop_map(|(q, s)| Op::SetCustom(q, s)),
        q.prop_map(Op::ClearCustom),
    ]
}

fn apply(batch: &mut BatchDraft, op: &Op) {
    let n = batch.drafts().len();
    let q = match op {
        Op::Toggle(q, _)
        | Op::Pick(q, _)
        | Op::SetChecked(q, _, _)
        | Op::SetCustom(q, _)
        | Op::ClearCustom(q) => *q % n,
    };
    let Some(d) = batch.draft_mut(q) else { return };
    match op {
        Op::Toggle(_, o) => d.toggle(*o),
        Op::Pick(_, o) => d.pick(*o),
        Op::SetChecked(_, o, on) => d.set_checked(*o, *on),
        Op::SetCustom(_, s) => d.set_custom(s.clone()),
        Op::ClearCustom(_) => d.clear_custom(),
    }
}

/// A valid answer to `question`, built from choices the strategy makes.
fn answer_for(question: &Question, picks: &[bool], custom: Option<String>) -> AnswerItem {
    let mut selected: Vec<String> = question
        .options
        .iter()
        .zip(picks)
        .filter(|(_, p)| **p)
        .map(|(o, _)| o.label.clone())
        .collect();
    if !question.multi_select {
        // Exclusive: custom text, or exactly one label.
        if custom.is_some() || selected.is_empty() {
            selected.clear();
        } else {
            selected.truncate(1);
        }
    }
    selected.reverse(); // Any order is accepted; canonical form is option order.
    let custom = match (custom, selected.is_empty()) {
        (None, true) => Some("fallback".to_owned()),
        (c, _) => c,
    };
    AnswerItem {
        id: question.id.clone(),
        selected,
        custom,
    }
}

/// A request and valid answers to it, one item per question in request
/// order, each built by [`answer_for`] from choices the strategy makes.
fn valid_answers() -> impl Strategy<Value = (ValidRequest, Vec<AnswerItem>)> {
    request()
        .prop_flat_map(|r| {
            let n = r.questions().len();
            (
                Just(r),
                prop::collection::vec(prop::collection::vec(any::<bool>(), 6), n),
                prop::collection::vec(prop::option::of("  ?[a-z]{1,6}( [a-z]{1,4})? ?"), n),
            )
        })
        .prop_map(|(request, picks, customs)| {
            let items = request
                .questions()
                .iter()
                .zip(&picks)
                .zip(customs)
                .map(|((q, p), c)| answer_for(q, p, c))
                .collect();
            (request, items)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn complete_drafts_always_validate_and_multi_select_keeps_both(
        request in request(),
        ops in prop::collection::vec(op(), 0..40),
    ) {
        let mut batch = BatchDraft::new(&request);
        for op in &ops {
            apply(&mut batch, op);
        }
        for d in batch.drafts() {
            if d.question().multi_select {
                let item = d.item();
                let checked: Vec<&str> = d.checked_labels().collect();
                prop_assert_eq!(&item.selected, &checked);
                let typed = d.custom().trim();
                prop_assert_eq!(item.custom.as_deref(), (!typed.is_empty()).then_some(typed));
            }
        }
        if batch.is_complete() {
            let answers = batch.answers();
            let valid = request.validate_answers(answers.clone());
            prop_assert!(valid.is_ok(), "{:?}", valid);
            prop_assert_eq!(valid.map(|v| v.into_answers()).ok(), Some(answers), "drafts are canonical");
        } else {
            prop_assert!(!batch.blockers().is_empty());
        }
    }

    #[test]
    fn every_valid_answer_can_be_entered_through_drafts((request, items) in valid_answers()) {
        let valid = request
            .validate_answers(Answers { answers: items.clone() })
            .expect("answers are valid by construction");

        let mut batch = BatchDraft::new(&request);
        for item in &items {
            let d = batch.draft_by_id_mut(&item.id).expect("question exists");
            for label in &item.selected {
                let index = d.index_of(label).expect("label exists");
                d.pick(index);
            }
            if let Some(custom) = &item.custom {
                d.set_custom(custom.clone());
            }
        }
        prop_assert_eq!(batch.answers(), valid.into_answers());
    }

    #[test]
    fn canonical_form_does_not_depend_on_the_order_answers_arrive_in(
        ((request, items), shuffles) in valid_answers().prop_flat_map(|answers| {
            let n = answers.1.len();
            (
                Just(answers),
                // One shuffle of the items, then one of each item's labels.
                prop::collection::vec(prop::collection::vec(any::<prop::sample::Index>(), n.max(6)), n + 1),
            )
        }),
    ) {
        let mut arrived = items.clone();
        shuffle(&mut arrived, &shuffles[0]);
        for (item, seeds) in arrived.iter_mut().zip(&shuffles[1..]) {
            shuffle(&mut item.selected, seeds);
        }
        let in_order = request
            .validate_answers(Answers { answers: items })
            .expect("answers are valid by construction");
        let shuffled = request
            .validate_answers(Answers { answers: arrived })
            .expect("the same answers in another order are valid");
        prop_assert_eq!(&shuffled, &in_order);
        prop_assert_eq!(shuffled.items().len(), request.questions().len());
        for (item, question) in shuffled.items().iter().zip(request.questions()) {
            prop_assert_eq!(&item.id, &question.id, "request order");
            let rank = |label: &String| question.options.iter().position(|o| o.label == *label);
            prop_assert!(item.selected.is_sorted_by_key(rank), "option order: {:?}", item.selected);
            if let Some(custom) = &item.custom {
                prop_assert_eq!(custom.as_str(), custom.trim(), "trimmed");
            }
        }
    }
}

/// Fisher-Yates over `items`, its choices taken from `seeds`: at least as
/// many as there are items (`seeds[0]` is never used).
fn shuffle<T>(items: &mut [T], seeds: &[prop::sample::Index]) {
    for k in (1..items.len()).rev() {
        items.swap(k, seeds[k].index(k + 1));
    }
}

//! Default answers on every store: an ask that expires with the agent's
//! defaults ends `expired`, shows them as its answers marked `defaulted`,
//! and names no person; one answered in time keeps the person's answers;
//! one without defaults expires as it always did.

use crate::common::{as_person, by_api, combined, desk_on, new_ask, Kind};
use desk::{Desk, DeskError};
use interaction::{AnswerItem, AskStatus, IdempotencyKey, NewAsk, ProblemCode, Role, Via};
use std::sync::{
    atomic::{AtomicI64, Ordering},
    Arc,
};

crate::conformance::suite!(
    an_ask_that_expires_with_defaults_ends_expired_with_them_and_no_person_named,
    an_ask_answered_in_time_keeps_the_persons_answers_not_the_defaults,
    an_ask_without_defaults_expires_as_before,
    defaults_are_refused_without_a_timeout_or_when_invalid_and_nothing_is_stored,
    defaults_are_part_of_what_an_idempotency_key_names,
);

/// The common ask with a timeout and default answers (given out of
/// order and untrimmed, as an agent might).
fn with_defaults(timeout: u64) -> NewAsk {
    let mut ask = new_ask(Some(timeout));
    ask.default_answers = Some(
        serde_json::from_value(serde_json::json!([
            {"id": "features", "selected": ["Metrics", "Auth"], "custom": " Tracing "},
            {"id": "db", "selected": ["SQLite"]}
        ]))
        .expect("items"),
    );
    ask
}

/// The defaults of [`with_defaults`] in canonical form.
fn canonical_defaults() -> Vec<AnswerItem> {
    serde_json::from_value(serde_json::json!([
        {"id": "features", "selected": ["Auth", "Metrics"], "custom": "Tracing"},
        {"id": "db", "selected": ["SQLite"]}
    ]))
    .expect("items")
}

/// A desk over a fresh store whose clock is `now`.
async fn timed(kind: Kind, now: &Arc<AtomicI64>) -> (Desk, crate::common::Db) {
    let (desk, db) = desk_on(kind).await;
    let clock = now.clone();
    (
        desk.with_clock(Arc::new(move || clock.load(Ordering::SeqCst))),
        db,
    )
}

pub async fn an_ask_that_expires_with_defaults_ends_expired_with_them_and_no_person_named(
    kind: Kind,
) {
    let now = Arc::new(AtomicI64::new(1_000_000));
    let (desk, _db) = timed(kind, &now).await;
    let id = desk
        .create(with_defaults(60), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let pending = desk
        .get(&id, &desk::Caller::Unnamed)
        .await
        .expect("pending");
    assert_eq!(pending.status, AskStatus::Pending);
    assert_eq!(pending.default_answers, Some(canonical_defaults()));
    assert_eq!((pending.answers, pending.defaulted), (None, false));

    now.fetch_add(60_000, Ordering::SeqCst);
    let expired = desk
        .get(&id, &desk::Caller::Unnamed)
        .await
        .expect("expired");
    assert_eq!(expired.status, AskStatus::Expired);
    assert_eq!(expired.answers, Some(canonical_defaults()));
    assert!(expired.defaulted);
    assert_eq!((expired.answered_by, expired.via), (None, None));
    assert_eq!(expired.finished_at, expired.expires_at);
    let projection = expired.projection.expect("projection");
    assert!(projection.structured.defaulted);
    assert_eq!(projection.structured.status, AskStatus::Expired);
    assert_eq!(projection.structured.answers, canonical_defaults());
    assert!(
        projection.text.starts_with("No person answered"),
        "{}",
        projection.text
    );

    // Read back from the store, and refused to a late answer as expired.
    let again = desk
        .get(&id, &desk::Caller::Unnamed)
        .await
        .expect("read back");
    assert_eq!(
        (again.answers, again.defaulted),
        (Some(canonical_defaults()), true)
    );
    let Err(DeskError::Gone(gone)) = desk.answer(&id, combined(), &by_api()).await else {
        panic!("an expired ask is gone");
    };
    assert!(gone.defaulted);

    // The server's sweep expires a second one the same way.
    let swept = desk
        .create(with_defaults(1), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    now.fetch_add(1_000, Ordering::SeqCst);
    assert_eq!(desk.expire_due().await.expect("swept"), 1);
    let swept = desk
        .get(&swept, &desk::Caller::Unnamed)
        .await
        .expect("read");
    assert_eq!((swept.status, swept.defaulted), (AskStatus::Expired, true));
    assert_eq!(swept.answers, Some(canonical_defaults()));
}

pub async fn an_ask_answered_in_time_keeps_the_persons_answers_not_the_defaults(kind: Kind) {
    let now = Arc::new(AtomicI64::new(1_000_000));
    let (desk, _db) = timed(kind, &now).await;
    let id = desk
        .create(with_defaults(60), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let alice = as_person("alice", Role::Person, Via::Web);
    let answered = desk
        .answer(&id, combined(), &alice)
        .await
        .expect("answered");
    now.fetch_add(120_000, Ordering::SeqCst);
    let read = desk.get(&id, &desk::Caller::Unnamed).await.expect("read");
    for ask in [answered, read] {
        assert_eq!(ask.status, AskStatus::Answered);
        assert!(!ask.defaulted);
        assert_eq!(ask.answered_by.as_deref(), Some("alice"));
        assert_ne!(ask.answers, Some(canonical_defaults()));
        assert_eq!(ask.answers.expect("answers")[1].selected, ["SQLite"]);
        assert!(!ask.projection.expect("projection").structured.defaulted);
        // What the agent had offered stays on record beside the answer.
        assert_eq!(ask.default_answers, Some(canonical_defaults()));
    }
}

pub async fn an_ask_without_defaults_expires_as_before(kind: Kind) {
    let now = Arc::new(AtomicI64::new(1_000_000));
    let (desk, _db) = timed(kind, &now).await;
    let id = desk
        .create(new_ask(Some(60)), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    now.fetch_add(60_000, Ordering::SeqCst);
    let expired = desk
        .get(&id, &desk::Caller::Unnamed)
        .await
        .expect("expired");
    assert_eq!(expired.status, AskStatus::Expired);
    assert_eq!(
        (
            &expired.answers,
            &expired.default_answers,
            expired.defaulted
        ),
        (&None, &None, false)
    );
    let json = serde_json::to_value(&expired).expect("json");
    for absent in ["answers", "defaultAnswers", "defaulted"] {
        assert!(json.get(absent).is_none(), "{absent} in {json}");
    }
    assert!(json["projection"]["structured"].get("defaulted").is_none());
    assert!(!expired.projection.expect("projection").structured.defaulted);
}

pub async fn defaults_are_refused_without_a_timeout_or_when_invalid_and_nothing_is_stored(
    kind: Kind,
) {
    let (desk, _db) = desk_on(kind).await;
    let mut untimed = with_defaults(60);
    untimed.timeout_seconds = None;
    let Err(DeskError::Invalid(problems)) = desk.create(untimed, &desk::Caller::Unnamed).await
    else {
        panic!("defaults without a timeout are refused");
    };
    assert!(problems.has(ProblemCode::DefaultsWithoutTimeout));
    assert_eq!(problems.0[0].path, "defaultAnswers");

    let mut wrong = with_defaults(60);
    wrong.default_answers = Some(
        serde_json::from_value(serde_json::json!([
            {"id": "db", "selected": ["MySQL"]},
            {"id": "features", "selected": ["Auth"]}
        ]))
        .expect("items"),
    );
    let Err(DeskError::Invalid(problems)) = desk.create(wrong, &desk::Caller::Unnamed).await else {
        panic!("invalid defaults are refused");
    };
    assert!(problems.has(ProblemCode::UnknownLabel));
    assert_eq!(problems.0[0].path, "defaultAnswers[0].selected[0]");
    assert!(desk
        .list(None, &desk::Caller::Unnamed)
        .await
        .expect("list")
        .is_empty());
}

pub async fn defaults_are_part_of_what_an_idempotency_key_names(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let key = IdempotencyKey::parse("call-defaults", "idempotencyKey").expect("key");
    let (first, made) = desk
        .create_once(
            with_defaults(60),
            &key,
            "idempotencyKey",
            &desk::Caller::Unnamed,
        )
        .await
        .expect("created");
    assert!(made);
    let (again, made) = desk
        .create_once(
            with_defaults(60),
            &key,
            "idempotencyKey",
            &desk::Caller::Unnamed,
        )
        .await
        .expect("the same ask");
    assert!(!made);
    assert_eq!(again.id, first.id);
    // The same questions without the defaults are other content.
    let Err(DeskError::Invalid(problems)) = desk
        .create_once(
            new_ask(Some(60)),
            &key,
            "idempotencyKey",
            &desk::Caller::Unnamed,
        )
        .await
    else {
        panic!("other defaults under a used key are refused");
    };
    assert!(problems.has(ProblemCode::IdempotencyConflict));
}

//! Retention (`--keep-finished`): asks finished longer ago than the desk
//! keeps them are removed with their events, notifications and action
//! tokens, a batch at a time; pending and newer asks stay. The same tests
//! on every store, as the conformance suite.

use crate::common::{by_api, combined, desk_on, new_ask, Kind};
use desk::{DeskError, Removed};
use interaction::{AskStatus, Timestamp};
use std::{
    sync::{
        atomic::{AtomicI64, Ordering},
        Arc,
    },
    time::Duration,
};

crate::conformance::suite!(
    asks_finished_longer_ago_than_kept_are_removed_and_the_rest_stay,
    a_desk_that_keeps_everything_removes_nothing,
    more_asks_than_a_batch_are_all_removed,
);

const DAY: i64 = 86_400_000;

pub async fn asks_finished_longer_ago_than_kept_are_removed_and_the_rest_stay(kind: Kind) {
    let now = Arc::new(AtomicI64::new(1_700_000_000_000));
    let clock = now.clone();
    let (desk, _db) = desk_on(kind).await;
    let desk = desk
        .with_clock(Arc::new(move || clock.load(Ordering::SeqCst)))
        .notifying(vec!["webhook:test".to_owned()])
        .keeping_finished(Some(Duration::from_secs(90 * 86_400)));

    // 100 days ago: one answered, one declined, one cancelled; one left pending.
    let old_answered = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    desk.answer(&old_answered, combined(), &by_api())
        .await
        .expect("answered");
    let old_declined = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    desk.decline(&old_declined, Default::default(), &by_api())
        .await
        .expect("declined");
    let old_cancelled = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    desk.cancel(&old_cancelled, &by_api())
        .await
        .expect("cancelled");
    let old_pending = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    // Created 100 days ago, answered 10 days ago: finished recently, kept.
    let answered_lately = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    now.fetch_add(90 * DAY, Ordering::SeqCst);
    desk.answer(&answered_lately, combined(), &by_api())
        .await
        .expect("answered");
    now.fetch_add(10 * DAY, Ordering::SeqCst);
    let new_answered = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    desk.answer(&new_answered, combined(), &by_api())
        .await
        .expect("answered");

    assert_eq!(desk.removed().await.expect("tally"), Removed::default());
    for old in [&old_answered, &old_declined, &old_cancelled] {
        assert!(!desk.deliveries(old).await.expect("deliveries").is_empty());
    }
    assert_eq!(desk.remove_old_finished().await.expect("removed"), 3);
    for gone in [&old_answered, &old_declined, &old_cancelled] {
        assert!(
            matches!(
                desk.get(gone, &desk::Caller::Unnamed).await,
                Err(DeskError::NotFound)
            ),
            "{gone} is removed"
        );
        assert!(
            desk.deliveries(gone).await.expect("deliveries").is_empty(),
            "{gone}'s notifications are removed with it"
        );
    }
    assert!(!desk
        .deliveries(&old_pending)
        .await
        .expect("deliveries")
        .is_empty());
    assert_eq!(
        desk.get(&old_pending, &desk::Caller::Unnamed)
            .await
            .expect("kept")
            .status,
        AskStatus::Pending
    );
    for kept in [&answered_lately, &new_answered] {
        assert_eq!(
            desk.get(kept, &desk::Caller::Unnamed)
                .await
                .expect("kept")
                .status,
            AskStatus::Answered
        );
    }
    // The lists and the event stream no longer know the removed asks.
    let listed: Vec<String> = desk
        .list(None, &desk::Caller::Unnamed)
        .await
        .expect("list")
        .into_iter()
        .map(|summary| summary.id)
        .collect();
    assert_eq!(listed.len(), 3);
    assert!(!listed.contains(&old_answered));
    let replayed = desk
        .events_since(0)
        .await
        .expect("events")
        .expect("all kept");
    assert!(!replayed.is_empty());
    assert!(replayed
        .iter()
        .all(|event| !format!("{event:?}").contains(&old_answered)));

    assert_eq!(
        desk.removed().await.expect("tally"),
        Removed {
            total: 3,
            last_at: Some(Timestamp::from_ms(now.load(Ordering::SeqCst))),
        }
    );
    // A second pass finds nothing more; the tally stays.
    assert_eq!(desk.remove_old_finished().await.expect("removed"), 0);
    assert_eq!(desk.removed().await.expect("tally").total, 3);
}

pub async fn a_desk_that_keeps_everything_removes_nothing(kind: Kind) {
    let now = Arc::new(AtomicI64::new(1_700_000_000_000));
    let clock = now.clone();
    let (desk, _db) = desk_on(kind).await;
    let desk = desk.with_clock(Arc::new(move || clock.load(Ordering::SeqCst)));
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    desk.answer(&id, combined(), &by_api())
        .await
        .expect("answered");
    now.fetch_add(5_000 * DAY, Ordering::SeqCst);
    assert_eq!(desk.remove_old_finished().await.expect("removed"), 0);
    assert_eq!(
        desk.get(&id, &desk::Caller::Unnamed)
            .await
            .expect("kept")
            .status,
        AskStatus::Answered
    );
}

pub async fn more_asks_than_a_batch_are_all_removed(kind: Kind) {
    let now = Arc::new(AtomicI64::new(1_700_000_000_000));
    let clock = now.clone();
    let (desk, _db) = desk_on(kind).await;
    let desk = desk
        .with_clock(Arc::new(move || clock.load(Ordering::SeqCst)))
        .keeping_finished(Some(Duration::from_secs(86_400)));
    for _ in 0..450 {
        let id = desk
            .create(new_ask(None), &desk::Caller::Unnamed)
            .await
            .expect("created")
            .id;
        desk.cancel(&id, &by_api()).await.expect("cancelled");
    }
    now.fetch_add(2 * DAY, Ordering::SeqCst);
    assert_eq!(desk.remove_old_finished().await.expect("removed"), 450);
    assert!(desk
        .list(None, &desk::Caller::Unnamed)
        .await
        .expect("list")
        .is_empty());
}

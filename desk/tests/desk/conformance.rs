//! The store conformance suite: the life of an ask through the desk, the
//! same tests on every store askdesk has: SQLite in memory, a SQLite file
//! and PostgreSQL.

use crate::common::{answers, as_person, by_api, combined, desk_on, maker, new_ask, Kind};
use desk::{Attempt, DeskError, ListFilter, Notice, Reminders};
use interaction::{AskStatus, Decline, IdempotencyKey, NewAsk, ProblemCode, Role, Via};
use std::{
    sync::{
        atomic::{AtomicI64, Ordering},
        Arc,
    },
    time::Duration,
};

/// Runs every test of the suite on each kind of store.
macro_rules! suite {
    ($($test:ident),* $(,)?) => {
        mod memory {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    super::$test(crate::common::Kind::Memory).await;
                }
            )*
        }
        mod file {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    super::$test(crate::common::Kind::File).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    super::$test(crate::common::Kind::Postgres).await;
                }
            )*
        }
    };
}

/// The suite's runner, for the desk's other test files.
pub(crate) use suite;

suite!(
    the_same_idempotency_key_gives_the_same_ask_and_other_content_is_refused,
    racing_creations_with_one_key_make_one_ask,
    a_new_ask_is_pending_with_an_unguessable_id_and_its_url,
    an_invalid_new_ask_is_refused_and_nothing_is_stored,
    a_combined_multi_select_answer_is_stored_canonically_with_its_projection,
    refused_answers_leave_the_ask_pending,
    a_second_answer_is_refused_and_the_first_stays,
    cancelled_and_expired_asks_are_gone,
    listing_expires_due_asks_and_shows_the_newest_first,
    unknown_and_malformed_ids_are_not_found,
    a_long_poll_wakes_when_the_ask_is_answered,
    a_long_poll_returns_the_pending_ask_when_its_wait_is_over,
    a_long_poll_ends_when_the_ask_expires,
    concurrent_submissions_yield_exactly_one_success,
    events_are_numbered_by_the_store_and_replay_the_status_each_had,
    racing_changes_are_published_once_each_in_number_order,
    pruned_events_are_not_replayed_and_unknown_numbers_are_refused,
    notifications_owed_are_written_with_each_change_and_leased_to_one_worker,
    racing_workers_claim_each_delivery_once,
    action_tokens_answer_once_and_only_their_own_ask_and_option,
    reminders_are_written_with_the_ask_come_due_in_turn_and_end_with_it,
    a_thousand_asks_page_through_without_gaps_or_repeats_and_filter_by_status_agent_and_text,
    people_have_one_token_each_kept_as_a_digest_and_removal_ends_their_sessions,
    sessions_are_whose_they_were_opened_for_until_closed,
    every_finish_records_who_and_through_what_and_expiry_records_neither,
    an_ask_is_routed_to_people_of_the_desk_and_unknown_names_are_refused,
    each_role_finishes_asks_as_its_part_and_sign_in_narrows_answering_to_recipients,
    a_link_answers_until_the_desk_has_people_and_relayed_answers_name_their_agent,
    control_characters_are_refused_and_nothing_is_stored,
);

/// Who may end an ask how, one row per caller: (caller, may answer and
/// decline, may cancel), under each rule of links, on a desk with people
/// and an ask for alice. The credentials decide: a surface (`via`) never
/// widens what a caller may do. Refusals change nothing.
pub async fn each_role_finishes_asks_as_its_part_and_sign_in_narrows_answering_to_recipients(
    kind: Kind,
) {
    use crate::common::relaying_agent;
    use desk::{Actor, Caller, LinkAnswers};
    let (desk, _db) = desk_on(kind).await;
    desk.add_person("alice", Role::Person).await.expect("added");
    let table = |rule: LinkAnswers| {
        let never = rule == LinkAnswers::Never;
        let link = rule == LinkAnswers::Always;
        let mut rows = vec![
            ("unnamed", by_api(), true, true),
            (
                "unnamed via an agent's client",
                Actor::new(Caller::Unnamed, Via::McpClient),
                true,
                true,
            ),
            ("link", Actor::new(Caller::Link, Via::Web), link, false),
            (
                "action token",
                Actor::new(Caller::Action, Via::Ntfy),
                !never,
                false,
            ),
            (
                "agent",
                as_person("bot", Role::Agent, Via::Api),
                false,
                true,
            ),
            (
                "agent saying it is its client",
                as_person("bot", Role::Agent, Via::McpClient),
                false,
                true,
            ),
            (
                "relaying agent on its own behalf",
                relaying_agent("bot", Via::Api),
                false,
                true,
            ),
            (
                "alice",
                as_person("alice", Role::Person, Via::Api),
                true,
                false,
            ),
            // Not one the ask is for: only with sign-in required is that a bar.
            (
                "bob",
                as_person("bob", Role::Person, Via::Api),
                !never,
                false,
            ),
            (
                "admin",
                as_person("root", Role::Admin, Via::Api),
                true,
                true,
            ),
        ];
        for via in [Via::McpClient, Via::McpApp] {
            rows.push(("relaying agent", relaying_agent("bot", via), !never, true));
        }
        rows
    };
    for rule in [
        LinkAnswers::WithoutPeople,
        LinkAnswers::Always,
        LinkAnswers::Never,
    ] {
        let desk = desk.clone().answering_by_link(rule);
        for (who, actor, may_answer, may_cancel) in table(rule) {
            let mut new = new_ask(None);
            new.to = vec!["alice".to_owned()];
            let maker = maker(&actor.caller);
            let fresh = || async { desk.create(new.clone(), &maker).await.expect("created").id };
            let id = fresh().await;
            let answered = desk.answer(&id, combined(), &actor).await;
            assert_eq!(
                answered.is_ok(),
                may_answer,
                "{who} through {} answers ({rule:?}): {answered:?}",
                actor.via.as_str()
            );
            if !may_answer {
                assert!(matches!(answered, Err(DeskError::Forbidden(_))), "{who}");
                let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
                assert_eq!(ask.status, AskStatus::Pending, "{who}: nothing changed");
            }
            // Relaying is asked of the desk before an ask is for anyone.
            let for_anyone = desk
                .create(new_ask(None), &maker)
                .await
                .expect("created")
                .id;
            let relayed = Actor::new(actor.caller.clone(), Via::McpApp);
            assert_eq!(
                desk.may_relay(&actor.caller).await.is_ok(),
                desk.answer(&for_anyone, combined(), &relayed).await.is_ok(),
                "{who}: may_relay says what a relayed answer gets ({rule:?})"
            );
            let id = fresh().await;
            let declined = desk.decline(&id, Decline::default(), &actor).await;
            assert_eq!(declined.is_ok(), may_answer, "{who} declines ({rule:?})");
            let id = fresh().await;
            let cancelled = desk.cancel(&id, &actor).await;
            assert_eq!(cancelled.is_ok(), may_cancel, "{who} cancels ({rule:?})");
            if !may_cancel {
                assert!(matches!(cancelled, Err(DeskError::Forbidden(_))), "{who}");
            }
        }
    }
}

/// Without people (a desk with only a shared token), an ask's link
/// answers by default; with people it no longer does, until the rule says
/// always. An answer an agent relayed names the agent, and no person.
pub async fn a_link_answers_until_the_desk_has_people_and_relayed_answers_name_their_agent(
    kind: Kind,
) {
    use crate::common::relaying_agent;
    use desk::{Actor, Caller, LinkAnswers};
    let (desk, _db) = desk_on(kind).await;
    let link = Actor::new(Caller::Link, Via::Form);
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let ask = desk
        .answer(&id, combined(), &link)
        .await
        .expect("the link answers");
    assert_eq!(
        (ask.answered_by, ask.relayed_by, ask.via),
        (None, None, Some(Via::Form))
    );
    desk.add_person("alice", Role::Person).await.expect("added");
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let refused = desk.answer(&id, combined(), &link).await;
    let Err(DeskError::Forbidden(why)) = refused else {
        panic!("a team's desk refuses the link alone: {refused:?}");
    };
    assert!(why.contains("--answer-by-link"), "{why}");
    let always = desk.clone().answering_by_link(LinkAnswers::Always);
    always.answer(&id, combined(), &link).await.expect("always");

    let (bot, _) = desk
        .add_person_with("bot", Role::Agent, relaying())
        .await
        .expect("a relaying agent");
    assert!(bot.relays_answers);
    let id = desk
        .create(new_ask(None), &relaying_agent("bot", Via::McpApp).caller)
        .await
        .expect("created")
        .id;
    desk.answer(&id, combined(), &relaying_agent("bot", Via::McpApp))
        .await
        .expect("relayed");
    let ask = desk
        .get(&id, &desk::Caller::Unnamed)
        .await
        .expect("read back from the store");
    assert_eq!(ask.answered_by, None, "no person is named");
    assert_eq!(ask.relayed_by.as_deref(), Some("bot"));
    assert_eq!(ask.via, Some(Via::McpApp));

    // Only an agent relays; relaying is taken away again at once.
    assert!(matches!(
        desk.add_person_with("carol", Role::Person, relaying())
            .await,
        Err(DeskError::Conflict(_))
    ));
    let edited = desk.set_relays_answers("bot", false).await.expect("edited");
    assert_eq!(edited.map(|p| p.relays_answers), Some(false));
    let people = desk.people().await.expect("people");
    assert!(people.iter().all(|p| !p.relays_answers), "{people:?}");
    assert_eq!(
        desk.set_relays_answers("nobody", true).await.expect("edit"),
        None
    );
}

pub async fn people_have_one_token_each_kept_as_a_digest_and_removal_ends_their_sessions(
    kind: Kind,
) {
    let (store, _db) = crate::common::store_on(kind).await;
    let desk = desk::Desk::open(store.clone(), "http://127.0.0.1:3000")
        .await
        .expect("desk");
    // Another instance on the same database sees the same people.
    let twin = desk::Desk::open(store.clone(), "http://127.0.0.1:3000")
        .await
        .expect("desk");
    assert!(!desk.has_people().await.expect("people"));
    let (alice, token) = desk.add_person("alice", Role::Person).await.expect("added");
    assert_eq!(alice.role, Role::Person);
    assert!(token.starts_with(desk::TOKEN_PREFIX));
    assert_eq!(
        token.len(),
        desk::TOKEN_PREFIX.len() + 40,
        "160 bits in hex"
    );
    let (_, bot_token) = desk.add_person("bot", Role::Agent).await.expect("added");
    assert_ne!(token, bot_token);
    assert!(matches!(
        desk.add_person("alice", Role::Admin).await,
        Err(DeskError::Conflict(_))
    ));
    let Err(DeskError::Invalid(problems)) = desk.add_person("no one", Role::Person).await else {
        panic!("a name with a space must be refused");
    };
    assert_eq!(problems.0[0].path, "name");
    let names: Vec<(String, Role)> = twin
        .people()
        .await
        .expect("people")
        .into_iter()
        .map(|p| (p.name, p.role))
        .collect();
    assert_eq!(
        names,
        [
            ("alice".to_owned(), Role::Person),
            ("bot".to_owned(), Role::Agent)
        ]
    );
    assert!(twin.has_people().await.expect("people"));
    assert_eq!(
        twin.person_by_token(&token).await.expect("read"),
        Some(alice.clone())
    );
    assert_eq!(
        twin.person_by_token(&format!("{token}0"))
            .await
            .expect("read"),
        None
    );
    assert_eq!(twin.person_by_token("").await.expect("read"), None);
    let cookie = desk
        .open_session(&desk::Grant::Person(alice.clone()))
        .await
        .expect("session");
    assert_eq!(
        twin.session(&cookie).await.expect("read"),
        Some(desk::Grant::Person(alice.clone()))
    );
    assert!(twin.remove_person("alice").await.expect("removed"));
    assert!(!twin.remove_person("alice").await.expect("gone already"));
    assert_eq!(desk.person_by_token(&token).await.expect("read"), None);
    assert_eq!(desk.session(&cookie).await.expect("read"), None);
    // A new alice does not inherit the old one's session or token.
    let (_, new_token) = desk.add_person("alice", Role::Person).await.expect("added");
    assert_ne!(new_token, token);
    assert_eq!(desk.session(&cookie).await.expect("read"), None);
}

pub async fn sessions_are_whose_they_were_opened_for_until_closed(kind: Kind) {
    let now = Arc::new(AtomicI64::new(1_000_000));
    let clock = now.clone();
    let (desk, _db) = desk_on(kind).await;
    let desk = desk.with_clock(Arc::new(move || clock.load(Ordering::SeqCst)));
    let admin = desk::Grant::Admin {
        tag: "tag-1".to_owned(),
    };
    let one = desk.open_session(&admin).await.expect("session");
    let two = desk.open_session(&admin).await.expect("session");
    assert_ne!(one, two, "every sign-in gets a cookie of its own");
    assert!(one.len() >= 64, "256 bits");
    assert_eq!(desk.session(&one).await.expect("read"), Some(admin.clone()));
    assert_eq!(desk.session("nonsense").await.expect("read"), None);
    desk.close_session(&one).await.expect("closed");
    assert_eq!(desk.session(&one).await.expect("read"), None);
    assert_eq!(desk.session(&two).await.expect("read"), Some(admin));
    now.fetch_add(desk::SESSION_MS, Ordering::SeqCst);
    assert_eq!(desk.session(&two).await.expect("read"), None, "expired");
}

pub async fn every_finish_records_who_and_through_what_and_expiry_records_neither(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let alice = as_person("alice", Role::Person, Via::Tui);
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!((ask.answered_by, ask.via), (None, None), "pending");
    let answered = desk
        .answer(&id, combined(), &alice)
        .await
        .expect("answered");
    assert_eq!(answered.answered_by.as_deref(), Some("alice"));
    assert_eq!(answered.via, Some(Via::Tui));
    let read = desk
        .get(&id, &desk::Caller::Unnamed)
        .await
        .expect("read back");
    assert_eq!(read.answered_by.as_deref(), Some("alice"));
    assert_eq!(read.via, Some(Via::Tui));
    // A refused second finish changes neither.
    let bob = as_person("bob", Role::Person, Via::Web);
    assert!(desk.decline(&id, Decline::default(), &bob).await.is_err());
    assert_eq!(
        desk.get(&id, &desk::Caller::Unnamed)
            .await
            .expect("read")
            .answered_by
            .as_deref(),
        Some("alice")
    );

    let declined = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let ask = desk
        .decline(
            &declined,
            Decline::default(),
            &desk::Actor::new(desk::Caller::Link, Via::Form),
        )
        .await
        .expect("declined");
    assert_eq!((ask.answered_by, ask.via), (None, Some(Via::Form)));
    let bot = as_person("bot", Role::Agent, Via::Mcp);
    let cancelled = desk
        .create(new_ask(None), &bot.caller)
        .await
        .expect("created")
        .id;
    let ask = desk.cancel(&cancelled, &bot).await.expect("cancelled");
    assert_eq!(
        (ask.answered_by.as_deref(), ask.via),
        (Some("bot"), Some(Via::Mcp))
    );

    let now = Arc::new(AtomicI64::new(1_000_000));
    let clock = now.clone();
    let timed = desk.with_clock(Arc::new(move || clock.load(Ordering::SeqCst)));
    let expiring = timed
        .create(new_ask(Some(1)), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    now.fetch_add(5_000, Ordering::SeqCst);
    let ask = timed
        .get(&expiring, &desk::Caller::Unnamed)
        .await
        .expect("expired");
    assert_eq!(ask.status, AskStatus::Expired);
    assert_eq!((ask.answered_by, ask.via), (None, None));
}

pub async fn an_ask_is_routed_to_people_of_the_desk_and_unknown_names_are_refused(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    desk.add_person("alice", Role::Person).await.expect("added");
    desk.add_person("bob", Role::Person).await.expect("added");
    let routed = |to: &[&str]| {
        let mut ask = new_ask(None);
        ask.to = to.iter().map(|s| (*s).to_owned()).collect();
        ask
    };
    let Err(DeskError::Invalid(problems)) = desk
        .create(routed(&["alice", "carol", "dave"]), &desk::Caller::Unnamed)
        .await
    else {
        panic!("unknown names must be refused");
    };
    let found: Vec<(&str, ProblemCode)> = problems
        .0
        .iter()
        .map(|p| (p.path.as_str(), p.code))
        .collect();
    assert_eq!(
        found,
        [
            ("to[1]", ProblemCode::UnknownRecipient),
            ("to[2]", ProblemCode::UnknownRecipient)
        ]
    );
    let Err(DeskError::Invalid(problems)) = desk
        .create(routed(&["alice", "alice"]), &desk::Caller::Unnamed)
        .await
    else {
        panic!("a name twice must be refused");
    };
    assert_eq!(problems.0[0].code, ProblemCode::InvalidRecipient);
    assert!(
        desk.list(None, &desk::Caller::Unnamed)
            .await
            .expect("list")
            .is_empty(),
        "nothing stored"
    );

    let id = desk
        .create(routed(&["bob", "alice"]), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(ask.to, ["bob", "alice"]);
    let listed = desk.list(None, &desk::Caller::Unnamed).await.expect("list");
    assert_eq!(listed[0].to, ["bob", "alice"]);
    let open = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    assert!(desk
        .get(&open, &desk::Caller::Unnamed)
        .await
        .expect("ask")
        .to
        .is_empty());
    // The event stream's summaries carry it too.
    let events = desk.events_since(0).await.expect("events").expect("kept");
    assert_eq!(events[0].ask.to, ["bob", "alice"]);
}

pub async fn a_new_ask_is_pending_with_an_unguessable_id_and_its_url(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let created = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created");
    assert_eq!(created.status, AskStatus::Pending);
    assert_eq!(created.id.len(), 32);
    assert_eq!(
        created.url,
        format!("http://127.0.0.1:3000/asks/{}", created.id)
    );
    assert_eq!(created.expires_at, None);
    let ask = desk
        .get(&created.id, &desk::Caller::Unnamed)
        .await
        .expect("stored");
    assert_eq!(ask.title.as_deref(), Some("Release plan"));
    assert_eq!(ask.agent.as_deref(), Some("test-agent"));
    assert_eq!(ask.request.questions().len(), 2);
    assert_eq!(ask.answers, None);
    assert_eq!(ask.projection, None);
    let other = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created");
    assert_ne!(other.id, created.id);
}

pub async fn an_invalid_new_ask_is_refused_and_nothing_is_stored(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let bad: NewAsk = serde_json::from_value(serde_json::json!({"questions": []})).expect("shape");
    let Err(DeskError::Invalid(problems)) = desk.create(bad, &desk::Caller::Unnamed).await else {
        panic!("must be refused");
    };
    assert_eq!(problems.0[0].path, "questions");
    assert!(desk
        .list(None, &desk::Caller::Unnamed)
        .await
        .expect("list")
        .is_empty());
}

pub async fn a_combined_multi_select_answer_is_stored_canonically_with_its_projection(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let ask = desk
        .answer(&id, combined(), &by_api())
        .await
        .expect("answered");
    assert_eq!(ask.status, AskStatus::Answered);
    assert!(ask.finished_at.is_some());
    let stored = serde_json::to_value(&ask.answers).expect("json");
    assert_eq!(
        stored,
        serde_json::json!([
            {"id": "features", "selected": ["Auth", "Metrics"], "custom": "Rate limiting"},
            {"id": "db", "selected": ["SQLite"]}
        ])
    );
    let projection = ask.projection.expect("projection once answered");
    assert!(
        projection.text.contains("\"Rate limiting\""),
        "{}",
        projection.text
    );
    assert_eq!(
        desk.get(&id, &desk::Caller::Unnamed)
            .await
            .expect("read back")
            .answers,
        ask.answers
    );
}

pub async fn refused_answers_leave_the_ask_pending(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let both = answers(serde_json::json!([
        {"id": "db", "selected": ["SQLite"], "custom": "DuckDB"},
        {"id": "features", "selected": ["Auth"]}
    ]));
    let Err(DeskError::Invalid(problems)) = desk.answer(&id, both, &by_api()).await else {
        panic!("single-select with label and custom must be refused");
    };
    assert_eq!(problems.0[0].code.as_str(), "exclusive_custom");
    assert_eq!(problems.0[0].path, "answers[0].custom");
    assert_eq!(
        desk.get(&id, &desk::Caller::Unnamed)
            .await
            .expect("ask")
            .status,
        AskStatus::Pending
    );
}

pub async fn a_second_answer_is_refused_and_the_first_stays(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let first = desk
        .answer(&id, combined(), &by_api())
        .await
        .expect("first");
    let other = answers(serde_json::json!([
        {"id": "db", "selected": ["PostgreSQL"]},
        {"id": "features", "selected": ["Logging"]}
    ]));
    let Err(DeskError::Finished(ask)) = desk.answer(&id, other, &by_api()).await else {
        panic!("second answer must be refused");
    };
    assert_eq!(ask.answers, first.answers);
    let Err(DeskError::Finished(_)) = desk.decline(&id, Decline::default(), &by_api()).await else {
        panic!("an answered ask cannot be declined");
    };
    assert_eq!(
        desk.get(&id, &desk::Caller::Unnamed)
            .await
            .expect("ask")
            .answers,
        first.answers
    );
}

pub async fn cancelled_and_expired_asks_are_gone(kind: Kind) {
    let now = Arc::new(AtomicI64::new(1_000_000));
    let clock = now.clone();
    let (desk, _db) = desk_on(kind).await;
    let desk = desk.with_clock(Arc::new(move || clock.load(Ordering::SeqCst)));
    let cancelled = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    assert_eq!(
        desk.cancel(&cancelled, &by_api())
            .await
            .expect("cancel")
            .status,
        AskStatus::Cancelled
    );
    let Err(DeskError::Gone(ask)) = desk.answer(&cancelled, combined(), &by_api()).await else {
        panic!("cancelled ask must be gone");
    };
    assert_eq!(ask.status, AskStatus::Cancelled);
    // A retried cancel is told what the first was told; nothing changes.
    let again = desk
        .cancel(&cancelled, &by_api())
        .await
        .expect("cancelled again");
    assert_eq!(
        (again.status, again.finished_at),
        (AskStatus::Cancelled, ask.finished_at)
    );

    let expiring = desk
        .create(new_ask(Some(60)), &desk::Caller::Unnamed)
        .await
        .expect("created");
    assert_eq!(
        expiring.expires_at.map(|at| at.to_string()).as_deref(),
        Some("1970-01-01T00:17:40.000Z")
    );
    now.fetch_add(59_999, Ordering::SeqCst);
    assert_eq!(
        desk.get(&expiring.id, &desk::Caller::Unnamed)
            .await
            .expect("ask")
            .status,
        AskStatus::Pending
    );
    now.fetch_add(1, Ordering::SeqCst);
    let Err(DeskError::Gone(ask)) = desk.answer(&expiring.id, combined(), &by_api()).await else {
        panic!("expired ask must be gone");
    };
    assert_eq!(ask.status, AskStatus::Expired);
    assert_eq!(ask.finished_at, ask.expires_at);
    // An ask that ended otherwise is not cancelled by a late cancel.
    assert!(matches!(
        desk.cancel(&expiring.id, &by_api()).await,
        Err(DeskError::Gone(ask)) if ask.status == AskStatus::Expired
    ));
    assert_eq!(
        ask.projection.expect("projection").structured.status,
        interaction::AskStatus::Expired
    );
}

pub async fn listing_expires_due_asks_and_shows_the_newest_first(kind: Kind) {
    let now = Arc::new(AtomicI64::new(5_000));
    let clock = now.clone();
    let (desk, _db) = desk_on(kind).await;
    let desk = desk.with_clock(Arc::new(move || clock.load(Ordering::SeqCst)));
    let old = desk
        .create(new_ask(Some(1)), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    now.fetch_add(10, Ordering::SeqCst);
    let newer = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let pending: Vec<_> = desk
        .list(Some(AskStatus::Pending), &desk::Caller::Unnamed)
        .await
        .expect("list");
    assert_eq!(
        pending.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(),
        [&newer, &old]
    );
    assert_eq!(pending[0].question_count, 2);
    now.fetch_add(1_000, Ordering::SeqCst);
    let pending = desk
        .list(Some(AskStatus::Pending), &desk::Caller::Unnamed)
        .await
        .expect("list");
    assert_eq!(pending.len(), 1);
    let expired = desk
        .list(Some(AskStatus::Expired), &desk::Caller::Unnamed)
        .await
        .expect("list");
    assert_eq!(expired[0].id, old);
}

pub async fn unknown_and_malformed_ids_are_not_found(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    for id in [
        "0123456789abcdef0123456789abcdef",
        "nope",
        "../../etc/passwd",
    ] {
        assert!(
            matches!(
                desk.get(id, &desk::Caller::Unnamed).await,
                Err(DeskError::NotFound)
            ),
            "{id}"
        );
        assert!(
            matches!(desk.cancel(id, &by_api()).await, Err(DeskError::NotFound)),
            "{id}"
        );
    }
}

pub async fn a_long_poll_wakes_when_the_ask_is_answered(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let waiter = tokio::spawn({
        let desk = desk.clone();
        let id = id.clone();
        async move {
            desk.wait(&id, Duration::from_secs(60), &desk::Caller::Unnamed)
                .await
        }
    });
    // The waiter has subscribed once it has read the pending ask; answering
    // at any point after spawning must still wake it.
    desk.answer(&id, combined(), &by_api())
        .await
        .expect("answered");
    let ask = tokio::time::timeout(Duration::from_secs(30), waiter)
        .await
        .expect("woke before the 30 s guard")
        .expect("task")
        .expect("ask");
    assert_eq!(ask.status, AskStatus::Answered);
}

pub async fn a_long_poll_returns_the_pending_ask_when_its_wait_is_over(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let ask = desk
        .wait(&id, Duration::from_millis(50), &desk::Caller::Unnamed)
        .await
        .expect("ask");
    assert_eq!(ask.status, AskStatus::Pending);
}

pub async fn a_long_poll_ends_when_the_ask_expires(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let id = desk
        .create(new_ask(Some(1)), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let ask = desk
        .wait(&id, Duration::from_secs(60), &desk::Caller::Unnamed)
        .await
        .expect("ask");
    assert_eq!(ask.status, AskStatus::Expired);
}

pub async fn concurrent_submissions_yield_exactly_one_success(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let tasks: Vec<_> = (0..16)
        .map(|i| {
            let desk = desk.clone();
            let id = id.clone();
            tokio::spawn(async move {
                if i % 2 == 0 {
                    desk.answer(&id, combined(), &by_api()).await
                } else {
                    desk.decline(
                        &id,
                        Decline {
                            reason: Some(format!("no {i}")),
                        },
                        &by_api(),
                    )
                    .await
                }
            })
        })
        .collect();
    let mut successes = 0;
    for task in tasks {
        match task.await.expect("task") {
            Ok(_) => successes += 1,
            Err(DeskError::Finished(_)) => {}
            Err(e) => panic!("unexpected error: {e}"),
        }
    }
    assert_eq!(successes, 1);
}

/// What an agent whose client relays answers joins with.
fn relaying() -> desk::Joining {
    desk::Joining {
        relays_answers: true,
        ..desk::Joining::default()
    }
}

fn key(text: &str) -> IdempotencyKey {
    IdempotencyKey::parse(text, "idempotencyKey").expect("key")
}

pub async fn the_same_idempotency_key_gives_the_same_ask_and_other_content_is_refused(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let once = key("call-7f3a");
    let (first, made) = desk
        .create_once(
            new_ask(None),
            &once,
            "idempotencyKey",
            &desk::Caller::Unnamed,
        )
        .await
        .expect("created");
    assert!(made);
    let (again, made) = desk
        .create_once(
            new_ask(None),
            &once,
            "idempotencyKey",
            &desk::Caller::Unnamed,
        )
        .await
        .expect("the same ask");
    assert!(!made);
    assert_eq!(again, first);
    assert_eq!(
        desk.list(None, &desk::Caller::Unnamed)
            .await
            .expect("list")
            .len(),
        1
    );
    // What the agent was doing is shown, not asked: a retry that read more
    // of it is the same ask.
    let mut with_context = new_ask(None);
    with_context.context = Some("I read more of the transcript.".to_owned());
    let (same, made) = desk
        .create_once(
            with_context,
            &once,
            "idempotencyKey",
            &desk::Caller::Unnamed,
        )
        .await
        .expect("the same ask");
    assert!(!made);
    assert_eq!(same, first);

    let mut other = new_ask(None);
    other.title = Some("Another plan".to_owned());
    let Err(DeskError::Invalid(problems)) = desk
        .create_once(other, &once, "idempotencyKey", &desk::Caller::Unnamed)
        .await
    else {
        panic!("other content under a used key must be refused");
    };
    assert!(problems.has(ProblemCode::IdempotencyConflict));
    assert_eq!(problems.0[0].path, "idempotencyKey");

    // Once answered, the key still names that ask, now answered.
    desk.answer(&first.id, combined(), &by_api())
        .await
        .expect("answered");
    let (after, made) = desk
        .create_once(
            new_ask(None),
            &once,
            "idempotencyKey",
            &desk::Caller::Unnamed,
        )
        .await
        .expect("the same ask");
    assert!(!made);
    assert_eq!(
        (after.id.as_str(), after.status),
        (first.id.as_str(), AskStatus::Answered)
    );
    assert_eq!(
        desk.list(None, &desk::Caller::Unnamed)
            .await
            .expect("list")
            .len(),
        1
    );
}

pub async fn racing_creations_with_one_key_make_one_ask(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let tasks: Vec<_> = (0..16)
        .map(|_| {
            let desk = desk.clone();
            tokio::spawn(async move {
                desk.create_once(
                    new_ask(None),
                    &key("retried-call"),
                    "idempotencyKey",
                    &desk::Caller::Unnamed,
                )
                .await
            })
        })
        .collect();
    let mut ids = std::collections::HashSet::new();
    let mut made = 0;
    for task in tasks {
        let (created, new) = task.await.expect("task").expect("created");
        ids.insert(created.id);
        made += usize::from(new);
    }
    assert_eq!(ids.len(), 1, "one ask for one key");
    assert_eq!(made, 1, "made once, found fifteen times");
    assert_eq!(
        desk.list(None, &desk::Caller::Unnamed)
            .await
            .expect("list")
            .len(),
        1
    );
}

/// The status of each event, as `events_since` replays them.
async fn replayed(desk: &desk::Desk, after: u64) -> Option<Vec<(u64, String, AskStatus)>> {
    let events = desk.events_since(after).await.expect("events");
    events.map(|events| {
        events
            .iter()
            .map(|e| (e.seq, e.ask.id.clone(), e.ask.status))
            .collect()
    })
}

pub async fn events_are_numbered_by_the_store_and_replay_the_status_each_had(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    assert_eq!(desk.version(), 0);
    let mut live = desk.subscribe();
    let a = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("a")
        .id;
    let b = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("b")
        .id;
    desk.answer(&a, combined(), &by_api())
        .await
        .expect("answered");
    desk.cancel(&b, &by_api()).await.expect("cancelled");

    let expected = vec![
        (1, a.clone(), AskStatus::Pending),
        (2, b.clone(), AskStatus::Pending),
        (3, a.clone(), AskStatus::Answered),
        (4, b.clone(), AskStatus::Cancelled),
    ];
    assert_eq!(replayed(&desk, 0).await, Some(expected.clone()));
    assert_eq!(replayed(&desk, 2).await, Some(expected[2..].to_vec()));
    assert_eq!(replayed(&desk, 4).await, Some(Vec::new()));
    assert_eq!(desk.version(), 4);
    for want in expected {
        let event = live.try_recv().expect("published when the call returned");
        assert_eq!((event.seq, event.ask.id.clone(), event.ask.status), want);
    }
    assert_eq!(
        replayed(&desk, 5).await,
        None,
        "a number this store has not given is not resumed from"
    );
}

pub async fn racing_changes_are_published_once_each_in_number_order(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let mut live = desk.subscribe();
    let tasks: Vec<_> = (0..16)
        .map(|_| {
            let desk = desk.clone();
            tokio::spawn(async move {
                let id = desk
                    .create(new_ask(None), &desk::Caller::Unnamed)
                    .await
                    .expect("created")
                    .id;
                desk.answer(&id, combined(), &by_api())
                    .await
                    .expect("answered");
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("task");
    }
    let heard: Vec<u64> = (0..32)
        .map(|_| live.try_recv().expect("every change is published").seq)
        .collect();
    assert_eq!(heard, (1..=32).collect::<Vec<u64>>());
    assert!(live.try_recv().is_err(), "and each only once");
    let stored = replayed(&desk, 0).await.expect("kept");
    assert_eq!(
        stored.iter().map(|e| e.0).collect::<Vec<_>>(),
        (1..=32).collect::<Vec<u64>>()
    );
}

pub async fn pruned_events_are_not_replayed_and_unknown_numbers_are_refused(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    for _ in 0..5 {
        desk.create(new_ask(None), &desk::Caller::Unnamed)
            .await
            .expect("created");
    }
    desk.prune_events(2).await.expect("pruned");
    assert_eq!(replayed(&desk, 2).await, None, "event 3 is gone");
    let kept = replayed(&desk, 3).await.expect("4 and 5 are kept");
    assert_eq!(kept.iter().map(|e| e.0).collect::<Vec<_>>(), vec![4, 5]);
    // Pruning again with nothing to forget changes nothing.
    desk.prune_events(2).await.expect("pruned");
    assert_eq!(replayed(&desk, 3).await.map(|e| e.len()), Some(2));
    desk.create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created");
    assert_eq!(replayed(&desk, 3).await.map(|e| e.len()), Some(3));
}

pub async fn notifications_owed_are_written_with_each_change_and_leased_to_one_worker(kind: Kind) {
    let now = Arc::new(AtomicI64::new(1_000_000));
    let clock = now.clone();
    let (desk, _db) = desk_on(kind).await;
    let quiet = desk.clone();
    let desk = desk
        .with_clock(Arc::new(move || clock.load(Ordering::SeqCst)))
        .notifying(vec!["webhook a".to_owned(), "webhook b".to_owned()]);
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let owed = desk.delivery_rows(&id).await.expect("deliveries");
    assert_eq!(owed.len(), 2, "one per channel: {owed:?}");
    assert!(owed
        .iter()
        .all(|d| d.notice == Notice::Created && d.attempts == 0));
    desk.answer(&id, combined(), &by_api())
        .await
        .expect("answered");
    // A refused change owes nothing.
    desk.answer(&id, combined(), &by_api())
        .await
        .expect_err("answered already");
    let owed = desk.delivery_rows(&id).await.expect("deliveries");
    assert_eq!(owed.len(), 4, "{owed:?}");
    let mut ids: Vec<&str> = owed.iter().map(|d| d.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 4, "every delivery has its own id");
    assert!(ids.iter().all(|id| id.starts_with("dlv_")));
    // A desk told of no channel owes nothing.
    let other = quiet
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    assert!(quiet.delivery_rows(&other).await.expect("none").is_empty());

    let lease = Duration::from_secs(60);
    let claimed = desk.claim_deliveries(lease, 10).await.expect("claim");
    assert_eq!(claimed.len(), 4);
    assert!(claimed
        .iter()
        .all(|c| c.attempts == 1 && c.ask_id.as_str() == id));
    assert!(
        desk.claim_deliveries(lease, 10)
            .await
            .expect("claim")
            .is_empty(),
        "leased"
    );
    let ids_of = |notice| -> Vec<String> {
        claimed
            .iter()
            .filter(|c| c.notice == notice)
            .map(|c| c.id.clone())
            .collect()
    };
    let [delivered, retried] = <[String; 2]>::try_from(ids_of(Notice::Created)).expect("two");
    let [gave_up, left] = <[String; 2]>::try_from(ids_of(Notice::Finished)).expect("two");
    desk.record_attempt(&delivered, &Attempt::Delivered)
        .await
        .expect("record");
    let retry = Attempt::Retry {
        error: "502 Bad Gateway".to_owned(),
        retry_at: 1_005_000,
    };
    desk.record_attempt(&retried, &retry).await.expect("record");
    let give_up = Attempt::GaveUp {
        error: "refused for 24 h".to_owned(),
    };
    desk.record_attempt(&gave_up, &give_up)
        .await
        .expect("record");

    // The retry is due at its time; the one whose worker went quiet comes
    // back when its lease ends; delivered and abandoned ones never.
    now.store(1_005_000, Ordering::SeqCst);
    let again = desk.claim_deliveries(lease, 10).await.expect("claim");
    assert_eq!(
        again
            .iter()
            .map(|c| (&c.id, c.attempts))
            .collect::<Vec<_>>(),
        [(&retried, 2)]
    );
    now.store(1_060_001, Ordering::SeqCst);
    let again = desk.claim_deliveries(lease, 10).await.expect("claim");
    assert_eq!(
        again
            .iter()
            .map(|c| (&c.id, c.attempts))
            .collect::<Vec<_>>(),
        [(&left, 2)]
    );

    let states = desk.delivery_rows(&id).await.expect("deliveries");
    let state = |id: &str| states.iter().find(|d| d.id == id).expect("listed").clone();
    let done = state(&delivered);
    assert_eq!(
        (done.delivered_at, done.last_error, done.attempts),
        (Some(1_000_000), None, 1)
    );
    let failing = state(&retried);
    assert_eq!(failing.last_error.as_deref(), Some("502 Bad Gateway"));
    assert_eq!(
        (failing.attempts, failing.last_at, failing.delivered_at),
        (2, Some(1_005_000), None)
    );
    let abandoned = state(&gave_up);
    assert_eq!(abandoned.failed_at, Some(1_000_000));
    assert_eq!(abandoned.last_error.as_deref(), Some("refused for 24 h"));
    // As the API and the page show them: in the order owed, each state.
    let shown = desk.deliveries(&id).await.expect("deliveries");
    let state_of = |id: &str| {
        let d = shown.iter().find(|d| d.id == id).expect("shown");
        (d.event, d.state)
    };
    use interaction::DeliveryState::{Delivered, Failed, Pending};
    assert_eq!(state_of(&delivered), (Notice::Created, Delivered));
    assert_eq!(state_of(&retried), (Notice::Created, Pending));
    assert_eq!(state_of(&gave_up), (Notice::Finished, Failed));
    assert_eq!(state_of(&left), (Notice::Finished, Pending));
    let done = shown.iter().find(|d| d.id == delivered).expect("shown");
    assert_eq!(
        done.delivered_at.map(|at| at.to_string()).as_deref(),
        Some("1970-01-01T00:16:40.000Z")
    );
}

pub async fn racing_workers_claim_each_delivery_once(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let desk = desk.notifying(vec!["webhook".to_owned()]);
    for _ in 0..40 {
        desk.create(new_ask(None), &desk::Caller::Unnamed)
            .await
            .expect("created");
    }
    let workers = (0..8).map(|_| {
        let desk = desk.clone();
        tokio::spawn(async move {
            let mut mine = Vec::new();
            loop {
                let claimed = desk
                    .claim_deliveries(Duration::from_secs(60), 3)
                    .await
                    .expect("claim");
                if claimed.is_empty() {
                    return mine;
                }
                mine.extend(claimed.into_iter().map(|c| c.id));
            }
        })
    });
    let mut all = Vec::new();
    for worker in workers.collect::<Vec<_>>() {
        all.extend(worker.await.expect("worker"));
    }
    let count = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(
        (count, all.len()),
        (40, 40),
        "each delivery claimed by one worker, once"
    );
}

fn yes_no() -> NewAsk {
    serde_json::from_value(serde_json::json!({
        "questions": [{"id": "go", "question": "Ship it?",
                       "options": [{"label": "Yes"}, {"label": "No"}]}]
    }))
    .expect("ask")
}

pub async fn action_tokens_answer_once_and_only_their_own_ask_and_option(kind: Kind) {
    let (store, _db) = crate::common::store_on(kind).await;
    let desk = desk::Desk::open(store.clone(), "http://127.0.0.1:3000")
        .await
        .expect("desk");
    // Another instance on the same database makes the same tokens.
    let twin = desk::Desk::open(store, "http://127.0.0.1:3000")
        .await
        .expect("desk");
    let id = desk
        .create(yes_no(), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let other = desk
        .create(yes_no(), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    let actions = desk.actions(&ask, 3, Via::Ntfy);
    assert_eq!(actions.len(), 2);
    assert_eq!(twin.actions(&ask, 3, Via::Ntfy), actions);
    assert_ne!(
        desk.actions(&ask, 3, Via::Slack),
        actions,
        "each surface has its own tokens"
    );
    assert!(
        desk.actions(&ask, 1, Via::Ntfy).is_empty(),
        "more options than buttons"
    );
    let multi = desk
        .get(
            &desk
                .create(new_ask(None), &desk::Caller::Unnamed)
                .await
                .expect("created")
                .id,
            &desk::Caller::Unnamed,
        )
        .await;
    assert!(
        desk.actions(&multi.expect("ask"), 3, Via::Ntfy).is_empty(),
        "two questions"
    );
    let (yes, yes_token) = actions[0].clone();
    let (no, no_token) = actions[1].clone();
    const SURFACES: [Via; 3] = [Via::Ntfy, Via::Slack, Via::Push];

    let forbidden =
        |r: Result<interaction::Ask, DeskError>| matches!(r, Err(DeskError::Forbidden(_)));
    assert!(
        forbidden(desk.answer_by_action(&SURFACES, &id, &no, &yes_token).await),
        "another option"
    );
    assert!(
        forbidden(
            desk.answer_by_action(&SURFACES, &other, &yes, &yes_token)
                .await
        ),
        "another ask"
    );
    assert!(
        forbidden(desk.answer_by_action(&SURFACES, &id, &yes, "00").await),
        "forged"
    );
    assert!(
        forbidden(
            desk.answer_by_action(&[Via::Slack], &id, &yes, &yes_token)
                .await
        ),
        "an ntfy token pressed as a Slack button"
    );
    assert_eq!(
        desk.get(&id, &desk::Caller::Unnamed)
            .await
            .expect("ask")
            .status,
        AskStatus::Pending
    );

    let answered = twin
        .answer_by_action(&SURFACES, &id, &yes, &yes_token)
        .await
        .expect("answered");
    assert_eq!(answered.status, AskStatus::Answered);
    assert_eq!(answered.answers.expect("answers")[0].selected, ["Yes"]);
    assert_eq!(answered.via, Some(Via::Ntfy), "the token's surface");
    assert_eq!(answered.answered_by, None);
    assert!(
        forbidden(
            desk.answer_by_action(&SURFACES, &id, &yes, &yes_token)
                .await
        ),
        "used"
    );
    assert!(matches!(
        desk.answer_by_action(&SURFACES, &id, &no, &no_token).await,
        Err(DeskError::Finished(_))
    ));
    let ended = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(ended.answers.expect("answers")[0].selected, ["Yes"]);
    assert_eq!(ended.via, Some(Via::Ntfy), "read back");
}

pub async fn reminders_are_written_with_the_ask_come_due_in_turn_and_end_with_it(kind: Kind) {
    let now = Arc::new(AtomicI64::new(1_000_000));
    let clock = now.clone();
    let (desk, _db) = desk_on(kind).await;
    let desk = desk
        .with_clock(Arc::new(move || clock.load(Ordering::SeqCst)))
        .notifying(vec!["hook".to_owned()])
        .reminding(Reminders {
            every: Some(Duration::from_secs(60)),
            max: 3,
            escalate: Some(("pager".to_owned(), Duration::from_secs(150))),
        });
    let lease = Duration::from_secs(5);
    let claim = |desk: &desk::Desk| {
        let desk = desk.clone();
        async move {
            // Claimed and delivered.
            let claimed = desk.claim_deliveries(lease, 50).await.expect("claim");
            for c in &claimed {
                desk.record_attempt(&c.id, &Attempt::Delivered)
                    .await
                    .expect("record");
            }
            let mut got: Vec<(String, Notice)> =
                claimed.into_iter().map(|c| (c.channel, c.notice)).collect();
            got.sort_by_key(|(channel, notice)| (channel.clone(), notice.as_str()));
            got
        }
    };
    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    // An ask that expires after 90 s gets only the reminder due before.
    let short = desk
        .create(new_ask(Some(90)), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    assert_eq!(
        desk.delivery_rows(&id).await.expect("rows").len(),
        1 + 3 + 1
    );
    assert_eq!(desk.delivery_rows(&short).await.expect("rows").len(), 1 + 1);
    let created = (String::from("hook"), Notice::Created);
    assert_eq!(claim(&desk).await, [created.clone(), created]);
    now.store(1_060_000, Ordering::SeqCst);
    let reminder = (String::from("hook"), Notice::Reminder);
    assert_eq!(claim(&desk).await, [reminder.clone(), reminder.clone()]);
    now.store(1_120_000, Ordering::SeqCst);
    assert_eq!(claim(&desk).await, [reminder]);
    // The ask is answered before its third reminder and its escalation:
    // those are owed no more; its end is.
    desk.answer(&id, combined(), &by_api())
        .await
        .expect("answered");
    now.store(1_200_000, Ordering::SeqCst);
    assert_eq!(
        claim(&desk).await,
        [(String::from("hook"), Notice::Finished)]
    );
    let rows = desk.delivery_rows(&id).await.expect("rows");
    assert_eq!(
        rows.iter().filter(|r| r.notice == Notice::Reminder).count(),
        2
    );
    assert!(!rows.iter().any(|r| r.channel == "pager"));
}

pub async fn a_thousand_asks_page_through_without_gaps_or_repeats_and_filter_by_status_agent_and_text(
    kind: Kind,
) {
    // Seven asks in each millisecond: pages must cut ties too.
    let now = Arc::new(AtomicI64::new(1_000_000));
    let clock = now.clone();
    let (desk, _db) = desk_on(kind).await;
    let desk = desk.with_clock(Arc::new(move || clock.load(Ordering::SeqCst)));
    let mut made = Vec::new();
    for n in 0..1000 {
        if n % 7 == 0 {
            now.fetch_add(1, Ordering::SeqCst);
        }
        let mut ask = serde_json::to_value(new_ask(None)).expect("JSON");
        ask["agent"] = if n % 2 == 0 { "agent-a" } else { "agent-b" }.into();
        ask["title"] = format!("Ask {n}").into();
        if n % 100 == 0 {
            ask["questions"][0]["question"] = format!("Take the 50%_Off deal #{n}?").into();
        }
        if n % 100 == 50 {
            ask["questions"][0]["question"] = "Take the 50x Off deal?".into();
        }
        let ask: NewAsk = serde_json::from_value(ask).expect("ask");
        made.push(
            desk.create(ask, &desk::Caller::Unnamed)
                .await
                .expect("created")
                .id,
        );
    }
    let all = |filter: ListFilter, limit: u32| {
        let desk = desk.clone();
        async move {
            let (mut ids, mut pages) = (Vec::new(), 0);
            let mut filter = filter;
            loop {
                let page = desk
                    .search(&filter, limit, &desk::Caller::Unnamed)
                    .await
                    .expect("page");
                assert!(page.asks.len() <= limit as usize);
                pages += 1;
                ids.extend(page.asks.into_iter().map(|a| a.id));
                match page.next {
                    Some(next) => filter.after = Some(next),
                    None => return (ids, pages),
                }
            }
        }
    };
    let newest_first: Vec<String> = made.iter().rev().cloned().collect();
    let (ids, pages) = all(ListFilter::default(), 37).await;
    assert_eq!(ids, newest_first, "every ask once, newest first");
    assert_eq!(pages, 28);
    // A cursor survives its text form.
    let first = desk
        .search(&ListFilter::default(), 10, &desk::Caller::Unnamed)
        .await
        .expect("page");
    let next = first.next.expect("more");
    assert_eq!(desk::Cursor::parse(&next.encode()), Some(next));

    let by_agent = ListFilter {
        agent: Some("agent-b".to_owned()),
        ..ListFilter::default()
    };
    let (ids, _) = all(by_agent, 200).await;
    let odd: Vec<String> = newest_first
        .iter()
        .filter(|id| made.iter().position(|m| m == *id).unwrap_or(0) % 2 == 1)
        .cloned()
        .collect();
    assert_eq!(ids, odd);
    // `%` and `_` are matched as themselves, in any case.
    let deals = ListFilter {
        text: Some("50%_oFF".to_owned()),
        ..ListFilter::default()
    };
    let (ids, _) = all(deals, 200).await;
    let hundreds: Vec<String> = (0..10).rev().map(|k| made[k * 100].clone()).collect();
    assert_eq!(ids, hundreds);
    let titled = ListFilter {
        text: Some("ASK 99".to_owned()),
        ..ListFilter::default()
    };
    let (ids, _) = all(titled, 200).await;
    assert_eq!(ids.len(), 11, "Ask 99 and Ask 990..999");

    for id in &made[..5] {
        desk.answer(id, combined(), &by_api())
            .await
            .expect("answered");
    }
    let answered = ListFilter {
        status: Some(AskStatus::Answered),
        ..ListFilter::default()
    };
    let (ids, _) = all(answered, 2).await;
    assert_eq!(ids, made[..5].iter().rev().cloned().collect::<Vec<_>>());
}

/// A NUL or an escape in an ask's title, a question or an answer is
/// refused at its path, whichever store is behind the desk, and nothing is
/// stored.
pub async fn control_characters_are_refused_and_nothing_is_stored(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let mut new = new_ask(None);
    new.title = Some("Deploy\u{0}now".to_owned());
    let Err(DeskError::Invalid(problems)) = desk.create(new, &desk::Caller::Unnamed).await else {
        panic!("a NUL in the title is refused");
    };
    assert_eq!(problems.0[0].path, "title");
    assert_eq!(problems.0[0].code, ProblemCode::ControlCharacter);
    let listed = desk.list(None, &desk::Caller::Unnamed).await.expect("list");
    assert!(listed.is_empty(), "nothing stored");

    let id = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let mut with_escape = combined();
    with_escape.answers[1].custom = Some("Rate\u{1b}[2Jlimiting".to_owned());
    let Err(DeskError::Invalid(problems)) = desk.answer(&id, with_escape, &by_api()).await else {
        panic!("an escape in an answer is refused");
    };
    assert_eq!(problems.0[0].path, "answers[1].custom");
    let ask = desk.get(&id, &desk::Caller::Unnamed).await.expect("ask");
    assert_eq!(ask.status, AskStatus::Pending, "nothing changed");
}

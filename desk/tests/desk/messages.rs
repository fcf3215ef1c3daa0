//! Messages from the person at the desk into the agent's session, on
//! every kind of store.

use crate::common::{as_person, by_api, combined, desk_on, new_ask, Kind};
use desk::{Actor, Caller, DeskError, LinkAnswers};
use interaction::{NewAsk, NewMessage, ProblemCode, Role, Via};
use std::time::Duration;

crate::conformance::suite!(
    messages_go_to_the_session_of_the_ask_in_order_and_only_from_those_who_may_answer,
    a_waiting_read_wakes_when_a_message_is_written,
    a_session_is_the_agents_that_first_named_it,
    messages_on_one_ask_are_capped_and_rate_limited,
);

fn in_session(session: &str) -> NewAsk {
    let mut ask = new_ask(None);
    ask.session = Some(session.to_owned());
    ask
}

fn text(text: &str) -> NewMessage {
    NewMessage {
        text: text.to_owned(),
    }
}

pub async fn messages_go_to_the_session_of_the_ask_in_order_and_only_from_those_who_may_answer(
    kind: Kind,
) {
    let (desk, _db) = desk_on(kind).await;
    let first = desk
        .create(in_session("s-1"), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let other = desk
        .create(in_session("s-2"), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let silent = desk
        .create(new_ask(None), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    desk.add_person("alice", Role::Person).await.expect("added");
    let alice = as_person("alice", Role::Person, Via::Web);

    let sent = desk
        .message(&first, text("  use the staging database "), &alice)
        .await
        .expect("sent");
    assert_eq!(
        (sent.text.as_str(), sent.from.as_deref()),
        ("use the staging database", Some("alice"))
    );
    desk.message(&other, text("not for s-1"), &by_api())
        .await
        .expect("sent");
    let later = desk
        .message(&first, text("and then stop"), &by_api())
        .await
        .expect("sent");
    assert!(later.seq > sent.seq);
    // The shared token (or an open desk) writes as `admin`.
    assert_eq!(later.from.as_deref(), Some("admin"));
    // Once the ask has ended its agent has moved on: nothing more is
    // written, nothing kept.
    desk.answer(&first, combined(), &alice)
        .await
        .expect("answered");
    assert!(matches!(
        desk.message(&first, text("too late"), &by_api()).await,
        Err(DeskError::Conflict(_))
    ));

    let read = desk
        .messages("s-1", 0, None, &desk::Caller::Unnamed)
        .await
        .expect("read");
    let texts: Vec<_> = read.messages.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["use the staging database", "and then stop"]);
    assert_eq!(read.messages[0].ask, first);
    assert_eq!(read.last, later.seq);
    let after = desk
        .messages("s-1", sent.seq, None, &desk::Caller::Unnamed)
        .await
        .expect("read");
    assert_eq!(after.messages.len(), 1);
    let none = desk
        .messages("s-1", later.seq, None, &desk::Caller::Unnamed)
        .await
        .expect("read");
    assert_eq!((none.messages.len(), none.last), (0, later.seq));
    let on_first = desk.messages_on(&first).await.expect("read");
    assert_eq!(on_first, read.messages);

    // An ask whose agent reads no messages, a blank message, an agent's
    // token, and a link once the desk has people: refused, nothing kept.
    assert!(matches!(
        desk.message(&silent, text("hello"), &by_api()).await,
        Err(DeskError::Conflict(_))
    ));
    match desk.message(&other, text(" \n"), &by_api()).await {
        Err(DeskError::Invalid(problems)) => {
            assert_eq!(problems.0[0].code, ProblemCode::EmptyMessage);
        }
        other => panic!("{other:?}"),
    }
    // An agent writes into no session, its own ask's neither; another's
    // ask it does not even find.
    let agent = as_person("bot", Role::Agent, Via::McpClient);
    let own = desk
        .create(in_session("s-3"), &agent.caller)
        .await
        .expect("created")
        .id;
    assert!(matches!(
        desk.message(&own, text("from myself"), &agent).await,
        Err(DeskError::Forbidden(_))
    ));
    assert!(matches!(
        desk.message(&other, text("into another's"), &agent).await,
        Err(DeskError::NotFound)
    ));
    let desk = desk.answering_by_link(LinkAnswers::WithoutPeople);
    let link = Actor::new(Caller::Link, Via::Web);
    assert!(matches!(
        desk.message(&other, text("by link"), &link).await,
        Err(DeskError::Forbidden(_))
    ));
    let s2 = desk
        .messages("s-2", 0, None, &desk::Caller::Unnamed)
        .await
        .expect("read");
    assert_eq!(s2.messages.len(), 1);
    assert!(matches!(
        desk.message("0123", text("x"), &by_api()).await,
        Err(DeskError::NotFound)
    ));
}

pub async fn a_waiting_read_wakes_when_a_message_is_written(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let id = desk
        .create(in_session("waiting"), &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let reader = tokio::spawn({
        let desk = desk.clone();
        async move {
            desk.messages(
                "waiting",
                0,
                Some(Duration::from_secs(60)),
                &desk::Caller::Unnamed,
            )
            .await
        }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    desk.message(&id, text("go on"), &by_api())
        .await
        .expect("sent");
    let read = tokio::time::timeout(Duration::from_secs(30), reader)
        .await
        .expect("woke before the 30 s guard")
        .expect("task")
        .expect("read");
    assert_eq!(read.messages[0].text, "go on");
    // With nothing to read, the wait ends with nothing.
    let empty = desk
        .messages(
            "waiting",
            read.last,
            Some(Duration::from_millis(100)),
            &desk::Caller::Unnamed,
        )
        .await
        .expect("read");
    assert!(empty.messages.is_empty());
}

pub async fn a_session_is_the_agents_that_first_named_it(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let bot = as_person("bot", Role::Agent, Via::Mcp).caller;
    let bot2 = as_person("bot2", Role::Agent, Via::Mcp).caller;
    let admin = as_person("root", Role::Admin, Via::Api).caller;
    let alice = as_person("alice", Role::Person, Via::Web);
    let id = desk
        .create(in_session("bots"), &bot)
        .await
        .expect("bot names its session")
        .id;
    // Another agent's ask naming it is refused at `session`, nothing made.
    match desk.create(in_session("bots"), &bot2).await {
        Err(DeskError::Invalid(problems)) => {
            assert_eq!(problems.0.len(), 1);
            assert_eq!(problems.0[0].path, "session");
            assert_eq!(problems.0[0].code, ProblemCode::SessionTaken);
        }
        other => panic!("bot2 named bot's session: {other:?}"),
    }
    assert!(desk.list(None, &bot2).await.expect("list").is_empty());
    // Its owner names it again; an admin may name any session.
    desk.create(in_session("bots"), &bot)
        .await
        .expect("bot again");
    desk.create(in_session("bots"), &admin)
        .await
        .expect("an admin");
    // Only its agent and admins read it; to anyone else it is not found.
    desk.message(&id, text("for bot"), &alice)
        .await
        .expect("sent");
    for reader in [&bot, &admin, &Caller::Unnamed] {
        let read = desk.messages("bots", 0, None, reader).await.expect("read");
        assert_eq!(read.messages.len(), 1, "{reader:?}");
    }
    for stranger in [&bot2, &alice.caller, &Caller::Link] {
        assert!(
            matches!(
                desk.messages("bots", 0, None, stranger).await,
                Err(DeskError::NotFound)
            ),
            "{stranger:?} read bot's session"
        );
    }
    // A session nobody named is read by admins only.
    assert!(matches!(
        desk.messages("nobodys", 0, None, &bot).await,
        Err(DeskError::NotFound)
    ));
    // The session's name is shown to its agent and admins, not to people.
    let seen = |caller: Caller| {
        let desk = desk.clone();
        let id = id.clone();
        async move { desk.get(&id, &caller).await.expect("read") }
    };
    assert_eq!(seen(bot.clone()).await.session.as_deref(), Some("bots"));
    assert_eq!(seen(admin.clone()).await.session.as_deref(), Some("bots"));
    let to_alice = seen(alice.caller.clone()).await;
    assert_eq!((to_alice.session, to_alice.listens), (None, true));
}

pub async fn messages_on_one_ask_are_capped_and_rate_limited(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let now = std::sync::Arc::new(std::sync::atomic::AtomicI64::new(1_000_000));
    let clock = now.clone();
    let desk = desk.with_clock(std::sync::Arc::new(move || {
        clock.load(std::sync::atomic::Ordering::SeqCst)
    }));
    let id = desk
        .create(in_session("busy"), &Caller::Unnamed)
        .await
        .expect("created")
        .id;
    let mut sent = 0;
    for minute in 0.. {
        for _ in 0..desk::MESSAGES_PER_MINUTE {
            desk.message(&id, text("again"), &by_api())
                .await
                .expect("within the rate");
            sent += 1;
            if sent == desk::MESSAGE_CAP {
                break;
            }
        }
        if sent == desk::MESSAGE_CAP {
            break;
        }
        // One more within the minute is too many; the next minute is not.
        assert!(
            matches!(
                desk.message(&id, text("too fast"), &by_api()).await,
                Err(DeskError::TooMany(_))
            ),
            "minute {minute}"
        );
        now.fetch_add(60_001, std::sync::atomic::Ordering::SeqCst);
    }
    now.fetch_add(60_001, std::sync::atomic::Ordering::SeqCst);
    match desk.message(&id, text("one too many"), &by_api()).await {
        Err(e @ DeskError::TooMany(_)) => assert_eq!(e.http_status(), 429),
        other => panic!("past the cap: {other:?}"),
    }
    let on = desk.messages_on(&id).await.expect("read");
    assert_eq!(
        on.len(),
        desk::MESSAGE_CAP as usize,
        "nothing past the cap kept"
    );
}

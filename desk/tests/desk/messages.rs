//! Messages from the person at the desk into the agent's session, on
//! every kind of store.

use crate::common::{as_person, by_api, combined, desk_on, new_ask, Kind};
use desk::{Actor, Caller, DeskError, LinkAnswers};
use interaction::{NewAsk, NewMessage, ProblemCode, Role, Via};
use std::time::Duration;

crate::conformance::suite!(
    messages_go_to_the_session_of_the_ask_in_order_and_only_from_those_who_may_answer,
    a_waiting_read_wakes_when_a_message_is_written,
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
    let first = desk.create(in_session("s-1")).await.expect("created").id;
    let other = desk.create(in_session("s-2")).await.expect("created").id;
    let silent = desk.create(new_ask(None)).await.expect("created").id;
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
    // An ask already answered still leads to its session.
    desk.answer(&first, combined(), &alice)
        .await
        .expect("answered");
    let later = desk
        .message(&first, text("and then stop"), &by_api())
        .await
        .expect("sent");
    assert!(later.seq > sent.seq);

    let read = desk.messages("s-1", 0, None).await.expect("read");
    let texts: Vec<_> = read.messages.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["use the staging database", "and then stop"]);
    assert_eq!(read.messages[0].ask, first);
    assert_eq!(read.last, later.seq);
    let after = desk.messages("s-1", sent.seq, None).await.expect("read");
    assert_eq!(after.messages.len(), 1);
    let none = desk.messages("s-1", later.seq, None).await.expect("read");
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
    let agent = as_person("bot", Role::Agent, Via::McpClient);
    assert!(matches!(
        desk.message(&other, text("from myself"), &agent).await,
        Err(DeskError::Forbidden(_))
    ));
    let desk = desk.answering_by_link(LinkAnswers::WithoutPeople);
    let link = Actor::new(Caller::Link, Via::Web);
    assert!(matches!(
        desk.message(&other, text("by link"), &link).await,
        Err(DeskError::Forbidden(_))
    ));
    let s2 = desk.messages("s-2", 0, None).await.expect("read");
    assert_eq!(s2.messages.len(), 1);
    assert!(matches!(
        desk.message("0123", text("x"), &by_api()).await,
        Err(DeskError::NotFound)
    ));
}

pub async fn a_waiting_read_wakes_when_a_message_is_written(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let id = desk
        .create(in_session("waiting"))
        .await
        .expect("created")
        .id;
    let reader = tokio::spawn({
        let desk = desk.clone();
        async move {
            desk.messages("waiting", 0, Some(Duration::from_secs(60)))
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
        .messages("waiting", read.last, Some(Duration::from_millis(100)))
        .await
        .expect("read");
    assert!(empty.messages.is_empty());
}

//! Each ask belongs to the credential that made it: on every kind of
//! store, two agents, a relaying agent, a person, an admin and a link
//! holder against every way of reading and ending an ask.

use crate::common::{as_person, combined, desk_on, new_ask, relaying_agent, Kind};
use desk::{Actor, AskedBy, Caller, DeskError, ListFilter};
use interaction::{AskStatus, Decline, IdempotencyKey, Role, Via};
use std::time::Duration;

crate::conformance::suite!(
    an_agent_reads_lists_and_waits_on_only_its_own_asks,
    no_agent_cancels_or_relays_an_answer_to_another_agents_ask,
    idempotency_keys_are_each_creators_own,
    who_asked_is_recorded_and_shown,
);

/// Bot, its rival, a relaying agent, a person, an admin and a link holder.
struct Cast {
    bot: Caller,
    bot2: Caller,
    relay: Caller,
    alice: Caller,
    admin: Caller,
}

fn cast() -> Cast {
    Cast {
        bot: as_person("bot", Role::Agent, Via::Api).caller,
        bot2: as_person("bot2", Role::Agent, Via::Api).caller,
        relay: relaying_agent("relay", Via::McpApp).caller,
        alice: as_person("alice", Role::Person, Via::Web).caller,
        admin: as_person("ops", Role::Admin, Via::Api).caller,
    }
}

fn is_not_found<T: std::fmt::Debug>(result: Result<T, DeskError>) -> bool {
    matches!(result, Err(DeskError::NotFound))
}

pub async fn an_agent_reads_lists_and_waits_on_only_its_own_asks(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let c = cast();
    let bots = desk
        .create(new_ask(None), &c.bot)
        .await
        .expect("bot asks")
        .id;
    let rivals = desk
        .create(new_ask(None), &c.bot2)
        .await
        .expect("bot2 asks")
        .id;
    // Another agent's ask is not found, exactly as an id that is no ask's.
    for (who, caller, own) in [("bot", &c.bot, &bots), ("bot2", &c.bot2, &rivals)] {
        let other = if own == &bots { &rivals } else { &bots };
        assert!(desk.get(own, caller).await.is_ok(), "{who} reads its own");
        assert!(
            is_not_found(desk.get(other, caller).await),
            "{who} read another's"
        );
        assert!(
            is_not_found(desk.wait(other, Duration::from_millis(10), caller).await),
            "{who} waited on another's"
        );
        assert!(
            is_not_found(desk.watch(other, Duration::ZERO, caller).await.map(|_| ())),
            "{who} watched another's"
        );
        let listed: Vec<String> = desk
            .list(None, caller)
            .await
            .expect("list")
            .into_iter()
            .map(|a| a.id)
            .collect();
        assert_eq!(
            listed,
            std::slice::from_ref(own),
            "{who} lists only its own"
        );
        let page = desk
            .search(&ListFilter::default(), 50, caller)
            .await
            .expect("search");
        assert_eq!(page.asks.len(), 1, "{who} searches only its own");
        assert!(page.asks.iter().all(|a| caller.sees_listed(a)));
    }
    // A relaying agent that made none sees none.
    assert!(desk.list(None, &c.relay).await.expect("list").is_empty());
    assert!(is_not_found(desk.get(&bots, &c.relay).await));
    // People, admins, the shared token and a link holder see every ask.
    for caller in [&c.alice, &c.admin, &Caller::Unnamed, &Caller::Link] {
        assert!(desk.get(&bots, caller).await.is_ok(), "{caller:?}");
        assert!(desk.get(&rivals, caller).await.is_ok(), "{caller:?}");
    }
    for caller in [&c.alice, &c.admin, &Caller::Unnamed] {
        assert_eq!(desk.list(None, caller).await.expect("list").len(), 2);
    }
}

pub async fn no_agent_cancels_or_relays_an_answer_to_another_agents_ask(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let c = cast();
    let bots = desk
        .create(new_ask(None), &c.bot)
        .await
        .expect("bot asks")
        .id;
    // The rival cancels nothing of bot's, through any surface.
    for via in [Via::Api, Via::Mcp] {
        let cancel = desk.cancel(&bots, &Actor::new(c.bot2.clone(), via)).await;
        assert!(
            is_not_found(cancel),
            "bot2 cancelled bot's ask through {via:?}"
        );
    }
    // The relaying agent answers and declines nothing of bot's.
    for via in [Via::McpClient, Via::McpApp] {
        let relayed = Actor::new(c.relay.clone(), via);
        assert!(is_not_found(desk.answer(&bots, combined(), &relayed).await));
        assert!(is_not_found(
            desk.decline(&bots, Decline::default(), &relayed).await
        ));
    }
    let ask = desk.get(&bots, &c.bot).await.expect("read");
    assert_eq!(ask.status, AskStatus::Pending, "nothing changed");
    // Its own ask it relays, and bot cancels its own.
    let relays = desk
        .create(new_ask(None), &c.relay)
        .await
        .expect("relay asks")
        .id;
    let relayed = Actor::new(c.relay.clone(), Via::McpApp);
    let answered = desk
        .answer(&relays, combined(), &relayed)
        .await
        .expect("relayed");
    assert_eq!(answered.relayed_by.as_deref(), Some("relay"));
    let cancelled = desk
        .cancel(&bots, &Actor::new(c.bot.clone(), Via::Api))
        .await
        .expect("bot cancels its own");
    assert_eq!(cancelled.status, AskStatus::Cancelled);
    // An ask whose maker is unknown (made before askdesk recorded it)
    // is acted on as its asker only by a caller with every right.
    let unnamed = desk
        .create(new_ask(None), &Caller::Unnamed)
        .await
        .expect("made with the shared token")
        .id;
    assert!(is_not_found(
        desk.cancel(&unnamed, &Actor::new(c.bot.clone(), Via::Api))
            .await
    ));
    desk.cancel(&unnamed, &Actor::new(c.admin.clone(), Via::Api))
        .await
        .expect("an admin cancels any");
}

pub async fn idempotency_keys_are_each_creators_own(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let c = cast();
    let key = IdempotencyKey::parse("retry-1", "Idempotency-Key").expect("a key");
    let (first, made) = desk
        .create_once(new_ask(None), &key, "Idempotency-Key", &c.bot)
        .await
        .expect("bot's");
    assert!(made);
    // The same key and body from another agent makes that agent's own ask.
    let (second, made) = desk
        .create_once(new_ask(None), &key, "Idempotency-Key", &c.bot2)
        .await
        .expect("bot2's");
    assert!(made, "bot2 got bot's ask back");
    assert_ne!(first.id, second.id);
    assert!(is_not_found(desk.get(&first.id, &c.bot2).await));
    // Each creator's retry gets its own.
    for (caller, want) in [(&c.bot, &first.id), (&c.bot2, &second.id)] {
        let (again, made) = desk
            .create_once(new_ask(None), &key, "Idempotency-Key", caller)
            .await
            .expect("again");
        assert_eq!((&again.id, made), (want, false));
    }
}

pub async fn who_asked_is_recorded_and_shown(kind: Kind) {
    let (desk, _db) = desk_on(kind).await;
    let c = cast();
    let bots = desk
        .create(new_ask(None), &c.bot)
        .await
        .expect("bot asks")
        .id;
    let admins = desk
        .create(new_ask(None), &c.admin)
        .await
        .expect("ops asks")
        .id;
    let open = desk
        .create(new_ask(None), &Caller::Unnamed)
        .await
        .expect("open")
        .id;
    let read = |id: String| {
        let desk = desk.clone();
        async move { desk.read(&id).await.expect("read") }
    };
    assert_eq!(
        read(bots.clone()).await.asked_by,
        AskedBy::Named("bot".to_owned())
    );
    assert_eq!(read(open.clone()).await.asked_by, AskedBy::Unnamed);
    let shown = |id: String| {
        let desk = desk.clone();
        async move {
            desk.get(&id, &Caller::Unnamed)
                .await
                .expect("read")
                .asked_by
        }
    };
    assert_eq!(shown(bots).await.as_deref(), Some("bot"));
    assert_eq!(shown(admins).await.as_deref(), Some("ops"));
    assert_eq!(
        shown(open).await,
        None,
        "a desk without people names nobody"
    );
    let listed: Vec<Option<String>> = desk
        .list(None, &Caller::Unnamed)
        .await
        .expect("list")
        .into_iter()
        .map(|a| a.asked_by)
        .collect();
    assert_eq!(
        listed,
        [None, Some("ops".to_owned()), Some("bot".to_owned())]
    );
}

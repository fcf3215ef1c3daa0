//! Sessions listed and ended by id, and one-time sign-in links: used once
//! across instances, expired after ten minutes, ended with their person.
//! The same tests on every store, as the conformance suite.

use crate::common::{store_on, Db, Kind};
use desk::{
    Desk, Grant, Holder, LinkRefusal, LinkValid, Opened, Person, SessionId, LINK_MS, SESSION_MS,
};
use interaction::{Role, Timestamp};
use std::sync::{
    atomic::{AtomicI64, Ordering},
    Arc,
};

crate::conformance::suite!(
    a_sign_in_link_signs_one_device_in_once_as_the_grant_that_made_it,
    a_sign_in_link_expires_unused_after_ten_minutes,
    racing_uses_of_one_link_sign_in_exactly_one_device,
    removing_a_person_ends_their_links_with_their_sessions,
    sessions_are_listed_newest_first_with_how_they_were_opened_and_ended_by_id,
    a_person_is_found_by_their_email_in_any_case_and_each_address_is_one_persons,
);

/// Two instances of one desk on a fresh store of this kind, both reading
/// the time from the returned clock.
async fn two_instances(kind: Kind) -> (Desk, Desk, Arc<AtomicI64>, Db) {
    let (store, db) = store_on(kind).await;
    let now = Arc::new(AtomicI64::new(1_700_000_000_000));
    let instance = |clock: Arc<AtomicI64>| {
        let store = store.clone();
        async move {
            Desk::open(store, "http://127.0.0.1:3000")
                .await
                .expect("desk")
                .with_clock(Arc::new(move || clock.load(Ordering::SeqCst)))
        }
    };
    let one = instance(now.clone()).await;
    let two = instance(now.clone()).await;
    (one, two, now, db)
}

async fn person(desk: &Desk, name: &str) -> Person {
    desk.add_person(name, Role::Person).await.expect("added").0
}

pub async fn a_sign_in_link_signs_one_device_in_once_as_the_grant_that_made_it(kind: Kind) {
    let (desk, twin, now, _db) = two_instances(kind).await;
    let alice = person(&desk, "alice").await;
    let grant = Grant::Person(alice.clone());
    let link = desk.open_sign_in_link(&grant).await.expect("link");
    assert_eq!(link.code.len(), 32, "128 bits in hex");
    assert!(link.code.bytes().all(|b| b.is_ascii_hexdigit()));
    let expires_at = Timestamp::from_ms(now.load(Ordering::SeqCst) + LINK_MS);
    assert_eq!(link.expires_at, expires_at);
    assert_ne!(
        desk.open_sign_in_link(&grant).await.expect("link").code,
        link.code,
        "every link is new"
    );
    // Looking does not use it, on any instance.
    for _ in 0..2 {
        assert_eq!(
            twin.sign_in_link(&link.code).await.expect("read"),
            Ok(LinkValid {
                holder: Holder::Person("alice".to_owned()),
                expires_at,
            })
        );
    }
    let (cookie, signed_in) = twin
        .use_sign_in_link(&link.code)
        .await
        .expect("used")
        .expect("signed in");
    assert_eq!(signed_in, grant);
    assert_eq!(cookie.len(), 64, "a cookie like signing in's: 256 bits");
    assert_ne!(cookie, link.code);
    assert_eq!(desk.session(&cookie).await.expect("read"), Some(grant));
    // Once only: on either instance, and looking says why.
    for instance in [&desk, &twin] {
        assert_eq!(
            instance.use_sign_in_link(&link.code).await.expect("read"),
            Err(LinkRefusal::Used)
        );
        assert_eq!(
            instance.sign_in_link(&link.code).await.expect("read"),
            Err(LinkRefusal::Used)
        );
    }
    assert_eq!(
        desk.use_sign_in_link("0123456789abcdef0123456789abcdef")
            .await
            .expect("read"),
        Err(LinkRefusal::Unknown)
    );
    assert_eq!(
        desk.sign_in_link("").await.expect("read"),
        Err(LinkRefusal::Unknown)
    );
    assert_eq!(LinkRefusal::Used.http_status(), 410);
    assert_eq!(LinkRefusal::Unknown.http_status(), 404);
    // The session lasts as a signed-in one does.
    let listed = desk.sessions(None).await.expect("sessions");
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].opened, Opened::Link);
    assert_eq!(listed[0].id, SessionId::of_cookie(&cookie));
    assert_eq!(
        listed[0].expires_at.ms() - listed[0].created_at.ms(),
        SESSION_MS
    );

    // The shared token's holder makes links too, for its own grant.
    let admin = Grant::Admin {
        tag: "tag-1".to_owned(),
    };
    let link = desk.open_sign_in_link(&admin).await.expect("link");
    assert_eq!(
        desk.sign_in_link(&link.code)
            .await
            .expect("read")
            .map(|valid| valid.holder),
        Ok(Holder::SharedToken {
            tag: "tag-1".to_owned()
        })
    );
    let (cookie, signed_in) = twin
        .use_sign_in_link(&link.code)
        .await
        .expect("used")
        .expect("signed in");
    assert_eq!(signed_in, admin);
    assert_eq!(desk.session(&cookie).await.expect("read"), Some(admin));
}

pub async fn a_sign_in_link_expires_unused_after_ten_minutes(kind: Kind) {
    let (desk, twin, now, _db) = two_instances(kind).await;
    let alice = person(&desk, "alice").await;
    let link = desk
        .open_sign_in_link(&Grant::Person(alice))
        .await
        .expect("link");
    now.fetch_add(LINK_MS - 1, Ordering::SeqCst);
    assert!(twin.sign_in_link(&link.code).await.expect("read").is_ok());
    now.fetch_add(1, Ordering::SeqCst);
    assert_eq!(
        twin.sign_in_link(&link.code).await.expect("read"),
        Err(LinkRefusal::Expired)
    );
    assert_eq!(
        twin.use_sign_in_link(&link.code).await.expect("read"),
        Err(LinkRefusal::Expired)
    );
    assert!(
        desk.sessions(None).await.expect("sessions").is_empty(),
        "an expired link signs nothing in"
    );
    // Long after, the link is forgotten: unknown, still signing nothing in.
    now.fetch_add(2 * 24 * 60 * 60 * 1000, Ordering::SeqCst);
    let other = desk
        .open_sign_in_link(&Grant::Admin {
            tag: "t".to_owned(),
        })
        .await
        .expect("link");
    assert_ne!(other.code, link.code);
    assert_eq!(
        twin.use_sign_in_link(&link.code).await.expect("read"),
        Err(LinkRefusal::Unknown)
    );
}

pub async fn racing_uses_of_one_link_sign_in_exactly_one_device(kind: Kind) {
    let (desk, twin, _now, _db) = two_instances(kind).await;
    let alice = person(&desk, "alice").await;
    let link = desk
        .open_sign_in_link(&Grant::Person(alice))
        .await
        .expect("link");
    let tasks: Vec<_> = (0..12)
        .map(|i| {
            let instance = if i % 2 == 0 {
                desk.clone()
            } else {
                twin.clone()
            };
            let code = link.code.clone();
            tokio::spawn(async move { instance.use_sign_in_link(&code).await })
        })
        .collect();
    let mut signed_in = 0;
    for task in tasks {
        match task.await.expect("task").expect("no database error") {
            Ok(_) => signed_in += 1,
            Err(refusal) => assert_eq!(refusal, LinkRefusal::Used),
        }
    }
    assert_eq!(signed_in, 1);
    assert_eq!(desk.sessions(None).await.expect("sessions").len(), 1);
}

pub async fn removing_a_person_ends_their_links_with_their_sessions(kind: Kind) {
    let (desk, twin, _now, _db) = two_instances(kind).await;
    let alice = person(&desk, "alice").await;
    let grant = Grant::Person(alice);
    let link = desk.open_sign_in_link(&grant).await.expect("link");
    let used = desk.open_sign_in_link(&grant).await.expect("link");
    let (cookie, _) = desk
        .use_sign_in_link(&used.code)
        .await
        .expect("used")
        .expect("signed in");
    assert!(twin.remove_person("alice").await.expect("removed"));
    assert_eq!(desk.session(&cookie).await.expect("read"), None);
    for code in [&link.code, &used.code] {
        assert_eq!(
            desk.sign_in_link(code).await.expect("read"),
            Err(LinkRefusal::Unknown)
        );
        assert_eq!(
            desk.use_sign_in_link(code).await.expect("read"),
            Err(LinkRefusal::Unknown)
        );
    }
    // A new alice inherits none of it.
    person(&desk, "alice").await;
    assert_eq!(
        desk.use_sign_in_link(&link.code).await.expect("read"),
        Err(LinkRefusal::Unknown)
    );
    assert!(desk.sessions(None).await.expect("sessions").is_empty());
}

pub async fn sessions_are_listed_newest_first_with_how_they_were_opened_and_ended_by_id(
    kind: Kind,
) {
    let (desk, twin, now, _db) = two_instances(kind).await;
    let alice = Grant::Person(person(&desk, "alice").await);
    let bob = Grant::Person(person(&desk, "bob").await);
    let admin = Grant::Admin {
        tag: "tag-1".to_owned(),
    };
    let mut cookies = Vec::new();
    for grant in [&alice, &bob, &admin] {
        now.fetch_add(1000, Ordering::SeqCst);
        cookies.push(desk.open_session(grant).await.expect("session"));
    }
    now.fetch_add(1000, Ordering::SeqCst);
    let link = desk.open_sign_in_link(&alice).await.expect("link");
    let (phone, _) = desk
        .use_sign_in_link(&link.code)
        .await
        .expect("used")
        .expect("signed in");
    let listed = twin.sessions(None).await.expect("sessions");
    let seen: Vec<(Holder, Opened)> = listed
        .iter()
        .map(|s| (s.holder.clone(), s.opened))
        .collect();
    let alice_holder = Holder::Person("alice".to_owned());
    assert_eq!(
        seen,
        [
            (alice_holder.clone(), Opened::Link),
            (admin.holder(), Opened::Token),
            (bob.holder(), Opened::Token),
            (alice_holder.clone(), Opened::Token),
        ]
    );
    assert_eq!(listed[0].id, SessionId::of_cookie(&phone));
    assert_eq!(listed[0].id.as_str().len(), SessionId::LEN);
    assert!(
        !phone.starts_with(listed[0].id.as_str()),
        "the id is not the cookie"
    );
    let alices = twin.sessions(Some(&alice_holder)).await.expect("sessions");
    assert_eq!(alices.len(), 2);
    let admins = twin
        .sessions(Some(&admin.holder()))
        .await
        .expect("sessions");
    assert_eq!(admins.len(), 1);
    assert_eq!(admins[0].id, SessionId::of_cookie(&cookies[2]));

    // Ended by id, only by its holder when one is named, on any instance.
    let id = SessionId::parse(&listed[0].id.as_str().to_uppercase()).expect("typed id");
    assert!(!twin
        .end_session(&id, Some(&bob.holder()))
        .await
        .expect("end"));
    assert_eq!(
        desk.session(&phone).await.expect("read"),
        Some(alice.clone())
    );
    assert!(twin
        .end_session(&id, Some(&alice_holder))
        .await
        .expect("end"));
    assert_eq!(desk.session(&phone).await.expect("read"), None);
    assert!(!twin.end_session(&id, None).await.expect("end"), "once");
    let bobs = SessionId::of_cookie(&cookies[1]);
    assert!(desk.end_session(&bobs, None).await.expect("end"));
    assert_eq!(desk.session(&cookies[1]).await.expect("read"), None);
    assert_eq!(desk.session(&cookies[0]).await.expect("read"), Some(alice));
    assert_eq!(SessionId::parse("not an id"), None);
    assert_eq!(SessionId::parse("0123456789abcdef0"), None);

    // Expired sessions are not listed.
    now.fetch_add(SESSION_MS, Ordering::SeqCst);
    assert!(twin.sessions(None).await.expect("sessions").is_empty());
}

pub async fn a_person_is_found_by_their_email_in_any_case_and_each_address_is_one_persons(
    kind: Kind,
) {
    use desk::{DeskError, Joining};
    let (desk, twin, _now, _db) = two_instances(kind).await;
    let with = |email: &str| Joining {
        email: Some(email.to_owned()),
        ..Joining::default()
    };
    let (alice, _) = desk
        .add_person_with("alice", Role::Person, with(" Alice@Example.com"))
        .await
        .expect("added");
    assert_eq!(alice.email.as_deref(), Some("alice@example.com"));
    let found = twin
        .person_by_email("ALICE@example.COM")
        .await
        .expect("read");
    assert_eq!(found, Some(alice.clone()), "every instance, any case");
    // Sessions and the people list carry it too.
    let cookie = desk
        .open_session(&Grant::Person(alice.clone()))
        .await
        .expect("opened");
    assert_eq!(
        twin.session(&cookie).await.expect("read"),
        Some(Grant::Person(alice))
    );

    // An address is one person's: at adding and at editing alike, and
    // nothing changes.
    let taken = desk
        .add_person_with("bob", Role::Person, with("alice@example.com"))
        .await;
    assert!(
        matches!(taken, Err(DeskError::Conflict(ref why)) if why.contains("alice")),
        "{taken:?}"
    );
    assert_eq!(
        desk.people().await.expect("people").len(),
        1,
        "bob was not added"
    );
    person(&desk, "bob").await;
    let taken = desk.set_email("bob", Some("alice@example.com")).await;
    assert!(matches!(taken, Err(DeskError::Conflict(_))), "{taken:?}");
    let refused = desk.set_email("bob", Some("not an address")).await;
    assert!(matches!(refused, Err(DeskError::Invalid(_))), "{refused:?}");
    assert_eq!(
        desk.person_by_email("not an address").await.expect("read"),
        None
    );

    // Set, moved and cleared; nobody by the name is no one.
    let bob = desk
        .set_email("bob", Some("bob@example.com"))
        .await
        .expect("set");
    assert_eq!(
        bob.and_then(|b| b.email).as_deref(),
        Some("bob@example.com")
    );
    desk.set_email("alice", None).await.expect("cleared");
    assert_eq!(
        desk.person_by_email("alice@example.com")
            .await
            .expect("read"),
        None
    );
    let bob = desk
        .set_email("bob", Some("alice@example.com"))
        .await
        .expect("moved");
    assert_eq!(bob.map(|b| b.name).as_deref(), Some("bob"));
    assert_eq!(
        desk.set_email("carol", Some("c@example.com"))
            .await
            .expect("edit"),
        None
    );
}

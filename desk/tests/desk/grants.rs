//! OAuth's grants on every kind of store: a code taken once, a second use
//! revoking what the first opened; a grant acting as its own agent, owned
//! by its person; refresh tokens rotated, a reused one revoking the
//! family; and everything ending with the person who allowed it.

use crate::common::{desk_on, new_ask, Kind};
use desk::{Caller, Code, CodeTaken, Desk, DeskError, Lifetimes, OAuthClient, Refresh, Terms};
use interaction::Role;
use std::{
    sync::{
        atomic::{AtomicI64, Ordering},
        Arc,
    },
    time::Duration,
};

crate::conformance::suite!(
    a_code_is_taken_once_and_its_second_use_revokes_its_grant,
    a_grant_is_an_agent_of_its_person_with_asks_of_its_own,
    refresh_tokens_rotate_and_a_reused_one_revokes_the_grant,
    removing_the_person_ends_their_grants_at_once,
    registrations_stop_at_the_cap,
);

const LIFETIMES: Lifetimes = Lifetimes {
    access: Duration::from_secs(3600),
    refresh: Duration::from_secs(86_400),
};

fn terms(owner: &str) -> Terms {
    Terms {
        owner: owner.to_owned(),
        client_id: "https://claude.ai/oauth/mcp-oauth-client-metadata".to_owned(),
        client_name: "claude.ai".to_owned(),
        verified: true,
        scope: "ask".to_owned(),
        resource: "https://desk.example/mcp".to_owned(),
    }
}

/// A desk whose clock the test moves, with alice and bob.
async fn desk_with_people(kind: Kind) -> (Desk, crate::common::Db, Arc<AtomicI64>) {
    let (desk, db) = desk_on(kind).await;
    let now = Arc::new(AtomicI64::new(desk.now_ms()));
    let clock = now.clone();
    let desk = desk.with_clock(Arc::new(move || clock.load(Ordering::SeqCst)));
    desk.add_person("alice", Role::Person).await.expect("alice");
    desk.add_person("bob", Role::Person).await.expect("bob");
    (desk, db, now)
}

async fn code_for(desk: &Desk, owner: &str) -> String {
    desk.issue_code(&Code {
        terms: terms(owner),
        redirect_uri: "https://claude.ai/api/mcp/auth_callback".to_owned(),
        challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM".to_owned(),
        expires_at: desk.now_ms() + 60_000,
    })
    .await
    .expect("a code")
}

async fn connect(desk: &Desk, owner: &str) -> desk::Issued {
    let code = code_for(desk, owner).await;
    let CodeTaken::Fresh(taken) = desk.take_code(&code).await.expect("taken") else {
        panic!("a fresh code")
    };
    desk.open_grant(&code, taken.terms, LIFETIMES)
        .await
        .expect("a grant")
}

pub async fn a_code_is_taken_once_and_its_second_use_revokes_its_grant(kind: Kind) {
    let (desk, _db, now) = desk_with_people(kind).await;
    let code = code_for(&desk, "alice").await;
    let CodeTaken::Fresh(taken) = desk.take_code(&code).await.expect("taken") else {
        panic!("a fresh code")
    };
    assert_eq!(taken.terms, terms("alice"));
    let issued = desk
        .open_grant(&code, taken.terms, LIFETIMES)
        .await
        .expect("a grant");
    assert!(desk.bearer(&issued.access).await.expect("read").is_some());
    assert_eq!(
        desk.take_code(&code).await.expect("read"),
        CodeTaken::Reused
    );
    assert!(desk.bearer(&issued.access).await.expect("read").is_none());
    assert!(desk.grants(Some("alice")).await.expect("grants").is_empty());
    assert_eq!(
        desk.take_code("no-such-code").await.expect("read"),
        CodeTaken::Unknown
    );
    // An expired code is no code.
    let late = code_for(&desk, "alice").await;
    now.fetch_add(61_000, Ordering::SeqCst);
    assert_eq!(
        desk.take_code(&late).await.expect("read"),
        CodeTaken::Unknown
    );
}

pub async fn a_grant_is_an_agent_of_its_person_with_asks_of_its_own(kind: Kind) {
    let (desk, _db, now) = desk_with_people(kind).await;
    let alices = connect(&desk, "alice").await;
    let bobs = connect(&desk, "bob").await;
    let bearer = desk
        .bearer(&alices.access)
        .await
        .expect("read")
        .expect("holds");
    assert_eq!(bearer.agent.name, "claude.ai-alice");
    assert_eq!(bearer.agent.role, Role::Agent);
    assert!(bearer.agent.relays_answers);
    assert_eq!(bearer.grant.terms.resource, "https://desk.example/mcp");
    let bob_agent = desk
        .bearer(&bobs.access)
        .await
        .expect("read")
        .expect("holds")
        .agent;
    assert_eq!(bob_agent.name, "claude.ai-bob");
    // Each connector sees only its own asks.
    let alice_caller = Caller::Person(bearer.agent.clone());
    let bob_caller = Caller::Person(bob_agent);
    let id = desk
        .create(new_ask(None), &alice_caller)
        .await
        .expect("asks")
        .id;
    assert!(desk.get(&id, &alice_caller).await.is_ok());
    assert!(matches!(
        desk.get(&id, &bob_caller).await,
        Err(DeskError::NotFound)
    ));
    // Connecting again acts as the same agent, so its asks stay its own.
    let again = connect(&desk, "alice").await;
    let agent = desk
        .bearer(&again.access)
        .await
        .expect("read")
        .expect("holds")
        .agent;
    assert_eq!(agent.name, "claude.ai-alice");
    assert_eq!(desk.grants(Some("alice")).await.expect("grants").len(), 2);
    // A refresh token or an unknown string is no access token.
    assert!(desk.bearer(&alices.refresh).await.expect("read").is_none());
    assert!(desk
        .bearer("askd_at_nothing")
        .await
        .expect("read")
        .is_none());
    // An access token ends with its lifetime.
    now.fetch_add(3_601_000, Ordering::SeqCst);
    assert!(desk.bearer(&alices.access).await.expect("read").is_none());
}

pub async fn refresh_tokens_rotate_and_a_reused_one_revokes_the_grant(kind: Kind) {
    let (desk, _db, _now) = desk_with_people(kind).await;
    let first = connect(&desk, "alice").await;
    let Refresh::Issued(second) = desk
        .refresh_grant(&first.refresh, LIFETIMES)
        .await
        .expect("ok")
    else {
        panic!("rotated")
    };
    assert_eq!(second.grant.id, first.grant.id);
    assert_ne!(second.refresh, first.refresh);
    assert!(desk.bearer(&second.access).await.expect("read").is_some());
    // The first refresh token again: the grant's whole family ends.
    assert_eq!(
        desk.refresh_grant(&first.refresh, LIFETIMES)
            .await
            .expect("read"),
        Refresh::Reused
    );
    assert!(desk.bearer(&second.access).await.expect("read").is_none());
    assert_eq!(
        desk.refresh_grant(&second.refresh, LIFETIMES)
            .await
            .expect("read"),
        Refresh::Unknown
    );
    assert_eq!(
        desk.refresh_grant("askd_rt_unknown", LIFETIMES)
            .await
            .expect("read"),
        Refresh::Unknown
    );
    // Revoking one of a person's grants leaves the other.
    let one = connect(&desk, "alice").await;
    let other = connect(&desk, "alice").await;
    assert!(desk.revoke_grant(&one.grant.id).await.expect("revoked"));
    assert!(desk.bearer(&one.access).await.expect("read").is_none());
    assert!(desk.bearer(&other.access).await.expect("read").is_some());
    assert_eq!(
        desk.grant_of_token(&other.refresh)
            .await
            .expect("read")
            .map(|g| g.id),
        Some(other.grant.id)
    );
}

pub async fn removing_the_person_ends_their_grants_at_once(kind: Kind) {
    let (desk, _db, _now) = desk_with_people(kind).await;
    let alices = connect(&desk, "alice").await;
    let bobs = connect(&desk, "bob").await;
    assert!(desk.remove_person("alice").await.expect("removed"));
    assert!(desk.bearer(&alices.access).await.expect("read").is_none());
    assert!(desk.grants(Some("alice")).await.expect("grants").is_empty());
    // Another alice later inherits nothing.
    desk.add_person("alice", Role::Person)
        .await
        .expect("a new alice");
    assert!(desk.bearer(&alices.access).await.expect("read").is_none());
    assert_eq!(
        desk.refresh_grant(&alices.refresh, LIFETIMES)
            .await
            .expect("read"),
        Refresh::Unknown
    );
    // Removing a connector's agent ends its grant too; bob's own is kept
    // until then.
    assert!(desk.bearer(&bobs.access).await.expect("read").is_some());
    assert!(desk.remove_person("claude.ai-bob").await.expect("removed"));
    assert!(desk.bearer(&bobs.access).await.expect("read").is_none());
}

pub async fn registrations_stop_at_the_cap(kind: Kind) {
    let (desk, _db, _now) = desk_with_people(kind).await;
    let client = |n: u32| OAuthClient {
        client_id: format!("client-{n}"),
        name: format!("Client {n}"),
        redirect_uris: vec![format!("http://127.0.0.1/{n}/callback")],
        application_type: "native".to_owned(),
        created_at: desk.now_ms(),
    };
    assert!(desk
        .register_oauth_client(&client(1), 2)
        .await
        .expect("one"));
    assert!(desk
        .register_oauth_client(&client(2), 2)
        .await
        .expect("two"));
    assert!(!desk
        .register_oauth_client(&client(3), 2)
        .await
        .expect("capped"));
    assert_eq!(
        desk.oauth_client("client-2").await.expect("read"),
        Some(client(2))
    );
    assert_eq!(desk.oauth_client("client-3").await.expect("read"), None);
}

use super::*;

fn flow() -> Flow {
    Flow {
        state: "st4te".to_owned(),
        nonce: "n0nce".to_owned(),
        verifier: "v3rifier".to_owned(),
        next: "/asks/abc".to_owned(),
        until: 1_000,
    }
}

#[test]
fn a_flow_cookie_reads_back_only_unaltered_and_under_its_own_key() {
    let key = b"the desk's key";
    let sealed = seal(key, &flow());
    assert_eq!(unseal(key, &sealed), Some(flow()));
    // Only cookie-safe characters.
    assert!(sealed
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')));
    assert_eq!(unseal(b"another desk's key", &sealed), None);
    // Another place to go, with the first's MAC: refused.
    let (_, tag) = sealed.split_once('.').expect("two parts");
    let mut elsewhere = flow();
    elsewhere.next = "/history".to_owned();
    let forged = seal(key, &elsewhere);
    let (json, _) = forged.split_once('.').expect("two parts");
    assert_eq!(unseal(key, &format!("{json}.{tag}")), None);
    for broken in ["", ".", "x", "x.y", &sealed[1..]] {
        assert_eq!(unseal(key, broken), None, "{broken}");
    }
}

#[test]
fn an_email_counts_when_verified_or_unsaid_in_a_trusted_domain() {
    let email = |address: &str, verified| Email {
        address: Some(address.to_owned()),
        verified,
    };
    let trusted = ["corp.example".to_owned()];
    let verified = email("a@other.example", Some(true)).verified_address(&trusted);
    assert_eq!(verified.as_deref(), Some("a@other.example"));
    // Unsaid: only in a trusted domain, matched whole and in any case.
    let unsaid = email("a@Corp.Example", None).verified_address(&trusted);
    assert_eq!(unsaid.as_deref(), Some("a@Corp.Example"));
    for refused in [
        email("a@corp.example", Some(false)),
        email("a@other.example", None),
        email("a@sub.corp.example", None),
        email("a@corp.example.evil", None),
        email("no-at-sign", None),
        Email::default(),
    ] {
        assert_eq!(refused.verified_address(&trusted), None);
    }
}

#[test]
fn user_info_fills_only_what_the_id_token_left_unsaid() {
    let mut email = Email {
        address: Some("from-token@example.com".to_owned()),
        verified: None,
    };
    assert!(!email.is_complete());
    email.fill(Email {
        address: Some("from-userinfo@example.com".to_owned()),
        verified: Some(true),
    });
    assert_eq!(email.address.as_deref(), Some("from-token@example.com"));
    assert_eq!(email.verified, Some(true));
    assert!(email.is_complete());
}

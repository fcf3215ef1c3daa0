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

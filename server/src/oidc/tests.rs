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
fn the_client_secret_comes_from_its_flag_or_the_first_line_of_its_file() {
    let mut args = OidcArgs {
        oidc_issuer: Some("https://id.example".to_owned()),
        oidc_client_id: Some("askdesk".to_owned()),
        oidc_client_secret: Some(" s3cret ".to_owned()),
        oidc_client_secret_file: None,
    };
    assert_eq!(client_secret(&args).expect("given").secret(), "s3cret");
    let file = tempfile::NamedTempFile::new().expect("file");
    std::fs::write(file.path(), "fr0m-file\nanything else\n").expect("written");
    args.oidc_client_secret = None;
    args.oidc_client_secret_file = Some(file.path().to_owned());
    assert_eq!(client_secret(&args).expect("read").secret(), "fr0m-file");
    std::fs::write(file.path(), "\n").expect("written");
    let empty = client_secret(&args).expect_err("empty").to_string();
    assert!(empty.contains("empty"), "{empty}");
    args.oidc_client_secret_file = Some("/no/such/file".into());
    let missing = format!("{:#}", client_secret(&args).expect_err("missing"));
    assert!(
        missing.contains("--oidc-client-secret-file /no/such/file"),
        "{missing}"
    );
}

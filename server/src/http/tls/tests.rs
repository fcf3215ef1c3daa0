//! The pair's reading and when a change is read.

use super::*;

fn stamp(len: u64) -> Option<Stamp> {
    Some(Stamp {
        modified: None,
        len,
        inode: 1,
    })
}

#[test]
fn a_change_is_read_once_it_has_held_still_for_one_look() {
    let before = [stamp(1), stamp(1)];
    let mut renewal = Renewal::new(before);
    assert!(!renewal.due(before), "nothing changed");
    let writing = [stamp(2), stamp(1)];
    assert!(!renewal.due(writing), "still being written");
    let written = [stamp(3), stamp(4)];
    assert!(!renewal.due(written), "still being written");
    assert!(renewal.due(written), "held still: read it");
    assert!(!renewal.due(written), "read already");
    assert!(!renewal.due([None, stamp(4)]), "gone for a moment");
    assert!(!renewal.due(written), "back as it was read");
}

fn pair(dir: &Path, name: &str) -> TlsFiles {
    let certified = rcgen::generate_simple_self_signed(vec![name.to_owned()]).expect("certificate");
    let files = TlsFiles {
        cert: dir.join(format!("{name}.crt")),
        key: dir.join(format!("{name}.key")),
    };
    std::fs::write(&files.cert, certified.cert.pem()).expect("write");
    std::fs::write(&files.key, certified.key_pair.serialize_pem()).expect("write");
    files
}

#[test]
fn a_pair_is_read_and_every_unusable_one_is_refused_naming_its_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let one = pair(dir.path(), "one.test");
    let other = pair(dir.path(), "other.test");
    assert!(load(&one).is_ok());

    let missing = TlsFiles {
        key: dir.path().join("missing.key"),
        ..one.clone()
    };
    let refused = load(&missing).expect_err("missing key").to_string();
    assert!(
        refused.starts_with("cannot read the TLS key ") && refused.contains("missing.key"),
        "{refused}"
    );

    let crossed = TlsFiles {
        key: other.key.clone(),
        ..one.clone()
    };
    let refused = load(&crossed).expect_err("another's key").to_string();
    assert!(
        refused.contains("other.test.key") && refused.contains("one.test.crt"),
        "{refused}"
    );

    let swapped = TlsFiles {
        cert: one.key.clone(),
        key: one.cert.clone(),
    };
    let refused = load(&swapped).expect_err("swapped").to_string();
    assert!(refused.contains("holds no PEM CERTIFICATE"), "{refused}");

    let text = dir.path().join("text.pem");
    std::fs::write(&text, "not PEM at all").expect("write");
    let refused = load(&TlsFiles {
        key: text,
        ..one.clone()
    })
    .expect_err("no key")
    .to_string();
    assert!(refused.contains("holds no PEM PRIVATE KEY"), "{refused}");
}

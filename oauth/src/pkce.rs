//! PKCE (RFC 7636), `S256` only: OAuth 2.1 and the MCP specification
//! refuse `plain`.

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use sha2::{Digest, Sha256};

/// Whether `c` may be in a verifier: RFC 7636's unreserved characters.
fn unreserved(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')
}

/// Whether `challenge` is an S256 challenge: the base64url of 32 bytes.
pub fn is_challenge(challenge: &str) -> bool {
    challenge.len() == 43
        && challenge
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The S256 challenge of `verifier`.
pub fn challenge_of(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Why `verifier` does not meet `challenge`, if it does not.
pub fn refusal(verifier: &str, challenge: &str) -> Option<&'static str> {
    if !(43..=128).contains(&verifier.len()) || !verifier.chars().all(unreserved) {
        return Some("code_verifier must be 43 to 128 of A-Z a-z 0-9 - . _ ~ (RFC 7636)");
    }
    let computed = challenge_of(verifier);
    // Both are public once the code is spent, but compare in constant time
    // anyway: the challenge is not.
    let same = computed.len() == challenge.len()
        && computed
            .bytes()
            .zip(challenge.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    (!same).then_some("code_verifier does not match the code_challenge (S256)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_7636_appendix_b() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert_eq!(challenge_of(verifier), challenge);
        assert!(is_challenge(challenge));
        assert_eq!(refusal(verifier, challenge), None);
    }

    #[test]
    fn a_wrong_or_malformed_verifier_is_refused() {
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(refusal(&"a".repeat(43), challenge).is_some());
        assert!(refusal("short", challenge).is_some());
        assert!(refusal(&format!("{}!", "a".repeat(43)), challenge).is_some());
        // `plain`: the verifier itself as the challenge.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert!(refusal(verifier, verifier).is_some());
        assert!(!is_challenge("too-short"));
        assert!(!is_challenge(&format!("{}=", &challenge[..42])));
    }
}

//! HMAC-SHA-256, as askdesk's signatures use them: webhook deliveries
//! (`X-Askdesk-Signature`), Slack's requests (`X-Slack-Signature`, checked
//! by the server) and the server's signed cookies.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// An HMAC-SHA-256 keyed by `key` over `parts`, one after another.
pub fn keyed(key: &[u8], parts: &[&[u8]]) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    for part in parts {
        mac.update(part);
    }
    mac
}

/// The HMAC-SHA-256 of `parts` under `key`.
pub fn digest(key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    keyed(key, parts).finalize().into_bytes().to_vec()
}

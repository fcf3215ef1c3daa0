//! Web Push (RFC 8030, 8291, 8292): browsers that asked the desk to "notify
//! this device" get each ask through their push service, encrypted to the
//! browser's keys and signed with the server's VAPID key (made on first
//! start, kept in the database for every instance). A push carries the
//! agent, the title and the first question; a one-question single-select
//! ask of at most two options also carries its action tokens, so the
//! notification's buttons answer it.

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use desk::{Desk, DeskError, Notice, PushSubscription};
use ring::{
    aead, agreement, hkdf,
    rand::{SecureRandom, SystemRandom},
    signature::{EcdsaKeyPair, KeyPair, ECDSA_P256_SHA256_FIXED_SIGNING},
};

/// The name of the VAPID key among the server's keys.
const KEY_NAME: &str = "vapid";
/// The most options a push offers as buttons (browsers show two).
pub const PUSH_ACTIONS: usize = 2;
/// The record size written in the aes128gcm header (one record).
const RECORD_SIZE: u32 = 4096;
/// How long a push service keeps a message for a browser that is away.
const TTL_SECONDS: u32 = 86_400;

/// Why Web Push could not be set up, or a push not be sent; in words
/// without secrets, as a delivery's outcome records them.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    /// No key could be made for a first start.
    #[error("no randomness for a VAPID key")]
    NoKeyMade,
    /// The database did not keep the key.
    #[error("cannot keep the VAPID key: {0}")]
    KeyNotKept(DeskError),
    /// The key in the database is not what it should be.
    #[error("the stored VAPID key is not {0}")]
    StoredKey(&'static str),
    /// A subscription's endpoint cannot be pushed to.
    #[error("the endpoint {0}")]
    Endpoint(&'static str),
    /// A browser's key cannot be encrypted to.
    #[error("the browser's key is not a P-256 point")]
    BrowserKey,
    /// Signing or encrypting failed.
    #[error("{0}")]
    Crypto(&'static str),
    /// The subscriptions could not be read.
    #[error("reading the subscriptions failed: {0}")]
    Subscriptions(DeskError),
    /// The push service was not reached.
    #[error("not delivered: {0}")]
    NotDelivered(reqwest::Error),
    /// The push service refused.
    #[error("the push service answered {0}")]
    Answered(u16),
    /// Some of the browsers' push services failed.
    #[error("{} of {of} push services failed: {}", failures.len(), join(failures))]
    Services {
        /// How many subscriptions there were.
        of: usize,
        /// Why each failed one failed.
        failures: Vec<PushError>,
    },
}

fn join(failures: &[PushError]) -> String {
    failures
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The server's Web Push identity.
pub struct WebPush {
    key: EcdsaKeyPair,
    /// The VAPID public key, base64url: the browser's `applicationServerKey`.
    public: String,
    /// Who runs this server (`mailto:` or `https:`), told to push services.
    subject: String,
    rng: SystemRandom,
    /// The ask page's bundle (its path carries its hash): each push names
    /// it, and the service worker fetches it as the push arrives, so the
    /// ask opened from the notification finds its code in the cache.
    code: Option<String>,
}

fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Base64url with or without padding, as browsers and people write it.
pub fn unb64(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')).ok()
}

impl WebPush {
    /// The server's VAPID key from the database, made there on first start.
    pub async fn open(desk: &Desk, subject: &str) -> Result<Self, PushError> {
        let rng = SystemRandom::new();
        let fresh = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .map_err(|_| PushError::NoKeyMade)?;
        let stored = desk
            .server_key(KEY_NAME, &b64(fresh.as_ref()))
            .await
            .map_err(PushError::KeyNotKept)?;
        let pkcs8 = unb64(&stored).ok_or(PushError::StoredKey("base64url"))?;
        let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &pkcs8, &rng)
            .map_err(|_| PushError::StoredKey("a P-256 key"))?;
        Ok(Self {
            public: b64(key.public_key().as_ref()),
            key,
            subject: subject.to_owned(),
            rng,
            code: None,
        })
    }

    /// Names `path`, the ask page's bundle, in every push (see `code`).
    #[must_use]
    pub fn with_code(mut self, path: &str) -> Self {
        self.code = Some(path.to_owned()).filter(|p| !p.is_empty());
        self
    }

    /// The VAPID public key, base64url.
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// The `Authorization: vapid t=…, k=…` of a push to `endpoint` (RFC
    /// 8292): a JWT for the endpoint's origin, valid 12 hours from `now`.
    pub fn authorization(&self, endpoint: &str, now: u64) -> Result<String, PushError> {
        let uri = endpoint
            .parse::<http::Uri>()
            .map_err(|_| PushError::Endpoint("is not a URL"))?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(PushError::Endpoint("has no origin"));
        };
        let header = b64(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = b64(serde_json::json!({
            "aud": format!("{scheme}://{authority}"),
            "exp": now + 12 * 3600,
            "sub": self.subject,
        })
        .to_string()
        .as_bytes());
        let signed = format!("{header}.{claims}");
        let signature = self
            .key
            .sign(&self.rng, signed.as_bytes())
            .map_err(|_| PushError::Crypto("signing the VAPID token failed"))?;
        Ok(format!(
            "vapid t={signed}.{}, k={}",
            b64(signature.as_ref()),
            self.public
        ))
    }

    /// `plaintext` encrypted to a browser's keys (RFC 8291), with a new
    /// ephemeral key and salt.
    pub fn encrypt(
        &self,
        p256dh: &[u8],
        auth: &[u8],
        plaintext: &[u8],
    ) -> Result<Vec<u8>, PushError> {
        let private = agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &self.rng)
            .map_err(|_| PushError::Crypto("no randomness"))?;
        let public = private
            .compute_public_key()
            .map_err(|_| PushError::Crypto("no public key"))?;
        let mut salt = [0u8; 16];
        self.rng
            .fill(&mut salt)
            .map_err(|_| PushError::Crypto("no randomness"))?;
        let peer = agreement::UnparsedPublicKey::new(&agreement::ECDH_P256, p256dh);
        let secret = agreement::agree_ephemeral(private, &peer, |secret| secret.to_vec())
            .map_err(|_| PushError::BrowserKey)?;
        seal(&secret, p256dh, public.as_ref(), auth, &salt, plaintext)
    }
}

/// RFC 8291's encryption from the ECDH secret on: the keys derived with
/// HKDF-SHA-256 and one aes128gcm record (RFC 8188) holding `plaintext`
/// and its delimiter, after the header (salt, record size, the sender's
/// public key).
pub fn seal(
    ecdh_secret: &[u8],
    ua_public: &[u8],
    as_public: &[u8],
    auth: &[u8],
    salt: &[u8; 16],
    plaintext: &[u8],
) -> Result<Vec<u8>, PushError> {
    let derive = |_: ring::error::Unspecified| PushError::Crypto("key derivation failed");
    // The input keying material: from the ECDH secret under the browser's
    // auth secret, bound to both public keys.
    let mut ikm = [0u8; 32];
    hkdf::Salt::new(hkdf::HKDF_SHA256, auth)
        .extract(ecdh_secret)
        .expand(
            &[b"WebPush: info\0", ua_public, as_public],
            Bytes(ikm.len()),
        )
        .and_then(|okm| okm.fill(&mut ikm))
        .map_err(derive)?;
    let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, salt).extract(&ikm);
    let key: aead::UnboundKey = prk
        .expand(&[b"Content-Encoding: aes128gcm\0"], &aead::AES_128_GCM)
        .map_err(derive)?
        .into();
    let key = aead::LessSafeKey::new(key);
    let mut nonce = [0u8; aead::NONCE_LEN];
    prk.expand(&[b"Content-Encoding: nonce\0"], Bytes(nonce.len()))
        .and_then(|okm| okm.fill(&mut nonce))
        .map_err(derive)?;
    let nonce = aead::Nonce::assume_unique_for_key(nonce);
    let mut record = plaintext.to_vec();
    // The last (and only) record's delimiter.
    record.push(2);
    key.seal_in_place_append_tag(nonce, aead::Aad::empty(), &mut record)
        .map_err(|_| PushError::Crypto("encryption failed"))?;
    let id_len = u8::try_from(as_public.len()).map_err(|_| PushError::Crypto("key too long"))?;
    let mut body = Vec::with_capacity(21 + as_public.len() + record.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(id_len);
    body.extend_from_slice(as_public);
    body.extend_from_slice(&record);
    Ok(body)
}

/// An HKDF output of this many bytes.
struct Bytes(usize);

impl hkdf::KeyType for Bytes {
    fn len(&self) -> usize {
        self.0
    }
}

/// What a push carries to the service worker (`public/sw.js`).
pub fn payload(
    push: &WebPush,
    desk: &Desk,
    notice: Notice,
    ask: &interaction::Ask,
) -> serde_json::Value {
    let title = crate::ask_title(notice, ask);
    let body = if ask.status == interaction::AskStatus::Pending {
        let question = ask
            .request
            .questions()
            .first()
            .map(|q| q.question.clone())
            .unwrap_or_default();
        // What the agent was doing, its first line, above the question.
        match crate::context_excerpt(ask) {
            Some(context) => format!("{}\n{question}", context.lines().next().unwrap_or("")),
            None => question,
        }
    } else {
        crate::ended_text(ask)
    };
    let actions: Vec<serde_json::Value> = desk
        .actions(ask, PUSH_ACTIONS, interaction::Via::Push)
        .into_iter()
        .map(|(label, token)| serde_json::json!({"label": label, "token": token}))
        .collect();
    serde_json::json!({
        "title": title.chars().take(120).collect::<String>(),
        "body": body.chars().take(400).collect::<String>(),
        "url": ask.url,
        "tag": ask.id,
        "actionUrl": format!("{}/api/v1/actions/{}", desk.public_url(), ask.id),
        "actions": actions,
        // Only a pending ask's page wakes a form; an ended one loads no code.
        "code": push.code.as_deref().filter(|_| ask.status == interaction::AskStatus::Pending),
    })
}

/// Sends one notice to every subscribed browser. Subscriptions their push
/// service reports gone (404, 410) are dropped; other failures fail the
/// delivery, to be tried again (a browser shows one notification per
/// ask, so a repeat replaces rather than adds).
pub async fn send(
    push: &WebPush,
    desk: &Desk,
    http: &reqwest::Client,
    notice: Notice,
    ask: &interaction::Ask,
) -> Result<(), PushError> {
    let subscriptions = desk
        .push_subscriptions()
        .await
        .map_err(PushError::Subscriptions)?;
    let message = payload(push, desk, notice, ask).to_string();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut failures = Vec::new();
    for subscription in &subscriptions {
        match push_one(push, http, subscription, notice, message.as_bytes(), now).await {
            Ok(()) => {}
            Err(Gone) => {
                tracing::info!("a browser's push subscription is gone; dropping it");
                if let Err(e) = desk.unsubscribe_push(&subscription.endpoint).await {
                    tracing::warn!("dropping a gone push subscription failed: {e}");
                }
            }
            Err(Failed(e)) => failures.push(e),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(PushError::Services {
            of: subscriptions.len(),
            failures,
        })
    }
}

/// Why one browser was not pushed to.
enum PushFailure {
    /// Its subscription is gone (or unreadable): drop it.
    Gone,
    /// This push failed; the next delivery tries again.
    Failed(PushError),
}
use PushFailure::{Failed, Gone};

async fn push_one(
    push: &WebPush,
    http: &reqwest::Client,
    subscription: &PushSubscription,
    notice: Notice,
    message: &[u8],
    now: u64,
) -> Result<(), PushFailure> {
    let (Some(p256dh), Some(auth)) = (unb64(&subscription.p256dh), unb64(&subscription.auth))
    else {
        return Err(Gone);
    };
    let body = push.encrypt(&p256dh, &auth, message).map_err(Failed)?;
    let authorization = push
        .authorization(&subscription.endpoint, now)
        .map_err(Failed)?;
    let urgency = if notice == Notice::Finished {
        "normal"
    } else {
        "high"
    };
    let reply = http
        .post(&subscription.endpoint)
        .header("content-encoding", "aes128gcm")
        .header("content-type", "application/octet-stream")
        .header("ttl", TTL_SECONDS.to_string())
        .header("urgency", urgency)
        .header("authorization", authorization)
        .body(body)
        .send()
        .await
        .map_err(|e| Failed(PushError::NotDelivered(e.without_url())))?;
    match reply.status().as_u16() {
        200..=299 => Ok(()),
        404 | 410 => Err(Gone),
        status => Err(Failed(PushError::Answered(status))),
    }
}

#[cfg(test)]
mod tests;

//! Action tokens: the capability to answer one ask with one option, with
//! no session, from where a notification lands (an ntfy button, a Slack
//! button, a Web Push action). A token is an HMAC of the surface it is
//! sent to, the ask id and the option's label under a key the server
//! keeps in its database (so every instance, and every restart, checks
//! the same tokens); it answers once, and dies with its ask. The answer
//! it gives goes through the desk and `interaction` like any other.

use hmac::{Hmac, Mac};
use interaction::{AnswerItem, Answers, Question, Request, Via};
use sha2::{Digest, Sha256};

/// The name of the action-token key among the server's keys.
pub(crate) const KEY_NAME: &str = "action-token";

/// The key tokens are made with.
#[derive(Clone)]
pub(crate) struct ActionKey(Vec<u8>);

impl ActionKey {
    /// A new random key, as hex text to store.
    pub(crate) fn fresh() -> Result<String, getrandom::Error> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)?;
        Ok(hex::encode(bytes))
    }

    /// The key from its stored text.
    pub(crate) fn from_stored(text: &str) -> Self {
        Self(text.as_bytes().to_vec())
    }

    fn mac(&self, via: Via, ask: &str, label: &str) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("any key length");
        mac.update(b"askdesk action v2\0");
        mac.update(via.as_str().as_bytes());
        mac.update(b"\0");
        mac.update(ask.as_bytes());
        mac.update(b"\0");
        mac.update(label.as_bytes());
        mac
    }

    /// The token, sent through `via`, that answers ask `ask` with the
    /// option `label`: 128 bits of the HMAC, as hex.
    pub(crate) fn token(&self, via: Via, ask: &str, label: &str) -> String {
        hex::encode(&self.mac(via, ask, label).finalize().into_bytes()[..16])
    }

    /// The surface `token` was sent through, if it is one of `surfaces`'
    /// tokens for `ask` and `label` (compared in constant time).
    pub(crate) fn verify(
        &self,
        surfaces: &[Via],
        ask: &str,
        label: &str,
        token: &str,
    ) -> Option<Via> {
        let bytes = hex::decode(token).ok().filter(|b| b.len() == 16)?;
        surfaces.iter().copied().find(|via| {
            self.mac(*via, ask, label)
                .verify_truncated_left(&bytes)
                .is_ok()
        })
    }
}

/// What a used token is stored as: its digest, so the table of uses holds
/// nothing that answers.
pub(crate) fn used(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The one question an action can answer: the request's only question,
/// single-select, with options.
pub fn actionable(request: &Request) -> Option<&Question> {
    match request.questions.as_slice() {
        [question] if !question.multi_select && !question.options.is_empty() => Some(question),
        _ => None,
    }
}

/// The answers an action with option `label` gives.
pub(crate) fn answers(question: &Question, label: &str) -> Answers {
    Answers {
        answers: vec![AnswerItem {
            id: question.id.clone(),
            selected: vec![label.to_owned()],
            custom: None,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Via; 3] = [Via::Ntfy, Via::Slack, Via::Push];

    #[test]
    fn a_token_answers_only_its_ask_and_label_under_its_key_and_tells_its_surface() {
        let key = ActionKey::from_stored("k1");
        let token = key.token(Via::Slack, "ask-a", "Yes");
        assert_eq!(token.len(), 32);
        assert_eq!(key.verify(&ALL, "ask-a", "Yes", &token), Some(Via::Slack));
        assert_eq!(
            key.verify(&[Via::Ntfy, Via::Push], "ask-a", "Yes", &token),
            None
        );
        assert_eq!(key.verify(&ALL, "ask-a", "No", &token), None);
        assert_eq!(key.verify(&ALL, "ask-b", "Yes", &token), None);
        assert_eq!(
            ActionKey::from_stored("k2").verify(&ALL, "ask-a", "Yes", &token),
            None
        );
        // The label cannot slide into the id.
        assert_eq!(key.verify(&ALL, "ask-aY", "es", &token), None);
        for bad in ["", "zz", &token[..30], &format!("{token}00")] {
            assert_eq!(key.verify(&ALL, "ask-a", "Yes", bad), None, "{bad:?}");
        }
    }
}

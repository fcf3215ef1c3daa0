//! One-time sign-in links: a signed-in device makes one (the desk's phone
//! page shows it as a QR code), and another device uses it, once, within
//! [`LINK_MS`], to a session of its own for the same grant.

use super::{people::random_hex, Desk};
use crate::{
    error::DeskError,
    people::digest,
    sessions::{Grant, LinkRefusal, LinkValid, SignInLink, LINK_MS, SESSION_MS},
};
use interaction::Timestamp;

impl Desk {
    /// A new one-time sign-in link for `grant`: its secret (128 random
    /// bits in hex, returned once and kept only as its digest) and when
    /// it stops working, [`LINK_MS`] from now.
    pub async fn open_sign_in_link(&self, grant: &Grant) -> Result<SignInLink, DeskError> {
        let code = random_hex(16)?;
        let now = self.now_ms();
        let expires_at = now.saturating_add(LINK_MS);
        self.store
            .add_link(&digest(&code), grant, now, expires_at)
            .await?;
        Ok(SignInLink {
            code,
            expires_at: Timestamp::from_ms(expires_at),
        })
    }

    /// What the link with this secret would do now, without using it:
    /// what its page shows before the device asks to sign in.
    pub async fn sign_in_link(
        &self,
        code: &str,
    ) -> Result<Result<LinkValid, LinkRefusal>, DeskError> {
        Ok(self.store.link(&digest(code), self.now_ms()).await?)
    }

    /// Uses the link with this secret: once, across every instance, it
    /// opens a session for its grant, like signing in with a token (a new
    /// cookie, valid for [`SESSION_MS`]) but marked as opened by a link.
    /// The cookie and whose the session is, or why the link opened none.
    pub async fn use_sign_in_link(
        &self,
        code: &str,
    ) -> Result<Result<(String, Grant), LinkRefusal>, DeskError> {
        let cookie = random_hex(32)?;
        let now = self.now_ms();
        let used = self
            .store
            .use_link(
                &digest(code),
                now,
                &digest(&cookie),
                now.saturating_add(SESSION_MS),
            )
            .await?;
        Ok(used.map(|grant| (cookie, grant)))
    }
}

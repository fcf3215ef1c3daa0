//! The desk's side of OAuth: codes issued for a person's consent, grants
//! opened by exchanging them, and their tokens. Each grant acts as an
//! agent of the desk named after its client and its person (`claude.ai-alice`),
//! created when the first grant of that client and person opens and kept
//! for the next, so its asks stay its own across reconnections. The rules
//! of the authorization server itself (PKCE, redirect URIs, resources)
//! are the `oauth` crate's; this keeps what they decide.

use super::{people::random_hex, Desk};
use crate::{
    error::DeskError,
    grants::{Bearer, Code, CodeTaken, GrantRecord, NewToken, OAuthClient, Refreshed, TokenKind},
    people::{digest, Joining},
    Terms,
};
use interaction::Role;
use std::time::Duration;

/// The prefix of an access token.
pub const ACCESS_PREFIX: &str = "askd_at_";
/// The prefix of a refresh token.
pub const REFRESH_PREFIX: &str = "askd_rt_";

/// The tokens an exchange issued, each shown once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issued {
    /// The access token.
    pub access: String,
    /// The refresh token.
    pub refresh: String,
    /// How long the access token holds.
    pub expires_in: Duration,
    /// The grant they belong to.
    pub grant: GrantRecord,
}

/// How long tokens hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetimes {
    /// An access token.
    pub access: Duration,
    /// A refresh token.
    pub refresh: Duration,
}

/// What presenting a refresh token gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refresh {
    /// New tokens; the old refresh token is used up.
    Issued(Box<Issued>),
    /// A used one: the grant is revoked.
    Reused,
    /// No such token.
    Unknown,
}

/// New tokens' secrets, before their grant is known.
struct Secrets {
    access: String,
    refresh: String,
    expires_in: Duration,
}

impl Secrets {
    fn of(self, grant: GrantRecord) -> Issued {
        Issued {
            access: self.access,
            refresh: self.refresh,
            expires_in: self.expires_in,
            grant,
        }
    }
}

fn ms(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

impl Desk {
    /// Registers `client` unless `cap` are registered already (`false`).
    pub async fn register_oauth_client(
        &self,
        client: &OAuthClient,
        cap: u64,
    ) -> Result<bool, DeskError> {
        Ok(self.store.register_client(client, cap).await?)
    }

    /// The registered client with this id.
    pub async fn oauth_client(&self, client_id: &str) -> Result<Option<OAuthClient>, DeskError> {
        Ok(self.store.oauth_client(client_id).await?)
    }

    /// Issues a code for `code`'s terms: the secret, shown once.
    pub async fn issue_code(&self, code: &Code) -> Result<String, DeskError> {
        let secret = random_hex(32)?;
        self.store
            .insert_code(&digest(&secret), code, self.now_ms())
            .await?;
        Ok(secret)
    }

    /// Takes the code `secret` (once; a second take revokes its grant).
    pub async fn take_code(&self, secret: &str) -> Result<CodeTaken, DeskError> {
        Ok(self.store.take_code(&digest(secret), self.now_ms()).await?)
    }

    /// Opens the grant of the code `secret`, taken with `terms`, and issues
    /// its first tokens.
    pub async fn open_grant(
        &self,
        secret: &str,
        terms: Terms,
        lifetimes: Lifetimes,
    ) -> Result<Issued, DeskError> {
        let agent = self.connector_agent(&terms).await?;
        let grant = GrantRecord {
            id: random_hex(16)?,
            agent,
            terms,
            created_at: self.now_ms(),
        };
        let (tokens, secrets) = self.new_tokens(lifetimes)?;
        self.store
            .open_grant(&grant, &digest(secret), &tokens)
            .await?;
        Ok(secrets.of(grant))
    }

    /// The access token `token`, if it holds now.
    pub async fn bearer(&self, token: &str) -> Result<Option<Bearer>, DeskError> {
        if !token.starts_with(ACCESS_PREFIX) {
            return Ok(None);
        }
        Ok(self.store.bearer(&digest(token), self.now_ms()).await?)
    }

    /// Rotates the refresh token `token`: new tokens for its grant.
    pub async fn refresh_grant(
        &self,
        token: &str,
        lifetimes: Lifetimes,
    ) -> Result<Refresh, DeskError> {
        if !token.starts_with(REFRESH_PREFIX) {
            return Ok(Refresh::Unknown);
        }
        // The new tokens' secrets are drawn first and stored with the
        // rotation, which finds their grant.
        let (tokens, secrets) = self.new_tokens(lifetimes)?;
        Ok(
            match self
                .store
                .refresh(&digest(token), self.now_ms(), &tokens)
                .await?
            {
                Refreshed::Rotated(grant) => Refresh::Issued(Box::new(secrets.of(grant))),
                Refreshed::Reused => Refresh::Reused,
                Refreshed::Unknown => Refresh::Unknown,
            },
        )
    }

    /// The grant the token `token` (access or refresh) belongs to.
    pub async fn grant_of_token(&self, token: &str) -> Result<Option<GrantRecord>, DeskError> {
        Ok(self.store.grant_of_token(&digest(token)).await?)
    }

    /// Revokes grant `id`, with its tokens; whether there was one.
    pub async fn revoke_grant(&self, id: &str) -> Result<bool, DeskError> {
        Ok(self.store.revoke_grant(id).await?)
    }

    /// The grants `owner` allowed (all of them without one), newest first.
    pub async fn grants(&self, owner: Option<&str>) -> Result<Vec<GrantRecord>, DeskError> {
        Ok(self.store.grants(owner).await?)
    }

    /// A new access and refresh token, to store and to show.
    fn new_tokens(&self, lifetimes: Lifetimes) -> Result<(Vec<NewToken>, Secrets), DeskError> {
        let now = self.now_ms();
        let access = format!("{ACCESS_PREFIX}{}", random_hex(24)?);
        let refresh = format!("{REFRESH_PREFIX}{}", random_hex(24)?);
        let tokens = vec![
            NewToken {
                digest: digest(&access),
                kind: TokenKind::Access,
                expires_at: now.saturating_add(ms(lifetimes.access)),
            },
            NewToken {
                digest: digest(&refresh),
                kind: TokenKind::Refresh,
                expires_at: now.saturating_add(ms(lifetimes.refresh)),
            },
        ];
        let secrets = Secrets {
            access,
            refresh,
            expires_in: lifetimes.access,
        };
        Ok((tokens, secrets))
    }

    /// The agent a grant of `terms` acts as: the one an earlier grant of
    /// the same client and person did, or a new one named after both. It
    /// relays the answers its person gives in the client's own window (the
    /// person allowed it, and is who answers there).
    async fn connector_agent(&self, terms: &Terms) -> Result<String, DeskError> {
        let earlier = self.store.grants(Some(&terms.owner)).await?;
        if let Some(grant) = earlier
            .into_iter()
            .find(|g| g.terms.client_id == terms.client_id)
        {
            if self
                .store
                .people()
                .await?
                .iter()
                .any(|p| p.name == grant.agent && p.role == Role::Agent)
            {
                return Ok(grant.agent);
            }
        }
        let base = agent_name(&terms.client_name, &terms.owner);
        for n in 1..=20 {
            let name = if n == 1 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            let joining = Joining {
                relays_answers: true,
                email: None,
            };
            match self.add_person_with(&name, Role::Agent, joining).await {
                Ok(_) => return Ok(name),
                Err(DeskError::Conflict(_)) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(DeskError::Conflict(format!(
            "no free name for {}'s agent of {}",
            terms.owner, terms.client_name
        )))
    }
}

/// `claude.ai-alice`: a person's name (A-Z a-z 0-9 . _ -, from a letter or
/// digit, at most 64) from a client's name and its person's.
fn agent_name(client: &str, owner: &str) -> String {
    let client: String = client
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let client = client.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    let client = if client.is_empty() { "client" } else { client };
    let client: String = client.chars().take(32).collect();
    let name = format!("{}-{owner}", client.trim_end_matches(['.', '-']));
    name.chars().take(56).collect()
}

#[cfg(test)]
mod tests {
    use super::agent_name;

    #[test]
    fn an_agent_is_named_after_its_client_and_person() {
        assert_eq!(agent_name("claude.ai", "alice"), "claude.ai-alice");
        assert_eq!(agent_name("My Client ✨", "bob"), "my-client-bob");
        assert_eq!(agent_name("…", "bob"), "client-bob");
        let long = agent_name(&"x".repeat(100), &"y".repeat(64));
        assert!(
            interaction::person_name_problem(&long, "name").is_none(),
            "{long}"
        );
    }
}

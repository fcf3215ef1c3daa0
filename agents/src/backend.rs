//! Where the MCP tools and the agents' hooks put their asks: this
//! process's own desk, or another askdesk server through the `client`
//! crate (for `askdesk mcp` and `askdesk hook` when a server is already
//! running). Both refuse with one [`BackendError`], which keeps what each
//! said: the desk's own refusal, or the remote server's reply, each read
//! once where it is used.

use app::error::ServerError;
use client::Client;
use desk::{Actor, Caller, Desk, DeskError};
use interaction::{Answers, Ask, AskCreated, Decline, IdempotencyKey, NewAsk, Problem, Via};
use std::time::Duration;

/// Why the backend did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    /// This process's desk refused, or failed.
    #[error(transparent)]
    Desk(#[from] DeskError),
    /// Another askdesk server refused, or could not be reached.
    #[error(transparent)]
    Remote(#[from] client::Error),
}

impl BackendError {
    /// The problems of input the validator refused, if that was why.
    pub fn problems(&self) -> Option<&[Problem]> {
        match self {
            Self::Desk(DeskError::Invalid(problems)) => Some(&problems.0),
            Self::Remote(client::Error::Invalid { problems, .. }) => Some(problems),
            _ => None,
        }
    }

    /// The ask, if the refusal was that it had already ended.
    pub fn ended(self) -> Result<Ask, Self> {
        match self {
            Self::Desk(DeskError::Finished(ask) | DeskError::Gone(ask))
            | Self::Remote(client::Error::Finished { ask, .. }) => Ok(*ask),
            other => Err(other),
        }
    }

    /// What a page's form is told: the desk's refusal as the page's
    /// server functions say it, a remote server's by its reply.
    pub fn for_page(self) -> ServerError {
        match self {
            Self::Desk(error) => app::rpc::ssr::page_error(error),
            Self::Remote(client::Error::Invalid { problems, .. }) => {
                ServerError::Invalid(interaction::Problems(problems))
            }
            Self::Remote(client::Error::Finished { ask, .. }) => ServerError::Finished(ask),
            Self::Remote(client::Error::Refused { status, .. }) if status.as_u16() == 404 => {
                ServerError::NotFound
            }
            Self::Remote(client::Error::Refused { status, .. }) if status.as_u16() == 403 => {
                ServerError::Forbidden
            }
            Self::Remote(other) => {
                tracing::warn!("a call to the askdesk server failed: {other}");
                ServerError::Internal
            }
        }
    }
}

/// Who calls a [`Backend::Remote`]: the remote server knows the caller by
/// the client's token, so the caller passed names nobody. (The hooks and
/// `askdesk mcp` use only remote backends.)
pub const BY_CLIENT_TOKEN: Caller = Caller::Unnamed;

/// Where a tool call names its idempotency key.
const KEY_PATH: &str = "idempotencyKey";

/// The asks' home.
#[derive(Clone)]
pub enum Backend {
    /// The desk of this process.
    Local(Desk),
    /// Another askdesk server.
    Remote(Client),
}

impl Backend {
    /// Creates the ask for `caller`, once per idempotency key (of theirs)
    /// when there is one. (A remote server knows the caller by the
    /// client's token, as it does in every call below.)
    pub async fn create(
        &self,
        new: NewAsk,
        key: Option<&str>,
        caller: &Caller,
    ) -> Result<AskCreated, BackendError> {
        Ok(match (self, key) {
            (Self::Local(desk), None) => desk.create(new, caller).await?,
            (Self::Local(desk), Some(key)) => {
                let key = IdempotencyKey::parse(key, KEY_PATH).map_err(DeskError::Invalid)?;
                desk.create_once(new, &key, KEY_PATH, caller).await?.0
            }
            (Self::Remote(client), None) => client.create(&new).await?,
            (Self::Remote(client), Some(key)) => client.create_once(&new, key).await?,
        })
    }

    /// The messages to `caller`'s `session` after number `after`, waiting
    /// up to `wait` for one.
    pub async fn messages(
        &self,
        session: &str,
        after: u64,
        wait: Duration,
        caller: &Caller,
    ) -> Result<interaction::SessionMessages, BackendError> {
        Ok(match self {
            Self::Local(desk) => desk.messages(session, after, Some(wait), caller).await?,
            Self::Remote(client) => client.messages(session, after, wait).await?,
        })
    }

    /// The ask as `caller` may see it now: another agent's is not found.
    pub async fn get(&self, id: &str, caller: &Caller) -> Result<Ask, BackendError> {
        Ok(match self {
            Self::Local(desk) => desk.get(id, caller).await?,
            Self::Remote(client) => client.wait(id, Duration::ZERO).await?,
        })
    }

    /// `caller`'s ask once it has ended, or after `wait` with it still
    /// pending.
    pub async fn wait(
        &self,
        id: &str,
        wait: Duration,
        caller: &Caller,
    ) -> Result<Ask, BackendError> {
        Ok(match self {
            Self::Local(desk) => {
                let started = desk.now_ms();
                let ask = desk.wait(id, wait, caller).await?;
                desk::metered::woke(ask.finished_at, started, desk.now_ms());
                ask
            }
            Self::Remote(client) => client.wait(id, wait).await?,
        })
    }

    /// `caller`'s ask once it has ended, waiting as long as it takes.
    pub async fn ended(&self, id: &str, caller: &Caller) -> Result<Ask, BackendError> {
        loop {
            let ask = self.wait(id, desk::MAX_WAIT, caller).await?;
            if ask.status.is_finished() {
                return Ok(ask);
            }
        }
    }

    /// Whether the client of `caller` may relay the answers its person
    /// gives inside its host: the desk's refusal if not. (A remote server
    /// knows the caller by the client's token.)
    pub async fn may_relay(&self, caller: &Caller) -> Result<(), BackendError> {
        match self {
            Self::Local(desk) => Ok(desk.may_relay(caller).await?),
            Self::Remote(client) => match client.me().await?.relays_answers {
                true => Ok(()),
                false => Err(DeskError::Forbidden(
                    "this agent's token does not relay answers given in its client".to_owned(),
                )
                .into()),
            },
        }
    }

    /// Answers the ask with what the person gave `via` the client's form
    /// or askdesk's inside its host, relayed by `caller`'s client: the
    /// desk decides by the caller whether it may, then validates the
    /// answers. (A remote server knows the caller by the client's token.)
    pub async fn answer(
        &self,
        id: &str,
        answers: Answers,
        caller: &Caller,
        via: Via,
    ) -> Result<Ask, BackendError> {
        Ok(match self {
            Self::Local(desk) => {
                desk.answer(id, answers, &Actor::new(caller.clone(), via))
                    .await?
            }
            Self::Remote(client) => client.speaking_for(Some(via)).answer(id, &answers).await?,
        })
    }

    /// Declines the ask for the person, `via` the client's form or
    /// askdesk's inside its host, relayed by `caller`'s client.
    pub async fn decline(
        &self,
        id: &str,
        decline: &Decline,
        caller: &Caller,
        via: Via,
    ) -> Result<Ask, BackendError> {
        Ok(match self {
            Self::Local(desk) => {
                desk.decline(id, decline.clone(), &Actor::new(caller.clone(), via))
                    .await?
            }
            Self::Remote(client) => client.speaking_for(Some(via)).decline(id, decline).await?,
        })
    }

    /// Cancels the ask for `caller` if it is still pending, and tells how
    /// it ended: one that had already ended counts as done, with its own
    /// outcome. (A remote server knows the caller by the client's token.)
    pub async fn cancel(&self, id: &str, caller: &Caller) -> Result<Ask, BackendError> {
        let cancelled = match self {
            Self::Local(desk) => desk
                .cancel(id, &Actor::new(caller.clone(), Via::Mcp))
                .await
                .map_err(BackendError::from),
            Self::Remote(client) => client.cancel(id).await.map_err(BackendError::from),
        };
        cancelled.or_else(BackendError::ended)
    }
}

//! Where `ask_user` puts its asks: this process's own desk, or another
//! askdesk server through the `client` crate (for `askdesk mcp` when a
//! server is already running). Both speak one error, [`client::Error`]:
//! the desk's refusals become what the HTTP API would have said.

use client::{Client, Error};
use desk::{Actor, Caller, Desk, DeskError};
use interaction::{Answers, Ask, AskCreated, Decline, IdempotencyKey, NewAsk, Via};
use std::time::Duration;

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

/// The desk's refusal as the HTTP API reports it: the API's own status
/// and body, read back as a remote server's reply would be.
fn from_desk(error: DeskError) -> Error {
    let (status, body) = crate::http::reply::desk_error_body(error);
    Error::from_reply(status, Some(body))
}

impl Backend {
    /// Creates the ask, once per idempotency key when there is one.
    pub async fn create(&self, new: NewAsk, key: Option<&str>) -> Result<AskCreated, Error> {
        match (self, key) {
            (Self::Local(desk), None) => desk.create(new).await.map_err(from_desk),
            (Self::Local(desk), Some(key)) => {
                let key = IdempotencyKey::parse(key, KEY_PATH)
                    .map_err(|p| from_desk(DeskError::Invalid(p)))?;
                let created = desk.create_once(new, &key, KEY_PATH).await;
                created.map(|(created, _)| created).map_err(from_desk)
            }
            (Self::Remote(client), None) => client.create(&new).await,
            (Self::Remote(client), Some(key)) => client.create_once(&new, key).await,
        }
    }

    /// The ask once it has ended, or after `wait` with it still pending.
    pub async fn wait(&self, id: &str, wait: Duration) -> Result<Ask, Error> {
        match self {
            Self::Local(desk) => desk.wait(id, wait).await.map_err(from_desk),
            Self::Remote(client) => client.wait(id, wait).await,
        }
    }

    /// Whether the client of `caller` may relay the answers its person
    /// gives inside its host: the desk's refusal if not. (A remote server
    /// knows the caller by the client's token.)
    pub async fn may_relay(&self, caller: &Caller) -> Result<(), Error> {
        match self {
            Self::Local(desk) => desk.may_relay(caller).await.map_err(from_desk),
            Self::Remote(client) => match client.me().await?.relays_answers {
                true => Ok(()),
                false => Err(from_desk(DeskError::Forbidden(
                    "this agent's token does not relay answers given in its client".to_owned(),
                ))),
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
    ) -> Result<Ask, Error> {
        match self {
            Self::Local(desk) => desk
                .answer(id, answers, &Actor::new(caller.clone(), via))
                .await
                .map_err(from_desk),
            Self::Remote(client) => client.speaking_for(Some(via)).answer(id, &answers).await,
        }
    }

    /// Declines the ask for the person, `via` the client's form or
    /// askdesk's inside its host, relayed by `caller`'s client.
    pub async fn decline(
        &self,
        id: &str,
        decline: &Decline,
        caller: &Caller,
        via: Via,
    ) -> Result<Ask, Error> {
        match self {
            Self::Local(desk) => desk
                .decline(id, decline.clone(), &Actor::new(caller.clone(), via))
                .await
                .map_err(from_desk),
            Self::Remote(client) => client.speaking_for(Some(via)).decline(id, decline).await,
        }
    }

    /// Cancels the ask for `caller` if it is still pending, and tells how
    /// it ended: one that had already ended counts as done, with its own
    /// outcome. (A remote server knows the caller by the client's token.)
    pub async fn cancel(&self, id: &str, caller: &Caller) -> Result<Ask, Error> {
        let result = match self {
            Self::Local(desk) => desk
                .cancel(id, &Actor::new(caller.clone(), Via::Mcp))
                .await
                .map_err(from_desk),
            Self::Remote(client) => client.cancel(id).await,
        };
        match result {
            Err(Error::Finished { ask, .. }) => Ok(*ask),
            other => other,
        }
    }
}

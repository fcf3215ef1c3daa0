//! People with their own tokens and roles, and signed-in browsers'
//! sessions. Tokens and session cookies are kept only as SHA-256 digests;
//! every check reads the database, so a person removed on one instance is
//! refused by every instance on their next request.

use crate::{error::StoreError, record::Finisher, Desk, DeskError};
use async_trait::async_trait;
use interaction::{person_name_problem, Problem, ProblemCode, Problems, Role, Via};
use sha2::{Digest, Sha256};

/// What every person's token starts with, so a leaked one is recognised
/// (by a person, or a secret scanner).
pub const TOKEN_PREFIX: &str = "askd_";

/// How long a signed-in browser stays signed in: 30 days.
pub const SESSION_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// Someone with a token of their own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    /// Their name, unique on the desk.
    pub name: String,
    /// What they may do.
    pub role: Role,
    /// When they were added, in milliseconds since the Unix epoch.
    pub created_at: i64,
}

/// Who is acting, as the server established it from the request's
/// credentials (never from what the request says).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    /// No one in particular, with every right: anyone on a desk with no
    /// token and no people, or the holder of the server's shared token.
    Unnamed,
    /// A person with their own token or session, with their role's rights.
    Person(Person),
    /// Someone holding only an ask's link (or an agent's client reporting
    /// the person's answer): may answer and decline that ask unless the
    /// desk requires signing in to answer.
    Link,
}

impl Caller {
    /// The person's name, when it is a person.
    pub fn name(&self) -> Option<&str> {
        match self {
            Self::Person(person) => Some(&person.name),
            Self::Unnamed | Self::Link => None,
        }
    }

    /// Whether this caller may create asks (and so use the agents' tools,
    /// MCP): agents and admins, and anyone on an open desk; not a person's
    /// token, nor a link.
    pub fn may_create(&self) -> Result<(), DeskError> {
        match self {
            Self::Person(person) if person.role == Role::Person => Err(DeskError::Forbidden(
                "a person's token cannot create asks or use MCP; agents ask, with an agent's \
                 token"
                    .to_owned(),
            )),
            Self::Link => Err(DeskError::Forbidden(
                "creating asks needs a token; send `Authorization: Bearer <token>`".to_owned(),
            )),
            Self::Unnamed | Self::Person(_) => Ok(()),
        }
    }

    /// Whether this caller may use the desk's own features (a browser's
    /// push subscription): people and admins, not agents.
    pub fn may_use_desk(&self) -> Result<(), DeskError> {
        match self {
            Self::Person(person) if person.role == Role::Agent => Err(DeskError::Forbidden(
                "an agent's token cannot do this; it is for the people who answer".to_owned(),
            )),
            Self::Link => Err(DeskError::Forbidden(
                "this needs a token or a signed-in browser".to_owned(),
            )),
            Self::Unnamed | Self::Person(_) => Ok(()),
        }
    }
}

/// Someone acting on an ask through a surface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    /// Who.
    pub caller: Caller,
    /// Through what.
    pub via: Via,
}

impl Actor {
    /// `caller` acting through `via`.
    pub fn new(caller: Caller, via: Via) -> Self {
        Self { caller, via }
    }

    /// What the ask records of this actor when they finish it.
    pub(crate) fn finisher(&self) -> Finisher {
        Finisher::new(self.caller.name().map(str::to_owned), self.via)
    }
}

/// What an actor would do to a pending ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finishing {
    /// Answer or decline it: the person's part.
    Answer,
    /// Cancel it: the agent's part.
    Cancel,
}

/// Whose a signed-in session is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grant {
    /// A person's.
    Person(Person),
    /// The holder of the server's shared token, named by `tag` (a digest
    /// of that token: a session outlives no change of the token).
    Admin {
        /// The digest.
        tag: String,
    },
}

/// The SHA-256 digest of `secret` in hex: how tokens and cookies are kept.
pub fn digest(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `bytes` random bytes in hex.
fn random_hex(bytes: usize) -> Result<String, DeskError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| DeskError::System(format!("no randomness: {e}")))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// The people and sessions a store keeps; part of every [`Store`](crate::Store).
#[async_trait]
pub trait People: Send + Sync {
    /// Adds `person` with the token whose digest is `token_digest`;
    /// `false`, adding nothing, when the name is taken.
    async fn add_person(&self, person: &Person, token_digest: &str) -> Result<bool, StoreError>;

    /// Everyone, by name.
    async fn people(&self) -> Result<Vec<Person>, StoreError>;

    /// Removes the person `name` and their sessions; whether there was one.
    async fn remove_person(&self, name: &str) -> Result<bool, StoreError>;

    /// The person whose token has this digest.
    async fn person_by_token(&self, token_digest: &str) -> Result<Option<Person>, StoreError>;

    /// Keeps a session, by the digest of its cookie, until `expires_at`.
    async fn add_session(
        &self,
        digest: &str,
        grant: &Grant,
        at: i64,
        expires_at: i64,
    ) -> Result<(), StoreError>;

    /// Whose the session with this digest is, if it is still valid at
    /// `now` (and its person still exists).
    async fn session(&self, digest: &str, now: i64) -> Result<Option<Grant>, StoreError>;

    /// Ends the session with this digest.
    async fn remove_session(&self, digest: &str) -> Result<(), StoreError>;
}

impl Desk {
    /// Adds a person with a new token, which is returned once and kept
    /// only as its digest: `askd_` and 160 random bits in hex. A taken
    /// name is [`DeskError::Conflict`].
    pub async fn add_person(&self, name: &str, role: Role) -> Result<(Person, String), DeskError> {
        if let Some(problem) = person_name_problem(name, "name") {
            return Err(DeskError::Invalid(Problems(vec![problem])));
        }
        let token = format!("{TOKEN_PREFIX}{}", random_hex(20)?);
        let person = Person {
            name: name.to_owned(),
            role,
            created_at: self.now(),
        };
        if !self.store.add_person(&person, &digest(&token)).await? {
            return Err(DeskError::Conflict(format!(
                "there is a person named {name:?} already; remove them first to give them a \
                 new token or role"
            )));
        }
        Ok((person, token))
    }

    /// Everyone, by name.
    pub async fn people(&self) -> Result<Vec<Person>, DeskError> {
        Ok(self.store.people().await?)
    }

    /// Removes a person: their token and sessions stop working at once, on
    /// every instance. Whether there was one.
    pub async fn remove_person(&self, name: &str) -> Result<bool, DeskError> {
        Ok(self.store.remove_person(name).await?)
    }

    /// Whether the desk has any people (then it needs a token, even when
    /// its server has no shared one).
    pub async fn has_people(&self) -> Result<bool, DeskError> {
        Ok(!self.store.people().await?.is_empty())
    }

    /// The person whose token this is.
    pub async fn person_by_token(&self, token: &str) -> Result<Option<Person>, DeskError> {
        if !token.starts_with(TOKEN_PREFIX) {
            return Ok(None);
        }
        Ok(self.store.person_by_token(&digest(token)).await?)
    }

    /// A new session for `grant`: the cookie's value, kept only as its
    /// digest, valid for [`SESSION_MS`].
    pub async fn open_session(&self, grant: &Grant) -> Result<String, DeskError> {
        let cookie = random_hex(32)?;
        let now = self.now();
        self.store
            .add_session(&digest(&cookie), grant, now, now.saturating_add(SESSION_MS))
            .await?;
        Ok(cookie)
    }

    /// Whose the session with this cookie is, if it is valid.
    pub async fn session(&self, cookie: &str) -> Result<Option<Grant>, DeskError> {
        Ok(self.store.session(&digest(cookie), self.now()).await?)
    }

    /// Ends the session with this cookie.
    pub async fn close_session(&self, cookie: &str) -> Result<(), DeskError> {
        Ok(self.store.remove_session(&digest(cookie)).await?)
    }

    /// Whether `actor` may end `record` so, as this desk's rules say:
    /// agents cancel, people answer and decline, admins do both; a link
    /// answers unless the desk requires signing in to answer, and then a
    /// person answers only the asks for them (or for anyone).
    pub(crate) fn may(
        &self,
        actor: &Actor,
        to: &[String],
        finishing: Finishing,
    ) -> Result<(), DeskError> {
        let refuse = |message: String| Err(DeskError::Forbidden(message));
        let role = match &actor.caller {
            Caller::Unnamed => return Ok(()),
            Caller::Link => {
                return match finishing {
                    Finishing::Cancel => refuse(
                        "only the agent that asked (or an admin) may cancel an ask".to_owned(),
                    ),
                    Finishing::Answer if self.answer_requires_sign_in => refuse(
                        "this desk requires signing in to answer: sign in with your token,                          then answer on the ask's page"
                            .to_owned(),
                    ),
                    Finishing::Answer => Ok(()),
                }
            }
            Caller::Person(person) => person.role,
        };
        match (finishing, role) {
            (_, Role::Admin)
            | (Finishing::Cancel, Role::Agent)
            | (Finishing::Answer, Role::Person) => {}
            (Finishing::Cancel, Role::Person) => {
                return refuse(
                    "a person's token cannot cancel an ask; decline it instead".to_owned(),
                )
            }
            (Finishing::Answer, Role::Agent) => {
                return refuse(
                    "an agent's token cannot answer or decline: the agent may not answer its                      own question; a person answers on the ask's page, in the terminal UI or                      with their own token"
                        .to_owned(),
                )
            }
        }
        let name = actor.caller.name().unwrap_or_default();
        if finishing == Finishing::Answer
            && role == Role::Person
            && self.answer_requires_sign_in
            && !to.is_empty()
            && !to.iter().any(|to| to == name)
        {
            return refuse(format!(
                "this ask is for {}; only they or an admin may answer it",
                to.join(", ")
            ));
        }
        Ok(())
    }

    /// Whether `caller` may answer and decline `ask` (were it pending):
    /// what an ask page offers them.
    pub fn may_answer(&self, caller: &Caller, ask: &interaction::Ask) -> bool {
        let actor = Actor::new(caller.clone(), Via::Web);
        self.may(&actor, &ask.to, Finishing::Answer).is_ok()
    }

    /// Checks an ask's `to` against the desk's people: every unknown name
    /// is a problem at its place.
    pub(crate) async fn check_known(&self, to: &[String]) -> Result<(), DeskError> {
        if to.is_empty() {
            return Ok(());
        }
        let people = self.store.people().await?;
        let problems: Vec<Problem> = to
            .iter()
            .enumerate()
            .filter(|(_, name)| !people.iter().any(|p| &p.name == *name))
            .map(|(i, name)| {
                Problem::new(
                    format!("to[{i}]"),
                    ProblemCode::UnknownRecipient,
                    format!(
                        "no person of this desk is named {name:?}; `askdesk people list` shows \
                         their names"
                    ),
                )
            })
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(DeskError::Invalid(Problems(problems)))
        }
    }
}

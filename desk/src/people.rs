//! People with their own tokens and roles, and who may do what. Tokens
//! are kept only as SHA-256 digests; every check reads the database, so a
//! person removed on one instance is refused by every instance on their
//! next request. Their signed-in browsers are `sessions`'.

use crate::{
    error::{DeskError, StoreError},
    record::{AskedBy, Finisher},
};
use async_trait::async_trait;
use interaction::{Role, Via};
use sha2::{Digest, Sha256};

/// What every person's token starts with, so a leaked one is recognised
/// (by a person, or a secret scanner).
pub const TOKEN_PREFIX: &str = "askd_";

/// Someone with a token of their own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    /// Their name, unique on the desk.
    pub name: String,
    /// What they may do.
    pub role: Role,
    /// When they were added.
    pub created_at: interaction::Timestamp,
    /// Whether, being an agent, its client may relay the answers a person
    /// gives inside the agent's host (its own form, askdesk's form as an
    /// MCP App): `askdesk people add NAME --role agent --relays-answers`.
    pub relays_answers: bool,
    /// Their email address, lower case, when they sign in with the
    /// company's identity provider: `--email` of `askdesk people add`.
    pub email: Option<String>,
}

/// What a person is added with besides their name and role.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Joining {
    /// Whether, being an agent, its client relays answers (see
    /// [`Person::relays_answers`]).
    pub relays_answers: bool,
    /// Their email address as given; kept as
    /// [`interaction::person_email`] writes it.
    pub email: Option<String>,
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
    /// Someone holding only an ask's link: may answer and decline that ask
    /// where the desk lets a link answer ([`LinkAnswers`]).
    Link,
    /// Someone pressing a notification's button: its action token, which a
    /// channel delivered, answers one ask with one option, unless the desk
    /// requires signing in to answer.
    Action,
}

impl Caller {
    /// The person's name, when it is a person.
    pub fn name(&self) -> Option<&str> {
        match self {
            Self::Person(person) => Some(&person.name),
            Self::Unnamed | Self::Link | Self::Action => None,
        }
    }

    /// Whether this caller may see an ask made by `asked_by`, and act on it
    /// as the one who asked: an agent only on the asks it made; people,
    /// admins and callers with every right on all of them; a link or an
    /// action token on the one ask it names. Another agent's ask is not
    /// found, never forbidden, so its id tells nothing.
    pub fn sees(&self, asked_by: &AskedBy) -> bool {
        self.sees_made_by(asked_by.name())
    }

    /// Whether this caller sees the ask a list line or an event shows
    /// ([`Caller::sees`]).
    pub fn sees_listed(&self, ask: &interaction::AskSummary) -> bool {
        self.sees_made_by(ask.asked_by.as_deref())
    }

    /// [`Caller::sees`] by the name of who made the ask, if a person did.
    fn sees_made_by(&self, name: Option<&str>) -> bool {
        match self {
            Self::Person(person) if person.role == Role::Agent => {
                name == Some(person.name.as_str())
            }
            Self::Person(_) | Self::Unnamed | Self::Link | Self::Action => true,
        }
    }

    /// Whether this caller sees the session an ask made by `asked_by`
    /// names, rather than only whether its agent listens: those who may
    /// read its messages ([`Caller::reads_session`]).
    pub fn sees_session(&self, asked_by: &AskedBy) -> bool {
        self.reads_session(asked_by.name())
    }

    /// Whether this caller may read the messages to a session whose owner
    /// is `owner` ([`crate::record::AskedBy::scope`]; `None`: named by
    /// nobody since askdesk recorded owners): its agent, admins and
    /// callers with every right.
    pub fn reads_session(&self, owner: Option<&str>) -> bool {
        match self {
            Self::Unnamed => true,
            Self::Person(person) => match person.role {
                Role::Admin => true,
                Role::Agent => owner == Some(person.name.as_str()),
                Role::Person => false,
            },
            Self::Link | Self::Action => false,
        }
    }

    /// What a message this caller writes into an agent's session says it
    /// is from: a person's name, `admin` for a caller with every right,
    /// `link` for an ask's link.
    pub fn message_sender(&self) -> Option<String> {
        match self {
            Self::Person(person) => Some(person.name.clone()),
            Self::Unnamed => Some("admin".to_owned()),
            Self::Link => Some("link".to_owned()),
            Self::Action => None,
        }
    }

    /// The name a list is narrowed to for this caller: an agent's own.
    pub fn only_own(&self) -> Option<&str> {
        match self {
            Self::Person(person) if person.role == Role::Agent => Some(&person.name),
            _ => None,
        }
    }

    /// Whether this caller may create asks (and so use the agents' tools,
    /// MCP): agents and admins, and anyone on an open desk; not a person's
    /// token, nor a link.
    pub fn may_create(&self) -> Result<(), DeskError> {
        match self {
            Self::Person(person) if !person.role.asks() => Err(DeskError::Forbidden(
                "a person's token cannot create asks or use MCP; agents ask, with an agent's \
                 token"
                    .to_owned(),
            )),
            Self::Link | Self::Action => Err(DeskError::Forbidden(
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
            Self::Link | Self::Action => Err(DeskError::Forbidden(
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

    /// Whether this actor may end an ask for `to` so, by the rules of
    /// roles: agents cancel, people answer and decline, admins do both; an
    /// agent's client relays a person's answer only through a relaying
    /// surface and only when the agent was made to relay; a link answers
    /// where `rules` let it, an action token unless signing in is required;
    /// and with signing in required a person answers only the asks for
    /// them (or for anyone). Who acts comes from the credentials; `via`
    /// only says how, and never widens what they may do.
    pub(crate) fn may(
        &self,
        to: &[String],
        finishing: Finishing,
        rules: AnswerRules,
    ) -> Result<(), DeskError> {
        let refuse = |message: String| Err(DeskError::Forbidden(message));
        let person = match &self.caller {
            Caller::Unnamed => return Ok(()),
            Caller::Link | Caller::Action => {
                return match finishing {
                    Finishing::Cancel => refuse(
                        "only the agent that asked (or an admin) may cancel an ask".to_owned(),
                    ),
                    Finishing::Answer if rules.sign_in_required => refuse(
                        "this desk requires signing in to answer: sign in with your token, \
                         then answer on the ask's page"
                            .to_owned(),
                    ),
                    Finishing::Answer if self.caller == Caller::Link && !rules.link_answers => {
                        refuse(
                            "this desk has people, so an ask's link alone does not answer: \
                             sign in with your token, then answer on the ask's page (a desk \
                             started with --answer-by-link lets the link answer)"
                                .to_owned(),
                        )
                    }
                    Finishing::Answer => Ok(()),
                }
            }
            Caller::Person(person) => person,
        };
        match (finishing, person.role) {
            (_, Role::Admin)
            | (Finishing::Cancel, Role::Agent)
            | (Finishing::Answer, Role::Person) => {}
            (Finishing::Cancel, Role::Person) => {
                return refuse(
                    "a person's token cannot cancel an ask; decline it instead".to_owned(),
                )
            }
            (Finishing::Answer, Role::Agent) => {
                return match relay_refusal(person, self.via, rules) {
                    Some(why) => refuse(why),
                    None => Ok(()),
                }
            }
        }
        if finishing == Finishing::Answer
            && person.role == Role::Person
            && rules.sign_in_required
            && !to.is_empty()
            && !to.contains(&person.name)
        {
            return refuse(format!(
                "this ask is for {}; only they or an admin may answer it",
                to.join(", ")
            ));
        }
        Ok(())
    }

    /// What the ask records of this actor when they finish it so: the
    /// person who did, or, for an answer an agent's client relayed, the
    /// agent that carried it and no person.
    pub(crate) fn finisher(&self, finishing: Finishing) -> Finisher {
        match &self.caller {
            Caller::Person(agent)
                if agent.role == Role::Agent && finishing == Finishing::Answer =>
            {
                Finisher::relayed(agent.name.clone(), self.via)
            }
            caller => Finisher::new(caller.name().map(str::to_owned), self.via),
        }
    }
}

/// Why the agent `agent` may not answer through `via`, if it may not: an
/// agent never answers on its own behalf, only relays what a person gave
/// inside its host, and only when it was made to relay.
fn relay_refusal(agent: &Person, via: Via, rules: AnswerRules) -> Option<String> {
    if !via.is_relayed() {
        return Some(
            "an agent's token cannot answer or decline: the agent may not answer its own \
             question; a person answers on the ask's page, in the terminal UI or with their \
             own token"
                .to_owned(),
        );
    }
    if !agent.relays_answers {
        return Some(format!(
            "the agent {} does not relay answers given in its client; a person answers on the \
             ask's page, or an admin lets it relay (`askdesk people edit {} --relays-answers`)",
            agent.name, agent.name
        ));
    }
    if rules.sign_in_required {
        return Some(
            "this desk requires signing in to answer, so no agent's client may relay an answer; \
             a person answers on the ask's page"
                .to_owned(),
        );
    }
    None
}

/// When a link answers, by the desk's settings (`--answer-by-link`,
/// `--answer-requires-sign-in`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LinkAnswers {
    /// While the desk has no people: a desk with a shared token only is
    /// one person's, whose link is their capability; a team's desk (one
    /// with people) wants to know who answered.
    #[default]
    WithoutPeople,
    /// Always, also on a desk with people (`--answer-by-link`).
    Always,
    /// Never: only signed-in people and admins answer, a person only the
    /// asks for them or for anyone, no agent's client relays, and
    /// notifications carry no answer buttons (`--answer-requires-sign-in`).
    Never,
}

/// The desk's rules of answering for one decision.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AnswerRules {
    /// Whether the ask's link alone answers.
    pub link_answers: bool,
    /// Whether only signed-in people and admins answer ([`LinkAnswers::Never`]).
    pub sign_in_required: bool,
}

/// What an actor would do to a pending ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finishing {
    /// Answer or decline it: the person's part.
    Answer,
    /// Cancel it: the agent's part.
    Cancel,
}

/// The SHA-256 digest of `secret` in hex: how tokens and cookies are kept.
pub fn digest(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// The people a store keeps; part of every `Store`.
#[async_trait]
pub trait People: Send + Sync {
    /// Adds `person` with the token whose digest is `token_digest`;
    /// `false`, adding nothing, when the name is taken.
    async fn add_person(&self, person: &Person, token_digest: &str) -> Result<bool, StoreError>;

    /// Everyone, by name.
    async fn people(&self) -> Result<Vec<Person>, StoreError>;

    /// Removes the person `name` with their sessions and sign-in links;
    /// whether there was one.
    async fn remove_person(&self, name: &str) -> Result<bool, StoreError>;

    /// The person whose token has this digest.
    async fn person_by_token(&self, token_digest: &str) -> Result<Option<Person>, StoreError>;

    /// Sets whether the person `name` relays answers; whether there was one.
    async fn set_relays_answers(&self, name: &str, relays: bool) -> Result<bool, StoreError>;

    /// The person whose email address (lower case) is `email`.
    async fn person_by_email(&self, email: &str) -> Result<Option<Person>, StoreError>;

    /// Sets or clears the email address of the person `name`: `Some(true)`
    /// when set, `Some(false)` when another person has it (nothing
    /// changes), `None` when nobody is named so.
    async fn set_email(&self, name: &str, email: Option<&str>) -> Result<Option<bool>, StoreError>;
}

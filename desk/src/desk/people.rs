//! The desk's people and sessions: adding and removing people, signing
//! in and out, listing and ending sessions, who may end an ask how, and
//! checking an ask's recipients.

use super::Desk;
use crate::{
    error::DeskError,
    people::{
        digest, Actor, AnswerRules, Caller, Finishing, Joining, LinkAnswers, Person, TOKEN_PREFIX,
    },
    sessions::{Grant, Holder, Opened, SessionId, SessionInfo, SESSION_MS},
};
use interaction::{
    person_email, person_name_problem, Me, Problem, ProblemCode, Problems, Role, Via,
};
use std::{
    sync::{Mutex, PoisonError},
    time::{Duration, Instant},
};

/// How long [`Desk::has_people_lately`] remembers its answer: people added
/// or removed through this desk count at once, by another instance or
/// `askdesk people` within this.
const PEOPLE_SEEN_FOR: Duration = Duration::from_secs(1);

/// The last answer to "does the desk have people?", and when it was read.
#[derive(Debug, Default)]
pub(super) struct PeopleSeen(Mutex<Option<(Instant, bool)>>);

impl PeopleSeen {
    fn get(&self) -> Option<bool> {
        let seen = *self.0.lock().unwrap_or_else(PoisonError::into_inner);
        seen.filter(|(at, _)| at.elapsed() < PEOPLE_SEEN_FOR)
            .map(|(_, has)| has)
    }

    fn set(&self, has: Option<bool>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) =
            has.map(|has| (Instant::now(), has));
    }
}

/// `bytes` random bytes in hex.
pub(super) fn random_hex(bytes: usize) -> Result<String, DeskError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| DeskError::System(format!("no randomness: {e}")))?;
    Ok(hex::encode(buf))
}

/// The refusal of an email address `holder` has already.
fn email_taken(email: &str, holder: &str) -> DeskError {
    DeskError::Conflict(format!(
        "{email} is the email address of {holder} already; each person signs in with their own"
    ))
}

/// The refusal of relaying for someone of `role`: only an agent's client
/// carries answers from the agent's host.
fn relaying_refusal(role: Role, relays_answers: bool) -> Result<(), DeskError> {
    if relays_answers && role != Role::Agent {
        return Err(DeskError::Conflict(format!(
            "only an agent relays answers from its host; this is a {role}, who answers with \
             their own token"
        )));
    }
    Ok(())
}

impl Desk {
    /// Adds a person with a new token, which is returned once and kept
    /// only as its digest: `askd_` and 160 random bits in hex. A taken
    /// name is [`DeskError::Conflict`].
    pub async fn add_person(&self, name: &str, role: Role) -> Result<(Person, String), DeskError> {
        self.add_person_with(name, role, Joining::default()).await
    }

    /// Like [`Desk::add_person`], with what `joining` says: an agent that
    /// relays the answers people give inside its host (only an agent may
    /// be one), an email address no other person has.
    pub async fn add_person_with(
        &self,
        name: &str,
        role: Role,
        joining: Joining,
    ) -> Result<(Person, String), DeskError> {
        if let Some(problem) = person_name_problem(name, "name") {
            return Err(DeskError::Invalid(Problems(vec![problem])));
        }
        relaying_refusal(role, joining.relays_answers)?;
        let email = match joining.email.as_deref().map(|e| person_email(e, "email")) {
            Some(Ok(email)) => Some(self.unclaimed_email(email).await?),
            Some(Err(problem)) => return Err(DeskError::Invalid(Problems(vec![problem]))),
            None => None,
        };
        let token = format!("{TOKEN_PREFIX}{}", random_hex(20)?);
        let person = Person {
            name: name.to_owned(),
            role,
            created_at: interaction::Timestamp::from_ms(self.now_ms()),
            relays_answers: joining.relays_answers,
            email,
        };
        let added = self.store.add_person(&person, &digest(&token)).await?;
        self.people_seen.set(None);
        if !added {
            return Err(DeskError::Conflict(format!(
                "there is a person named {name:?} already; remove them first to give them a \
                 new token or role"
            )));
        }
        Ok((person, token))
    }

    /// Lets the agent `name` relay answers, or stops it: at its next
    /// request, on every instance. The person as they are now; `None` when
    /// nobody has that name.
    pub async fn set_relays_answers(
        &self,
        name: &str,
        relays_answers: bool,
    ) -> Result<Option<Person>, DeskError> {
        let Some(person) = self
            .store
            .people()
            .await?
            .into_iter()
            .find(|p| p.name == name)
        else {
            return Ok(None);
        };
        relaying_refusal(person.role, relays_answers)?;
        if !self.store.set_relays_answers(name, relays_answers).await? {
            return Ok(None);
        }
        Ok(Some(Person {
            relays_answers,
            ..person
        }))
    }

    /// `email`, unless another person has it ([`DeskError::Conflict`]).
    async fn unclaimed_email(&self, email: String) -> Result<String, DeskError> {
        match self.store.person_by_email(&email).await? {
            Some(holder) => Err(email_taken(&email, &holder.name)),
            None => Ok(email),
        }
    }

    /// Sets the email address of the person `name` (`None` clears it): the
    /// person as they are now; `None` when nobody has that name. An
    /// address another person has is [`DeskError::Conflict`].
    pub async fn set_email(
        &self,
        name: &str,
        email: Option<&str>,
    ) -> Result<Option<Person>, DeskError> {
        let email = match email.map(|e| person_email(e, "email")) {
            Some(Ok(email)) => Some(email),
            Some(Err(problem)) => return Err(DeskError::Invalid(Problems(vec![problem]))),
            None => None,
        };
        if let Some(email) = &email {
            if let Some(holder) = self.store.person_by_email(email).await? {
                if holder.name != name {
                    return Err(email_taken(email, &holder.name));
                }
            }
        }
        match self.store.set_email(name, email.as_deref()).await? {
            None => return Ok(None),
            Some(false) => {
                return Err(email_taken(
                    email.as_deref().unwrap_or_default(),
                    "another person",
                ))
            }
            Some(true) => {}
        }
        Ok(self.people().await?.into_iter().find(|p| p.name == name))
    }

    /// The person whose email address is `email` (any case), as an identity
    /// provider verified it.
    pub async fn person_by_email(&self, email: &str) -> Result<Option<Person>, DeskError> {
        Ok(self
            .store
            .person_by_email(&email.trim().to_lowercase())
            .await?)
    }

    /// Everyone, by name.
    pub async fn people(&self) -> Result<Vec<Person>, DeskError> {
        Ok(self.store.people().await?)
    }

    /// Removes a person: their token and sessions stop working at once, on
    /// every instance. Whether there was one.
    pub async fn remove_person(&self, name: &str) -> Result<bool, DeskError> {
        let removed = self.store.remove_person(name).await?;
        self.people_seen.set(None);
        Ok(removed)
    }

    /// Whether the desk has any people (then it needs a token, even when
    /// its server has no shared one).
    pub async fn has_people(&self) -> Result<bool, DeskError> {
        Ok(!self.store.people().await?.is_empty())
    }

    /// [`Desk::has_people`] as read at most a [`PEOPLE_SEEN_FOR`] ago: what
    /// every request asks (who a caller without credentials is, whether a
    /// link answers), so the database is read about it once a second, not
    /// for every page.
    pub async fn has_people_lately(&self) -> Result<bool, DeskError> {
        if let Some(has) = self.people_seen.get() {
            return Ok(has);
        }
        let has = self.has_people().await?;
        self.people_seen.set(Some(has));
        Ok(has)
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
        let now = self.now_ms();
        self.store
            .add_session(
                &digest(&cookie),
                grant,
                Opened::Token,
                now,
                now.saturating_add(SESSION_MS),
            )
            .await?;
        Ok(cookie)
    }

    /// Whose the session with this cookie is, if it is valid.
    pub async fn session(&self, cookie: &str) -> Result<Option<Grant>, DeskError> {
        Ok(self.store.session(&digest(cookie), self.now_ms()).await?)
    }

    /// Ends the session with this cookie.
    pub async fn close_session(&self, cookie: &str) -> Result<(), DeskError> {
        Ok(self.store.remove_session(&digest(cookie)).await?)
    }

    /// The signed-in sessions (only `holder`'s, when given), newest first;
    /// never their cookies.
    pub async fn sessions(&self, holder: Option<&Holder>) -> Result<Vec<SessionInfo>, DeskError> {
        Ok(self.store.sessions(holder, self.now_ms()).await?)
    }

    /// Ends the session named `id` (only if it is `holder`'s, when given),
    /// on every instance at its next request; whether there was one.
    pub async fn end_session(
        &self,
        id: &SessionId,
        holder: Option<&Holder>,
    ) -> Result<bool, DeskError> {
        Ok(self.store.remove_session_by_id(id, holder).await?)
    }

    /// Whether `actor` may end an ask for `to` so, under this desk's rule
    /// on links (see [`Actor::may`]). Whether the desk has people is read
    /// only for a link, on a desk whose links answer while it has none.
    pub(crate) async fn may(
        &self,
        actor: &Actor,
        to: &[String],
        finishing: Finishing,
    ) -> Result<(), DeskError> {
        let link_answers = match (self.link_answers, &actor.caller) {
            (LinkAnswers::Always, _) => true,
            (LinkAnswers::Never, _) => false,
            (LinkAnswers::WithoutPeople, Caller::Link) => !self.has_people_lately().await?,
            (LinkAnswers::WithoutPeople, _) => true,
        };
        let rules = AnswerRules {
            link_answers,
            sign_in_required: self.link_answers == LinkAnswers::Never,
        };
        actor.may(to, finishing, rules)
    }

    /// Whether `caller` may answer and decline `ask` (were it pending):
    /// what an ask page offers them.
    pub async fn may_answer(&self, caller: &Caller, ask: &interaction::Ask) -> bool {
        let actor = Actor::new(caller.clone(), Via::Web);
        self.may(&actor, &ask.to, Finishing::Answer).await.is_ok()
    }

    /// Whether `caller`'s client may relay the answers a person gives
    /// inside the agent's host (its own form, askdesk's form there): the
    /// refusal an answer it relayed would get, if it would be refused.
    /// Tools offer a form in the client only when it may.
    pub async fn may_relay(&self, caller: &Caller) -> Result<(), DeskError> {
        let actor = Actor::new(caller.clone(), Via::McpClient);
        self.may(&actor, &[], Finishing::Answer).await
    }

    /// Who `caller` is, as `GET /api/v1/me` says: their name and role (the
    /// shared token and an open desk may do everything, as an admin), and
    /// whether the answers their client relays from inside its host are
    /// taken. `None` for someone without credentials.
    pub async fn me(&self, caller: &Caller) -> Option<Me> {
        let (name, role) = match caller {
            Caller::Person(person) => (Some(person.name.clone()), person.role),
            Caller::Unnamed => (None, Role::Admin),
            Caller::Link | Caller::Action => return None,
        };
        // A person uses no MCP client, so none relays for them.
        let relays_answers = role != Role::Person && self.may_relay(caller).await.is_ok();
        Some(Me {
            name,
            role,
            relays_answers,
        })
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

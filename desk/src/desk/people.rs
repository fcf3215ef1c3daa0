//! The desk's people and sessions: adding and removing people, signing
//! in and out, listing and ending sessions, who may end an ask how, and
//! checking an ask's recipients.

use super::Desk;
use crate::{
    error::DeskError,
    people::{digest, Actor, Caller, Finishing, Person, TOKEN_PREFIX},
    sessions::{Grant, Holder, Opened, SessionId, SessionInfo, SESSION_MS},
};
use interaction::{person_name_problem, Problem, ProblemCode, Problems, Role, Via};

/// `bytes` random bytes in hex.
pub(super) fn random_hex(bytes: usize) -> Result<String, DeskError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| DeskError::System(format!("no randomness: {e}")))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
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
            created_at: interaction::Timestamp::from_ms(self.now_ms()),
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
    /// on signing in to answer (see [`Actor::may`]).
    pub(crate) fn may(
        &self,
        actor: &Actor,
        to: &[String],
        finishing: Finishing,
    ) -> Result<(), DeskError> {
        actor.may(to, finishing, self.answer_requires_sign_in)
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

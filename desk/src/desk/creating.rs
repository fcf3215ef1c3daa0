//! Creating asks: validation, the idempotency key and its content digest,
//! the new record, and telling listeners.

use super::Desk;
use crate::{
    error::DeskError,
    id::AskId,
    people::Caller,
    record::{AskedBy, Record},
    store::Keyed,
};
use interaction::{
    AskCreated, IdempotencyKey, NewAsk, Problem, ProblemCode, Problems, Timestamp, ValidNewAsk,
};

/// A digest of an ask's validated content: what makes two creations with
/// one idempotency key the same ask.
fn fingerprint(valid: &ValidNewAsk) -> String {
    use sha2::{Digest, Sha256};
    // What the agent was doing is shown, not asked: a retry that read more
    // of it (a hook's transcript grew) is the same ask.
    let mut request = valid.request.request().clone();
    request.context = None;
    let content = (&request, &valid.title, &valid.agent, valid.timeout_seconds);
    // An ask for anyone, without defaults, digests as it did before asks
    // had `to` and `defaultAnswers`.
    let json = match (valid.to.is_empty(), &valid.default_answers) {
        (true, None) => serde_json::to_vec(&content),
        (false, None) => serde_json::to_vec(&(content, &valid.to)),
        (_, Some(defaults)) => serde_json::to_vec(&(content, &valid.to, defaults)),
    }
    .unwrap_or_default();
    hex::encode(Sha256::digest(&json))
}

impl Desk {
    /// Validates and stores a new ask, made by `caller` and theirs.
    pub async fn create(&self, new: NewAsk, caller: &Caller) -> Result<AskCreated, DeskError> {
        let valid = new.validate().map_err(DeskError::Invalid)?;
        self.check_known(&valid.to).await?;
        let record = self.record_of(valid, caller)?;
        self.claim_session(&record, caller).await?;
        self.store
            .insert(&record, None, &self.owed_at_creation(&record).await?)
            .await?;
        self.announce(&record).await;
        Ok(self.created(&record))
    }

    /// Validates and stores a new ask once per `key`: the same key with the
    /// same content gives the ask made the first time (with `false`), on any
    /// instance and however the calls race; with other content it is
    /// refused, naming `key_path`.
    pub async fn create_once(
        &self,
        new: NewAsk,
        key: &IdempotencyKey,
        key_path: &str,
        caller: &Caller,
    ) -> Result<(AskCreated, bool), DeskError> {
        let valid = new.validate().map_err(DeskError::Invalid)?;
        self.check_known(&valid.to).await?;
        let keyed = Keyed {
            key: key.as_str().to_owned(),
            fingerprint: fingerprint(&valid),
        };
        let record = self.record_of(valid, caller)?;
        let scope = record.asked_by.scope();
        if let Some(existing) = self.by_key(&keyed, scope, key, key_path).await? {
            return Ok((existing, false));
        }
        self.claim_session(&record, caller).await?;
        let owed = self.owed_at_creation(&record).await?;
        if self.store.insert(&record, Some(&keyed), &owed).await? {
            self.announce(&record).await;
            return Ok((self.created(&record), true));
        }
        // Another call made it between our look and our insert.
        let existing = self.by_key(&keyed, scope, key, key_path).await?;
        Ok((existing.ok_or(DeskError::NotFound)?, false))
    }

    /// The ask `scope` made with this key before, if any: keys are each
    /// creator's own, so another's key makes a new ask.
    async fn by_key(
        &self,
        keyed: &Keyed,
        scope: &str,
        key: &IdempotencyKey,
        key_path: &str,
    ) -> Result<Option<AskCreated>, DeskError> {
        let Some((id, fingerprint)) = self.store.by_key(&keyed.key, scope).await? else {
            return Ok(None);
        };
        if fingerprint != keyed.fingerprint {
            return Err(DeskError::Invalid(key.conflict(key_path)));
        }
        let record = self.read(id.as_str()).await?;
        Ok(Some(self.created(&record)))
    }

    /// Refuses a new ask naming another agent's session, claiming the
    /// session for its creator when nobody has it. Callers with every
    /// right (admins, the shared token) may name any session.
    async fn claim_session(&self, record: &Record, caller: &Caller) -> Result<(), DeskError> {
        let Some(session) = &record.session else {
            return Ok(());
        };
        let scope = record.asked_by.scope();
        let owner = self
            .store
            .claim_session(session, scope, self.now_ms())
            .await?;
        if owner == scope || caller.only_own().is_none() {
            return Ok(());
        }
        Err(DeskError::Invalid(Problems(vec![Problem::new(
            "session",
            ProblemCode::SessionTaken,
            "this session is another agent's: the agent that first named it reads its \
             messages; name your own session"
                .to_owned(),
        )])))
    }

    /// A new pending ask's record, made by `caller`.
    fn record_of(&self, valid: ValidNewAsk, caller: &Caller) -> Result<Record, DeskError> {
        let id = AskId::random().map_err(|e| DeskError::System(format!("no randomness: {e}")))?;
        let created_at = self.now_ms();
        let expires_at = valid.timeout_seconds.map(|s| {
            created_at.saturating_add(i64::try_from(s).unwrap_or(i64::MAX).saturating_mul(1000))
        });
        Ok(Record {
            id,
            title: valid.title,
            agent: valid.agent,
            request: valid.request,
            created_at,
            expires_at,
            end: None,
            to: valid.to,
            defaults: valid.default_answers,
            session: valid.session,
            asked_by: AskedBy::of(caller),
        })
    }

    /// Tells the log and the listeners of a new ask just stored.
    async fn announce(&self, record: &Record) {
        tracing::info!(id = %crate::Logged(record.id.as_str()), "new ask");
        crate::metered::created();
        self.catch_up().await;
    }

    /// Where an ask is, as its creation reports it.
    fn created(&self, record: &Record) -> AskCreated {
        AskCreated {
            url: self.url(&record.id),
            id: record.id.to_string(),
            status: record.status(),
            created_at: Timestamp::from_ms(record.created_at),
            expires_at: record.expires_at.map(Timestamp::from_ms),
        }
    }
}

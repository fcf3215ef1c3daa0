//! Rows as every SQL store keeps them, and the one way back from a row to
//! a validated [`Record`]: the stores differ in SQL, not in what a row means.

use crate::{
    error::{corrupt, StoreError},
    id::AskId,
    record::{AskedBy, End, Entry, Finisher, Record},
};
use interaction::{
    project, AnswerItem, Answers, AskStatus, Outcome, Request, ToolOutput, ValidAnswers,
    ValidRequest, Via,
};
use sqlx::{ColumnIndex, Decode, Row, Type};

/// The columns `get` selects, in every store.
pub(crate) const RECORD_COLUMNS: &str = "id, status, title, agent, request, created_at, \
    expires_at, finished_at, answers, decline_reason, projection, finished_by, finished_via, \
    relayed_by, recipients, default_answers, session, asked_by, asker_known";

/// The columns `list` selects, in every store.
pub(crate) const ENTRY_COLUMNS: &str =
    "id, status, title, agent, created_at, expires_at, question_count, recipients, session, \
     asked_by, asker_known";

/// `value` as the JSON text a store keeps.
pub(crate) fn json<T: serde::Serialize>(id: &AskId, value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| corrupt(id.as_str(), e))
}

pub(crate) fn parse_id(id: &str) -> Result<AskId, StoreError> {
    AskId::parse(id).ok_or_else(|| corrupt(id, "malformed id"))
}

fn parse_status(id: &str, status: &str) -> Result<AskStatus, StoreError> {
    AskStatus::parse(status).ok_or_else(|| corrupt(id, format!("unknown status {status:?}")))
}

/// The columns of one stored ask, as the database gives them.
struct Columns {
    id: String,
    status: String,
    title: Option<String>,
    agent: Option<String>,
    request: String,
    created_at: i64,
    expires_at: Option<i64>,
    finished_at: Option<i64>,
    answers: Option<String>,
    decline_reason: Option<String>,
    projection: Option<String>,
    finished_by: Option<String>,
    finished_via: Option<String>,
    relayed_by: Option<String>,
    recipients: Option<String>,
    default_answers: Option<String>,
    session: Option<String>,
    asked_by: AskedBy,
}

/// Who made an ask, from its `asked_by` and `asker_known` columns.
fn asked_by<'r, R>(row: &'r R) -> Result<AskedBy, StoreError>
where
    R: Row,
    &'static str: ColumnIndex<R>,
    String: Decode<'r, R::Database> + Type<R::Database>,
    i64: Decode<'r, R::Database> + Type<R::Database>,
{
    let known: i64 = row.try_get("asker_known")?;
    let name: Option<String> = row.try_get("asked_by")?;
    Ok(match (known, name) {
        (0, _) => AskedBy::Unknown,
        (_, Some(name)) => AskedBy::Named(name),
        (_, None) => AskedBy::Unnamed,
    })
}

/// The names an ask is for, from their stored JSON (`NULL`: anyone).
fn recipients(id: &str, stored: Option<&str>) -> Result<Vec<String>, StoreError> {
    stored.map_or(Ok(Vec::new()), |text| {
        serde_json::from_str(text)
            .map_err(|e| corrupt(id, format!("its `to` does not decode: {e}")))
    })
}

/// The names an ask is for as stored: a JSON array, or `NULL` for anyone.
pub(crate) fn stored_recipients(to: &[String]) -> Option<String> {
    (!to.is_empty()).then(|| serde_json::to_string(to).unwrap_or_default())
}

/// Decodes and validates a row of [`RECORD_COLUMNS`]: the one place stored
/// data becomes a [`Record`] again. Whatever does not decode or no longer
/// validates is [`StoreError::Corrupt`] naming the ask.
pub(crate) fn record<'r, R>(row: &'r R) -> Result<Record, StoreError>
where
    R: Row,
    &'static str: ColumnIndex<R>,
    String: Decode<'r, R::Database> + Type<R::Database>,
    i64: Decode<'r, R::Database> + Type<R::Database>,
{
    let columns = Columns {
        id: row.try_get("id")?,
        status: row.try_get("status")?,
        title: row.try_get("title")?,
        agent: row.try_get("agent")?,
        request: row.try_get("request")?,
        created_at: row.try_get("created_at")?,
        expires_at: row.try_get("expires_at")?,
        finished_at: row.try_get("finished_at")?,
        answers: row.try_get("answers")?,
        decline_reason: row.try_get("decline_reason")?,
        projection: row.try_get("projection")?,
        finished_by: row.try_get("finished_by")?,
        finished_via: row.try_get("finished_via")?,
        relayed_by: row.try_get("relayed_by")?,
        recipients: row.try_get("recipients")?,
        default_answers: row.try_get("default_answers")?,
        session: row.try_get("session")?,
        asked_by: asked_by(row)?,
    };
    columns.into_record()
}

/// Decodes a row of [`ENTRY_COLUMNS`].
pub(crate) fn entry<'r, R>(row: &'r R) -> Result<Entry, StoreError>
where
    R: Row,
    &'static str: ColumnIndex<R>,
    String: Decode<'r, R::Database> + Type<R::Database>,
    i64: Decode<'r, R::Database> + Type<R::Database>,
{
    let id: String = row.try_get("id")?;
    Ok(Entry {
        status: parse_status(&id, &row.try_get::<String, _>("status")?)?,
        title: row.try_get("title")?,
        agent: row.try_get("agent")?,
        created_at: row.try_get("created_at")?,
        expires_at: row.try_get("expires_at")?,
        question_count: usize::try_from(row.try_get::<i64, _>("question_count")?)
            .map_err(|e| corrupt(&id, e))?,
        to: recipients(
            &id,
            row.try_get::<Option<String>, _>("recipients")?.as_deref(),
        )?,
        listens: row.try_get::<Option<String>, _>("session")?.is_some(),
        asked_by: asked_by(row)?,
        id: parse_id(&id)?,
    })
}

impl Columns {
    fn into_record(self) -> Result<Record, StoreError> {
        let id = &self.id;
        let request: Request = serde_json::from_str(&self.request)
            .map_err(|e| corrupt(id, format!("its request does not decode: {e}")))?;
        let request = ValidRequest::stored(request)
            .map_err(|p| corrupt(id, format!("its request is invalid: {p}")))?;
        let status = parse_status(id, &self.status)?;
        let defaults = self
            .default_answers
            .as_deref()
            .map(|text| answers(id, text, &request, "default answers"))
            .transpose()?;
        let end = match (self.outcome(status, &request, &defaults)?, self.finished_at) {
            (None, _) => None,
            (Some(_), None) => return Err(corrupt(id, "it ended but has no finish time")),
            (Some(outcome), Some(at)) => {
                let projection = match &self.projection {
                    Some(text) => serde_json::from_str::<ToolOutput>(text)
                        .map_err(|e| corrupt(id, format!("its projection does not decode: {e}")))?,
                    // Finished before projections were stored.
                    None => project(&request, &outcome),
                };
                let finisher = match &self.finished_via {
                    None => None,
                    Some(via) => Some(Finisher {
                        by: self.finished_by.clone(),
                        relayed_by: self.relayed_by.clone(),
                        via: Via::parse(via)
                            .ok_or_else(|| corrupt(id, format!("unknown surface {via:?}")))?,
                    }),
                };
                Some(End::stored(outcome, at, projection, finisher))
            }
        };
        Ok(Record {
            id: parse_id(id)?,
            title: self.title,
            agent: self.agent,
            request,
            created_at: self.created_at,
            expires_at: self.expires_at,
            end,
            to: recipients(id, self.recipients.as_deref())?,
            defaults,
            session: self.session,
            asked_by: self.asked_by,
        })
    }

    /// How an ask with this status ended; `None` while pending. Defaults
    /// apply only on expiry, so an expired ask that has them applied them.
    fn outcome(
        &self,
        status: AskStatus,
        request: &ValidRequest,
        defaults: &Option<ValidAnswers>,
    ) -> Result<Option<Outcome>, StoreError> {
        let id = &self.id;
        Ok(Some(match status {
            AskStatus::Pending => return Ok(None),
            AskStatus::Answered => Outcome::Answered(answers(
                id,
                self.answers.as_deref().unwrap_or("null"),
                request,
                "answers",
            )?),
            AskStatus::Declined => Outcome::Declined {
                reason: self.decline_reason.clone(),
            },
            AskStatus::Cancelled => Outcome::Cancelled,
            AskStatus::Expired => match defaults {
                Some(defaults) => Outcome::Defaulted(defaults.clone()),
                None => Outcome::Expired,
            },
        }))
    }
}

/// Stored answer items (`what` they are, for the error) decoded and
/// validated against the ask's request.
fn answers(
    id: &str,
    text: &str,
    request: &ValidRequest,
    what: &str,
) -> Result<ValidAnswers, StoreError> {
    let items: Vec<AnswerItem> = serde_json::from_str(text)
        .map_err(|e| corrupt(id, format!("its {what} do not decode: {e}")))?;
    request
        .validate_stored_answers(Answers { answers: items })
        .map_err(|p| corrupt(id, format!("its {what} are invalid: {p}")))
}

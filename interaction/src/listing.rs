//! Lists of asks: one line per ask, and a page of them, as
//! `GET /api/v1/asks` and the event streams carry them.

use crate::{ask::Ask, time::Timestamp, AskStatus};
use serde::{Deserialize, Serialize};

/// One line of `GET /api/v1/asks`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AskSummary {
    /// The ask's id.
    #[cfg_attr(feature = "schema", schemars(pattern(crate::schema::ASK_ID)))]
    pub id: String,
    /// Where the human answers.
    #[cfg_attr(feature = "schema", schemars(url))]
    pub url: String,
    /// What it is about.
    pub title: Option<String>,
    /// Who asked.
    pub agent: Option<String>,
    /// Where it is in its life.
    pub status: AskStatus,
    /// When it was made, RFC 3339 in UTC.
    pub created_at: Timestamp,
    /// When it expires, if it has a timeout.
    pub expires_at: Option<Timestamp>,
    /// How many questions it has.
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = crate::MAX_QUESTIONS)))]
    pub question_count: usize,
    /// The people it is for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(with = "std::collections::BTreeSet<String>", length(max = crate::MAX_RECIPIENTS), inner(pattern(crate::schema::PERSON))))]
    pub to: Vec<String>,
    /// Whether the agent that asked reads what people write to its
    /// session (the ask has a `session`): the desk offers to write to it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub listens: bool,
    /// The agent (or admin) whose token made the ask; absent on a desk
    /// without people, and for asks made before askdesk recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(pattern(crate::schema::PERSON)))]
    pub asked_by: Option<String>,
}

impl From<&Ask> for AskSummary {
    fn from(ask: &Ask) -> Self {
        Self {
            id: ask.id.clone(),
            url: ask.url.clone(),
            title: ask.title.clone(),
            agent: ask.agent.clone(),
            status: ask.status,
            created_at: ask.created_at,
            expires_at: ask.expires_at,
            question_count: ask.request.questions().len(),
            to: ask.to.clone(),
            listens: ask.listens,
            asked_by: ask.asked_by.clone(),
        }
    }
}

/// The most asks one page of `GET /api/v1/asks` holds, and its default.
pub const PAGE_LIMIT: u32 = 200;

/// The reply to `GET /api/v1/asks`: newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AskList {
    /// The asks.
    #[cfg_attr(feature = "schema", schemars(length(max = PAGE_LIMIT)))]
    pub asks: Vec<AskSummary>,
    /// Grows whenever an ask is created or finished; pass it back as
    /// `?after=` with `?wait=` to be told of the next change.
    #[serde(default)]
    pub version: u64,
    /// When there are more asks than this page holds: pass it back as
    /// `?cursor=` for the next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

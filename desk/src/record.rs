//! An ask as the desk holds it: validated when it came in, and once ended,
//! ended for good with what the agent will read.

use crate::id::AskId;
use interaction::Timestamp;
use interaction::{
    project, Ask, AskStatus, AskSummary, Outcome, ToolOutput, ValidAnswers, ValidRequest, Via,
};

/// An ask as stored. Its request passed validation before it was stored
/// and again when it was read back, so code holding a `Record` relies on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The ask's id.
    pub id: AskId,
    /// What it is about.
    pub title: Option<String>,
    /// Who asked.
    pub agent: Option<String>,
    /// The questions.
    pub request: ValidRequest,
    /// When it was made, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// When it expires, if it has a timeout.
    pub expires_at: Option<i64>,
    /// How it ended; `None` while it is pending.
    pub end: Option<End>,
    /// The people it is for, by name (empty: anyone).
    pub to: Vec<String>,
    /// What the agent goes on with if nobody answers before it expires,
    /// validated against `request`; only an ask with `expires_at` has them.
    pub defaults: Option<ValidAnswers>,
    /// The agent's session that reads the person's messages, if it does.
    pub session: Option<String>,
    /// Whose credential made it: what it may be read and acted on by.
    pub asked_by: AskedBy,
}

/// Whose credential made an ask. An agent sees and acts on only the asks
/// it made; who may see what is [`crate::Caller::sees`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskedBy {
    /// A caller with every right: anyone on a desk without people, or
    /// the holder of the server's shared token.
    Unnamed,
    /// The agent or admin of this name.
    Named(String),
    /// Made before askdesk recorded who asked: only callers with every
    /// right (admins, the shared token) act on it as its asker.
    Unknown,
}

impl AskedBy {
    /// The name the API shows, when a person made it.
    pub fn name(&self) -> Option<&str> {
        match self {
            Self::Named(name) => Some(name),
            Self::Unnamed | Self::Unknown => None,
        }
    }

    /// The creator as idempotency keys and sessions are scoped to it: the
    /// name, or `""` for a caller with every right (and for asks made
    /// before askdesk recorded it, whose keys were stored so).
    pub fn scope(&self) -> &str {
        self.name().unwrap_or_default()
    }

    /// Who made an ask created by `caller`.
    pub fn of(caller: &crate::Caller) -> Self {
        match caller.name() {
            Some(name) => Self::Named(name.to_owned()),
            None => Self::Unnamed,
        }
    }
}

/// Who finished an ask and through which surface. Made by the server from
/// the request it served (its credentials and its route), never from what
/// the request says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finisher {
    /// The person's name; `None` for a link, an action token, an open desk,
    /// the shared token or an answer an agent relayed.
    pub by: Option<String>,
    /// The agent whose client carried a person's answer given inside its
    /// host (`via` its own form or askdesk's form there); `None` otherwise.
    pub relayed_by: Option<String>,
    /// The surface.
    pub via: Via,
}

impl Finisher {
    /// Finished through `via` by the person `by`, if a person.
    pub fn new(by: Option<String>, via: Via) -> Self {
        Self {
            by,
            relayed_by: None,
            via,
        }
    }

    /// Answered inside the host of the agent `agent`, whose client relayed
    /// the answer through `via`: no person of the desk is named.
    pub fn relayed(agent: String, via: Via) -> Self {
        Self {
            by: None,
            relayed_by: Some(agent),
            via,
        }
    }
}

/// How and when an ask left `pending`, with the projection its agent reads,
/// made once when it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct End {
    outcome: Outcome,
    at: i64,
    projection: ToolOutput,
    finisher: Option<Finisher>,
}

impl End {
    /// `request` ended with `outcome` at `at` (milliseconds since the epoch),
    /// by `finisher` (`None` when it expired).
    pub fn new(
        request: &ValidRequest,
        outcome: Outcome,
        at: i64,
        finisher: Option<Finisher>,
    ) -> Self {
        let projection = project(request, &outcome);
        Self::stored(outcome, at, projection, finisher)
    }

    /// An end read back from a store, with the projection made when it ended.
    pub fn stored(
        outcome: Outcome,
        at: i64,
        projection: ToolOutput,
        finisher: Option<Finisher>,
    ) -> Self {
        Self {
            outcome,
            at,
            projection,
            finisher,
        }
    }

    /// Who finished the ask and how; `None` when it expired (or ended
    /// before askdesk recorded it).
    pub fn finisher(&self) -> Option<&Finisher> {
        self.finisher.as_ref()
    }

    /// How the ask ended.
    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    /// When, in milliseconds since the Unix epoch.
    pub fn at(&self) -> i64 {
        self.at
    }

    /// What the agent's model reads.
    pub fn projection(&self) -> &ToolOutput {
        &self.projection
    }
}

impl Record {
    /// What a history search looks in: the title, the agent, and each
    /// question's header and text, in lower case.
    pub fn search_text(&self) -> String {
        let mut parts = vec![
            self.title.clone().unwrap_or_default(),
            self.agent.clone().unwrap_or_default(),
        ];
        for question in self.request.questions() {
            parts.push(question.header.clone().unwrap_or_default());
            parts.push(question.question.clone());
        }
        parts.join("\n").to_lowercase()
    }

    /// Where the ask is in its life.
    pub fn status(&self) -> AskStatus {
        self.end
            .as_ref()
            .map_or(AskStatus::Pending, |end| end.outcome.status())
    }

    /// Whether the ask is still pending and its time is up at `now`.
    pub fn is_due(&self, now: i64) -> bool {
        self.end.is_none() && self.expires_at.is_some_and(|at| at <= now)
    }

    /// How the ask ends when its time runs out: with the agent's default
    /// answers if it gave any, else unanswered.
    pub fn expiry(&self) -> Outcome {
        match &self.defaults {
            Some(defaults) => Outcome::Defaulted(defaults.clone()),
            None => Outcome::Expired,
        }
    }

    /// The list entry of this ask; its page is at `url`.
    pub fn summary(&self, url: String) -> AskSummary {
        Entry {
            id: self.id.clone(),
            title: self.title.clone(),
            agent: self.agent.clone(),
            status: self.status(),
            created_at: self.created_at,
            expires_at: self.expires_at,
            question_count: self.request.questions().len(),
            to: self.to.clone(),
            listens: self.session.is_some(),
            asked_by: self.asked_by.clone(),
        }
        .summary(url)
    }

    /// The API's view of this ask; its page is at `url`.
    pub fn view(&self, url: String) -> Ask {
        let end = self.end.as_ref();
        Ask {
            url,
            id: self.id.to_string(),
            status: self.status(),
            title: self.title.clone(),
            agent: self.agent.clone(),
            request: self.request.clone(),
            created_at: Timestamp::from_ms(self.created_at),
            expires_at: self.expires_at.map(Timestamp::from_ms),
            finished_at: end.map(|e| Timestamp::from_ms(e.at)),
            // A person's answers, or the defaults that applied instead;
            // `defaulted` tells which.
            answers: end
                .and_then(|e| e.outcome.answers().or(e.outcome.defaults()))
                .map(|a| a.items().to_vec()),
            default_answers: self.defaults.as_ref().map(|d| d.items().to_vec()),
            defaulted: end.is_some_and(|e| e.outcome.defaults().is_some()),
            decline_reason: end.and_then(|e| e.outcome.reason()).map(str::to_owned),
            projection: end.map(|e| e.projection.clone()),
            answered_by: end
                .and_then(|e| e.finisher.as_ref())
                .and_then(|f| f.by.clone()),
            relayed_by: end
                .and_then(|e| e.finisher.as_ref())
                .and_then(|f| f.relayed_by.clone()),
            via: end.and_then(|e| e.finisher.as_ref()).map(|f| f.via),
            to: self.to.clone(),
            session: self.session.clone(),
            listens: self.session.is_some(),
            asked_by: self.asked_by.name().map(str::to_owned),
        }
    }
}

/// One line of a list: what a summary needs, without the questions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The ask's id.
    pub id: AskId,
    /// What it is about.
    pub title: Option<String>,
    /// Who asked.
    pub agent: Option<String>,
    /// Where it is in its life.
    pub status: AskStatus,
    /// When it was made, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// When it expires, if it has a timeout.
    pub expires_at: Option<i64>,
    /// How many questions it has.
    pub question_count: usize,
    /// The people it is for (empty: anyone).
    pub to: Vec<String>,
    /// Whether its agent reads messages to its session.
    pub listens: bool,
    /// Whose credential made it.
    pub asked_by: AskedBy,
}

impl Entry {
    /// The API's list line of this ask; its page is at `url`.
    pub fn summary(self, url: String) -> AskSummary {
        AskSummary {
            url,
            id: self.id.to_string(),
            title: self.title,
            agent: self.agent,
            status: self.status,
            created_at: Timestamp::from_ms(self.created_at),
            expires_at: self.expires_at.map(Timestamp::from_ms),
            question_count: self.question_count,
            to: self.to,
            listens: self.listens,
            asked_by: self.asked_by.name().map(str::to_owned),
        }
    }
}

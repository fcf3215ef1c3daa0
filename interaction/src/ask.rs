//! Asks: a request put to a human, with who asked, until when, and how it
//! ended. These are the wire types of the HTTP API, shared by the server,
//! the browser, the terminal UI and agent tools, so each decodes what the
//! other encodes.

use crate::{
    model::{AnswerItem, Answers, Question, Request},
    problem::{Problem, ProblemCode, Problems},
    projection::ToolOutput,
    time::Timestamp,
    validate::{control_problem, too_long, trimmed, ValidAnswers, ValidRequest},
};
use serde::{Deserialize, Serialize};

/// The longest title an ask may have, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// The longest name of an asking agent, in characters.
pub const MAX_AGENT_CHARS: usize = 100;
/// The longest an ask may wait for its answer: seven days.
pub const MAX_TIMEOUT_SECONDS: u64 = 7 * 24 * 60 * 60;

/// Where an ask is in its life. It leaves `pending` once, for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AskStatus {
    /// Waiting for the human.
    Pending,
    /// The human answered every question.
    Answered,
    /// The human chose not to answer.
    Declined,
    /// The agent withdrew the ask.
    Cancelled,
    /// Nobody answered in time.
    Expired,
}

impl AskStatus {
    /// Every status, in life order.
    pub const ALL: [Self; 5] = [
        Self::Pending,
        Self::Answered,
        Self::Declined,
        Self::Cancelled,
        Self::Expired,
    ];

    /// The status as it appears in JSON and URLs, e.g. `pending`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Answered => "answered",
            Self::Declined => "declined",
            Self::Cancelled => "cancelled",
            Self::Expired => "expired",
        }
    }

    /// Reads a status from its [`as_str`](Self::as_str) form.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == s)
    }

    /// Whether the ask has ended.
    pub fn is_finished(self) -> bool {
        self != Self::Pending
    }
}

/// The body of `POST /api/v1/asks`: a request plus who asks and until when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewAsk {
    /// The questions, as in [`Request`].
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = crate::MAX_QUESTIONS)))]
    pub questions: Vec<Question>,
    /// What the agent was doing when it asked (its last message, say),
    /// shown above the questions, as in [`Request`]; blank counts as none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_CONTEXT_CHARS), pattern(crate::schema::TEXT)))]
    pub context: Option<String>,
    /// A line saying what the ask is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_TITLE_CHARS), pattern(crate::schema::TEXT)))]
    pub title: Option<String>,
    /// Who asks, e.g. `claude-code (repo askdesk)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = crate::MAX_AGENT_CHARS), pattern(crate::schema::TEXT)))]
    pub agent: Option<String>,
    /// After how many seconds a pending ask expires; none means it waits
    /// until the human acts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = crate::MAX_TIMEOUT_SECONDS)))]
    pub timeout_seconds: Option<u64>,
    /// The people the ask is for, by name: the desk shows it to them first,
    /// and with sign-in required to answer, only they (or an admin) may.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(with = "std::collections::BTreeSet<String>", length(max = crate::MAX_RECIPIENTS), inner(pattern(crate::schema::PERSON))))]
    pub to: Vec<String>,
    /// What the agent goes on with if nobody answers before the ask
    /// expires: answers to every question, checked as answers are. Shown
    /// to the people asked while it waits; it needs `timeout_seconds`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_answers: Option<Vec<AnswerItem>>,
    /// The agent's running session, when it reads what the person writes
    /// to it (`askdesk mcp` under Claude Code's channel sets it): the
    /// ask's page and the desk then offer to write to it, and the session
    /// reads the messages at `GET /api/v1/sessions/{session}/messages`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(pattern(crate::schema::QUESTION_ID)))]
    pub session: Option<String>,
}

/// A [`NewAsk`] that passed validation: blank title and agent are dropped,
/// the others trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidNewAsk {
    /// The validated request.
    pub request: ValidRequest,
    /// The trimmed title, if it has one.
    pub title: Option<String>,
    /// The trimmed agent name, if it has one.
    pub agent: Option<String>,
    /// The timeout in seconds, between 1 and [`MAX_TIMEOUT_SECONDS`].
    pub timeout_seconds: Option<u64>,
    /// The people it is for: well-formed names, each once (whether the desk
    /// has them is the desk's to check).
    pub to: Vec<String>,
    /// The answers that apply if it expires unanswered, in canonical form;
    /// only an ask with a timeout has them.
    pub default_answers: Option<ValidAnswers>,
    /// The agent's session that reads the person's messages, if it does.
    pub session: Option<String>,
}

impl NewAsk {
    /// An ask of `questions` by `agent`, titled `title`, and nothing else:
    /// no context, no timeout, for anyone. What the agents' doors put when
    /// another product asks.
    pub fn by(agent: String, title: String, questions: Vec<Question>) -> Self {
        Self {
            questions,
            context: None,
            title: Some(title),
            agent: Some(agent),
            timeout_seconds: None,
            to: Vec::new(),
            default_answers: None,
            session: None,
        }
    }

    /// Checks the request and the ask's own fields, reporting every problem
    /// at once.
    pub fn validate(self) -> Result<ValidNewAsk, Problems> {
        let title = trimmed(self.title);
        let agent = trimmed(self.agent);
        let mut problems = Vec::new();
        let request = ValidRequest::new(Request {
            questions: self.questions,
            context: trimmed(self.context),
        })
        .map_err(|p| problems.extend(p.0));
        problems.extend(too_long(
            &title,
            MAX_TITLE_CHARS,
            "title",
            ProblemCode::TitleTooLong,
            "the title",
        ));
        problems.extend(too_long(
            &agent,
            MAX_AGENT_CHARS,
            "agent",
            ProblemCode::AgentTooLong,
            "the agent name",
        ));
        for (path, text) in [("title", &title), ("agent", &agent)] {
            if let Some(text) = text {
                problems.extend(control_problem(|| path.to_owned(), text));
            }
        }
        if let Some(seconds) = self.timeout_seconds {
            if !(1..=MAX_TIMEOUT_SECONDS).contains(&seconds) {
                problems.push(Problem::new(
                    "timeoutSeconds",
                    ProblemCode::TimeoutOutOfRange,
                    format!(
                        "the timeout is {seconds} seconds; it must be between 1 and \
                         {MAX_TIMEOUT_SECONDS} (7 days), or left out to wait until the human acts"
                    ),
                ));
            }
        }
        problems.extend(crate::people::check_recipients(&self.to));
        problems.extend(
            self.session
                .as_deref()
                .and_then(crate::message::session_problem),
        );
        let mut default_answers = None;
        if let Some(items) = self.default_answers {
            if self.timeout_seconds.is_none() {
                problems.push(Problem::new(
                    "defaultAnswers",
                    ProblemCode::DefaultsWithoutTimeout,
                    "default answers apply only when an ask expires, and this ask has no \
                     timeoutSeconds; give it one, or leave defaultAnswers out"
                        .to_owned(),
                ));
            }
            // Checked as a person's answers are, by the one validator; with
            // a broken request there is nothing to check them against.
            if let Ok(request) = &request {
                match request.validate_answers(Answers { answers: items }) {
                    Ok(valid) => default_answers = Some(valid),
                    Err(found) => problems.extend(found.0.into_iter().map(under_defaults)),
                }
            }
        }
        match request {
            Ok(request) if problems.is_empty() => Ok(ValidNewAsk {
                request,
                title,
                agent,
                timeout_seconds: self.timeout_seconds,
                to: self.to,
                default_answers,
                session: self.session,
            }),
            _ => Err(Problems(problems)),
        }
    }
}

/// A problem of answers (`answers[1].selected[0]`) as a problem of an
/// ask's default answers (`defaultAnswers[1].selected[0]`).
fn under_defaults(mut problem: Problem) -> Problem {
    let rest = problem
        .path
        .strip_prefix("answers")
        .unwrap_or(&problem.path);
    problem.path = format!("defaultAnswers{rest}");
    problem
}

/// The reply to `POST /api/v1/asks`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AskCreated {
    /// The ask's id: unguessable, so its page URL is the capability to answer.
    #[cfg_attr(feature = "schema", schemars(pattern(crate::schema::ASK_ID)))]
    pub id: String,
    /// Where the human answers.
    #[cfg_attr(feature = "schema", schemars(url))]
    pub url: String,
    /// Always `pending`.
    pub status: AskStatus,
    /// When the ask was made, RFC 3339 in UTC.
    pub created_at: Timestamp,
    /// When it expires, if it has a timeout.
    pub expires_at: Option<Timestamp>,
}

/// Everything about one ask: `GET /api/v1/asks/{id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Ask {
    /// The ask's id.
    #[cfg_attr(feature = "schema", schemars(pattern(crate::schema::ASK_ID)))]
    pub id: String,
    /// Where the human answers.
    #[cfg_attr(feature = "schema", schemars(url))]
    pub url: String,
    /// Where it is in its life.
    pub status: AskStatus,
    /// What it is about.
    pub title: Option<String>,
    /// Who asked.
    pub agent: Option<String>,
    /// The questions, as validated when the ask was made (and again
    /// when one is decoded).
    #[cfg_attr(feature = "schema", schemars(with = "crate::Request"))]
    pub request: ValidRequest,
    /// When it was made, RFC 3339 in UTC.
    pub created_at: Timestamp,
    /// When it expires (or expired), if it has a timeout.
    pub expires_at: Option<Timestamp>,
    /// When it left `pending`.
    pub finished_at: Option<Timestamp>,
    /// The human's answers, in canonical form, once answered; or, when
    /// `defaulted`, the agent's default answers, which no person chose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<Vec<AnswerItem>>,
    /// What the agent goes on with if nobody answers before the ask
    /// expires, as it gave them; absent when it gave none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_answers: Option<Vec<AnswerItem>>,
    /// Whether the ask expired unanswered and its `answers` are the
    /// agent's defaults; absent (false) otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "schema", schemars(extend("const" = true)))]
    pub defaulted: bool,
    /// What the human said when declining.
    pub decline_reason: Option<String>,
    /// What the agent's model reads, once the ask has finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projection: Option<ToolOutput>,
    /// Who finished it: a person's name; `null` while pending, when it
    /// expired, or when it was finished by its link, an action token, the
    /// shared token or inside an agent's host.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(pattern(crate::schema::PERSON)))]
    pub answered_by: Option<String>,
    /// The agent whose client carried an answer a person gave inside the
    /// agent's host (`via` `mcp-client` or `mcp-app`); absent otherwise.
    /// No person of the desk is named for such an answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(pattern(crate::schema::PERSON)))]
    pub relayed_by: Option<String>,
    /// The surface it was finished through; `null` while pending or when
    /// it expired.
    #[serde(default)]
    pub via: Option<crate::people::Via>,
    /// The people it is for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(with = "std::collections::BTreeSet<String>", length(max = crate::MAX_RECIPIENTS), inner(pattern(crate::schema::PERSON))))]
    pub to: Vec<String>,
    /// The agent's session that reads the person's messages, if it does;
    /// shown only to the agent that asked and to admins (a person sees
    /// `listens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(pattern(crate::schema::QUESTION_ID)))]
    pub session: Option<String>,
    /// Whether the agent that asked reads what people write to its
    /// session: `POST /api/v1/asks/{id}/messages` writes to it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub listens: bool,
    /// The agent (or admin) whose token made the ask; absent on a desk
    /// without people, and for asks made before askdesk recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(pattern(crate::schema::PERSON)))]
    pub asked_by: Option<String>,
}

/// Every error reply of the HTTP API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// What went wrong and what to do about it.
    pub message: String,
    /// With `422`: every problem of the input.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub problems: Vec<Problem>,
    /// With `409` and `410`: the ask as it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask: Option<Box<Ask>>,
}

//! `ask_user` as a task (the `io.modelcontextprotocol/tasks` extension of
//! MCP 2026-07-28): to a client that declares the extension, `ask_user`
//! answers with a task handle at once, and the client polls `tasks/get`,
//! sends the form's reply with `tasks/update` and withdraws the ask with
//! `tasks/cancel`.
//!
//! A task is its ask: the task id is the ask's id (and whether the form is
//! shown in the client), and its status is read from the desk on every
//! `tasks/get`, so tasks outlive restarts and any instance answers for
//! them. Only why the client's last reply was refused is kept beside it:
//! in the shared database on PostgreSQL, in the process otherwise.

use super::{elicit, elicit::Form, replies};
use interaction::{Ask, AskCreated, AskStatus, Timestamp};
use rmcp::model::{DetailedTask, InputRequest, InputRequests, Task, TaskPayload};
use serde::{Deserialize, Serialize};

/// What a task's id says after its ask's id when the form is shown in the
/// client.
const IN_CLIENT: &str = ".client";

/// How often a client should poll a task that is still open.
const POLL_INTERVAL_MS: u64 = 2_000;

/// What the id of an ask's task names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskId {
    /// The ask.
    pub ask: String,
    /// Whether the person may answer in the client's form.
    pub in_client: bool,
}

impl TaskId {
    /// The task id as the client uses it.
    pub fn encode(&self) -> String {
        let suffix = if self.in_client { IN_CLIENT } else { "" };
        format!("{}{suffix}", self.ask)
    }

    /// A task id askdesk gave; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let (ask, in_client) = match text.strip_suffix(IN_CLIENT) {
            Some(ask) => (ask, true),
            None => (text, false),
        };
        let ask = desk::AskId::parse(ask)?;
        Some(Self {
            ask: ask.as_str().to_owned(),
            in_client,
        })
    }
}

/// Why the client's reply to a task's form was last refused, and how many
/// replies were: the form asks again under a key of its own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// Replies refused so far.
    pub refused: usize,
    /// Why the last one was.
    pub why: String,
    /// The person dismissed the form: the ask is left to the desk.
    #[serde(default)]
    pub dismissed: bool,
}

impl Note {
    /// Whether the client is (still) asked: not dismissed, and not refused
    /// more often than a client is asked again.
    pub fn asks(&self) -> bool {
        !self.dismissed && self.refused < elicit::ATTEMPTS
    }

    /// The note after a reply was refused for `why`.
    pub fn after_refusal(&self, why: String) -> Self {
        Self {
            refused: self.refused + 1,
            why,
            dismissed: false,
        }
    }

    /// The note after the person dismissed the form.
    pub fn after_dismissal(&self) -> Self {
        Self {
            dismissed: true,
            ..self.clone()
        }
    }

    /// The key the form is shown under now: a new one after each refusal,
    /// as keys are not used again once answered.
    pub fn key(&self) -> String {
        match self.refused {
            0 => super::rounds::KEY.to_owned(),
            n => format!("{}-{}", super::rounds::KEY, n + 1),
        }
    }
}

/// Where the notes are kept, by ask.
pub type Notes = super::kept::Keeper<Note>;

impl super::kept::Kept for Note {
    const ROW: &'static str = "askdesk-task-note:";
    const WHAT: &'static str = "a task's note";
}

/// The task of an ask just made: what `ask_user` answers with.
pub fn created(ask: &AskCreated, id: &TaskId) -> Task {
    seed(id, &ask.url, ask.created_at, ask.created_at, ask.expires_at)
}

/// The task of `ask` as it stands.
pub fn task(ask: &Ask, id: &TaskId) -> Task {
    let updated = ask.finished_at.unwrap_or(ask.created_at);
    seed(id, &ask.url, ask.created_at, updated, ask.expires_at)
}

fn seed(
    id: &TaskId,
    url: &str,
    created: Timestamp,
    updated: Timestamp,
    expires: Option<Timestamp>,
) -> Task {
    let mut task = Task::new(
        id.encode(),
        rmcp::model::TaskStatus::Working,
        created.to_string(),
        updated.to_string(),
    )
    .with_poll_interval_ms(POLL_INTERVAL_MS)
    .with_status_message(format!("Waiting for the human to answer at {url}"));
    if let Some(expires) = expires {
        let ttl = expires.ms().saturating_sub(created.ms());
        task = task.with_ttl_ms(u64::try_from(ttl).unwrap_or(0));
    }
    task
}

/// The task of `ask` with what its status carries: the form when the
/// person may answer in the client, `ask_user`'s own result once it ended.
pub fn detailed(ask: &Ask, id: &TaskId, note: &Note, offers_form: bool) -> DetailedTask {
    let task = task(ask, id);
    if ask.status != AskStatus::Pending {
        let result = serde_json::to_value(replies::finished(ask.clone()))
            .ok()
            .and_then(|v| v.as_object().cloned())
            .unwrap_or_default();
        return DetailedTask::new(task, TaskPayload::Completed { result });
    }
    let form = (id.in_client && offers_form && note.asks())
        .then(|| Form::new(&ask.request))
        .flatten();
    let Some(form) = form else {
        return DetailedTask::new(task, TaskPayload::Working);
    };
    let mut message = replies::form_message(ask.title.as_deref(), &ask.url);
    if note.refused > 0 {
        message = elicit::again(&message, &note.why);
    }
    let request = InputRequest::Elicitation(form.request(message));
    let input_requests = InputRequests::from([(note.key(), request)]);
    DetailedTask::new(task, TaskPayload::InputRequired { input_requests })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn task_ids_name_the_ask_and_where_it_is_answered() {
        for in_client in [false, true] {
            let id = TaskId {
                ask: ID.to_owned(),
                in_client,
            };
            assert_eq!(TaskId::parse(&id.encode()), Some(id));
        }
        assert_eq!(
            TaskId::parse(&format!("{ID}.client")).map(|t| t.in_client),
            Some(true)
        );
        for text in [
            "",
            "0123",
            &format!("{ID}.desk"),
            &format!("{ID}.client.client"),
        ] {
            assert_eq!(TaskId::parse(text), None, "{text}");
        }
    }

    #[test]
    fn each_refusal_asks_under_a_key_of_its_own() {
        let keys: Vec<String> = (0..3)
            .map(|refused| {
                Note {
                    refused,
                    ..Note::default()
                }
                .key()
            })
            .collect();
        assert_eq!(keys, ["answer", "answer-2", "answer-3"]);
    }
}

//! The answering form's state as one value, and its transitions as plain
//! methods: what the form shows is derived from it, and the tests below
//! drive it without a browser.

use crate::{error::ServerError, form::Posted};
use interaction::{Answers, Ask, BatchDraft, Blocker, Problem, QuestionDraft, ValidRequest};

/// Everything the answering form of one pending ask holds.
#[derive(Debug, Clone, PartialEq)]
pub struct FormState {
    ask_id: String,
    batch: BatchDraft,
    reason: String,
    problems: Vec<Problem>,
    stage: Stage,
}

/// Where answering stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Stage {
    /// The human is answering. `failure` says why the last send did not
    /// get through, if it did not.
    Open {
        /// The error of the last send.
        failure: Option<ServerError>,
    },
    /// An answer or a decline is on its way; nothing else is sent meanwhile.
    Sending,
    /// The ask has ended; the form is gone. (Boxed: an ask is large, and
    /// the other stages are small.)
    Ended(Box<Ended>),
}

/// How the ask ended, as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Ended {
    /// The ask as it ended.
    pub ask: Ask,
    /// It ended elsewhere (withdrawn, expired, answered in another tab)
    /// before this page's answer arrived.
    pub late: bool,
    /// What the human had typed then, kept to copy rather than lost.
    pub unsent: Vec<Unsent>,
}

/// What the form sends to the server.
#[derive(Debug, Clone, PartialEq)]
pub enum Outgoing {
    /// The answers, for the server function `answer_ask`.
    Answer(Answers),
    /// The reason, for the server function `decline_ask`.
    Decline(String),
}

/// Text typed for one question that was never sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsent {
    /// The question's position in the request.
    pub index: usize,
    /// The text.
    pub text: String,
}

impl FormState {
    /// A fresh form for the ask `ask_id` over `request`, holding a refused
    /// form post (its fields, reason and problems) when there is one.
    pub fn new(ask_id: &str, request: &ValidRequest, posted: Option<&Posted>) -> Self {
        let mut batch = BatchDraft::new(request);
        if let Some(posted) = posted {
            posted.apply(&mut batch);
        }
        Self {
            ask_id: ask_id.to_owned(),
            batch,
            reason: posted.map(|p| p.reason.clone()).unwrap_or_default(),
            problems: posted.map(|p| p.problems.clone()).unwrap_or_default(),
            stage: Stage::Open { failure: None },
        }
    }

    /// The ask's id.
    pub fn ask_id(&self) -> &str {
        &self.ask_id
    }

    /// The answers in progress.
    pub fn batch(&self) -> &BatchDraft {
        &self.batch
    }

    /// Changes the draft of question `index` through its own operations.
    pub fn edit(&mut self, index: usize, change: impl FnOnce(&mut QuestionDraft)) {
        if let Some(draft) = self.batch.draft_mut(index) {
            change(draft);
        }
    }

    /// Takes what the form's inputs hold when the island wakes (`found`,
    /// as the form would post them) over what the server rendered into
    /// them, and a draft saved on an earlier visit (`saved`) where the
    /// inputs hold what the server rendered: a person who checked, chose
    /// or typed before the script arrived loses nothing, and a reload gets
    /// its draft back. Each question goes whole, so on multi-select labels
    /// and Other text stay together whichever came first, and the draft's
    /// rules decide the rest. The ask island calls it right after it has
    /// hydrated the form the server rendered from this state.
    pub fn adopt(&mut self, found: Option<&Posted>, saved: Option<&Posted>) {
        let rendered = self.rendered();
        for rendered_question in &rendered.questions {
            let id = &rendered_question.id;
            let changed = found
                .and_then(|found| found.question(id))
                .filter(|found| *found != rendered_question);
            let take = changed.or_else(|| saved.and_then(|saved| saved.question(id)));
            if let (Some(posted), Some(draft)) = (take, self.batch.draft_by_id_mut(id)) {
                posted.put(draft);
            }
        }
        if let Some(found) = found.filter(|found| found.reason != rendered.reason) {
            self.reason.clone_from(&found.reason);
        }
    }

    /// What the form's inputs hold as the server rendered them from this
    /// state.
    fn rendered(&self) -> Posted {
        Posted {
            reason: self.reason.clone(),
            ..self.saved()
        }
    }

    /// The draft as it is kept across reloads.
    pub fn saved(&self) -> Posted {
        Posted::of_draft(&self.ask_id, &self.batch)
    }

    /// The decline reason typed so far.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// Replaces the decline reason.
    pub fn set_reason(&mut self, reason: String) {
        self.reason = reason;
    }

    /// The questions that cannot be submitted yet, and why.
    pub fn blockers(&self) -> Vec<Blocker> {
        self.batch.blockers()
    }

    /// The problems the server reported for the question `question_id`,
    /// or (with `None`) for no single question.
    pub fn problems_of<'a>(
        &'a self,
        question_id: Option<&'a str>,
    ) -> impl Iterator<Item = &'a Problem> + 'a {
        self.problems
            .iter()
            .filter(move |p| p.question_id.as_deref() == question_id)
    }

    /// Whether the server refused the last answer.
    pub fn refused(&self) -> bool {
        !self.problems.is_empty()
    }

    /// Whether a send is on its way.
    pub fn is_sending(&self) -> bool {
        self.stage == Stage::Sending
    }

    /// Why the last send did not get through.
    pub fn failure(&self) -> Option<&ServerError> {
        match &self.stage {
            Stage::Open { failure } => failure.as_ref(),
            _ => None,
        }
    }

    /// How the ask ended, once it has.
    pub fn ended(&self) -> Option<&Ended> {
        match &self.stage {
            Stage::Ended(ended) => Some(ended.as_ref()),
            _ => None,
        }
    }

    /// Starts sending the answers, if every question is ready and nothing
    /// else is on its way; what to send.
    pub fn begin_answer(&mut self) -> Option<Outgoing> {
        let ready = self.blockers().is_empty();
        (ready && self.begin()).then(|| Outgoing::Answer(self.batch.answers()))
    }

    /// Starts sending a decline, if nothing else is on its way; what to
    /// send.
    pub fn begin_decline(&mut self) -> Option<Outgoing> {
        self.begin().then(|| Outgoing::Decline(self.reason.clone()))
    }

    fn begin(&mut self) -> bool {
        let open = matches!(self.stage, Stage::Open { .. });
        if open {
            self.stage = Stage::Sending;
        }
        open
    }

    /// Takes the server's reply to a send.
    pub fn settle(&mut self, result: Result<Ask, ServerError>) {
        self.stage = match result {
            Ok(ask) => Stage::Ended(Box::new(Ended {
                ask,
                late: false,
                unsent: Vec::new(),
            })),
            Err(ServerError::Finished(ask)) => Stage::Ended(Box::new(Ended {
                ask: *ask,
                late: true,
                unsent: Vec::new(),
            })),
            Err(ServerError::Invalid(problems)) => {
                self.problems = problems.0;
                Stage::Open { failure: None }
            }
            Err(e) => Stage::Open { failure: Some(e) },
        };
    }

    /// Takes news that the ask ended elsewhere while the human was
    /// answering: the form gives way to the outcome and keeps what was
    /// typed. A send on its way learns the same from its own reply.
    pub fn end_elsewhere(&mut self, ask: Ask) {
        if !ask.status.is_finished() || !matches!(self.stage, Stage::Open { .. }) {
            return;
        }
        let unsent = self
            .batch
            .drafts()
            .iter()
            .enumerate()
            .filter(|(_, d)| !d.custom().trim().is_empty())
            .map(|(index, d)| Unsent {
                index,
                text: d.custom().to_owned(),
            })
            .collect();
        self.stage = Stage::Ended(Box::new(Ended {
            ask,
            late: true,
            unsent,
        }));
    }
}

#[cfg(test)]
mod tests;

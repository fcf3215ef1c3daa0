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

    /// Puts a saved draft back, as if typed again.
    pub fn restore(&mut self, saved: &Posted) {
        saved.apply(&mut self.batch);
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
mod tests {
    use super::*;
    use crate::form::{tests::request, PostedQuestion};
    use interaction::{AskStatus, Problems};

    fn ask(status: AskStatus) -> Ask {
        Ask {
            id: "x".to_owned(),
            url: String::new(),
            status,
            title: None,
            agent: None,
            request: request(),
            created_at: interaction::Timestamp::from_ms(0),
            expires_at: None,
            finished_at: None,
            answers: None,
            default_answers: None,
            defaulted: false,
            decline_reason: None,
            projection: None,
            answered_by: None,
            relayed_by: None,
            via: None,
            to: Vec::new(),
        }
    }

    fn answered() -> FormState {
        let mut form = FormState::new("x", &request(), None);
        form.edit(0, |d| d.set_checked(0, true));
        form.edit(1, |d| d.set_checked(1, true));
        form.edit(2, |d| d.set_custom("none".to_owned()));
        form
    }

    #[test]
    fn answers_are_sent_only_once_every_question_is_ready() {
        let mut form = FormState::new("x", &request(), None);
        form.edit(0, |d| d.set_checked(1, true));
        form.edit(1, |d| d.set_checked(0, true));
        assert_eq!(form.blockers().len(), 1);
        assert_eq!(form.begin_answer(), None);
        assert!(!form.is_sending());
        form.edit(2, |d| d.set_custom("none".to_owned()));
        let Some(Outgoing::Answer(answers)) = form.begin_answer() else {
            panic!("ready, so the answers go");
        };
        assert_eq!(answers.answers[0].selected, ["PostgreSQL"]);
        assert!(form.is_sending());
        // A second click while sending sends nothing.
        assert_eq!(form.begin_answer(), None);
        assert_eq!(form.begin_decline(), None);
    }

    #[test]
    fn a_refusal_shows_the_problems_by_question_and_reopens_the_form() {
        let mut form = answered();
        form.begin_answer().expect("ready");
        let problems: Problems = request()
            .validate_answers(Answers { answers: vec![] })
            .expect_err("refused");
        form.settle(Err(ServerError::Invalid(problems)));
        assert!(form.refused());
        assert_eq!(form.problems_of(Some("db")).count(), 1);
        assert_eq!(form.problems_of(None).count(), 0);
        assert_eq!(form.failure(), None);
        assert!(form.begin_answer().is_some());
    }

    #[test]
    fn a_failed_send_keeps_the_draft_and_says_why() {
        let mut form = answered();
        form.begin_decline().expect("open");
        form.settle(Err(ServerError::Internal));
        assert_eq!(form.failure(), Some(&ServerError::Internal));
        assert!(form.blockers().is_empty());
        form.begin_answer().expect("ready again");
        assert_eq!(form.failure(), None);
    }

    #[test]
    fn an_answer_that_arrives_ends_the_form() {
        let mut form = answered();
        form.begin_answer().expect("ready");
        form.settle(Ok(ask(AskStatus::Answered)));
        let ended = form.ended().expect("ended");
        assert!(!ended.late);
        assert_eq!(ended.ask.status, AskStatus::Answered);
    }

    #[test]
    fn an_answer_too_late_shows_how_the_ask_ended() {
        let mut form = answered();
        form.begin_answer().expect("ready");
        form.settle(Err(ServerError::Finished(Box::new(ask(
            AskStatus::Expired,
        )))));
        let ended = form.ended().expect("ended");
        assert!(ended.late);
        assert_eq!(ended.ask.status, AskStatus::Expired);
    }

    #[test]
    fn an_ask_withdrawn_while_typing_keeps_the_typed_text() {
        let mut form = answered();
        form.end_elsewhere(ask(AskStatus::Pending));
        assert_eq!(form.ended(), None);
        form.end_elsewhere(ask(AskStatus::Cancelled));
        let ended = form.ended().expect("ended");
        assert!(ended.late);
        assert_eq!(
            ended.unsent,
            [Unsent {
                index: 2,
                text: "none".to_owned()
            }]
        );
    }

    #[test]
    fn news_of_an_end_waits_for_a_send_on_its_way() {
        let mut form = answered();
        form.begin_answer().expect("ready");
        form.end_elsewhere(ask(AskStatus::Cancelled));
        assert!(form.is_sending());
    }

    #[test]
    fn a_refused_post_comes_back_with_its_fields_reason_and_problems() {
        let posted = Posted {
            ask_id: "x".to_owned(),
            questions: vec![PostedQuestion {
                id: "db".to_owned(),
                selected: vec!["SQLite".to_owned()],
                custom: String::new(),
            }],
            reason: "later".to_owned(),
            problems: request()
                .validate_answers(Answers { answers: vec![] })
                .expect_err("refused")
                .0,
        };
        let form = FormState::new("x", &request(), Some(&posted));
        assert_eq!(form.reason(), "later");
        assert!(form.refused());
        assert!(form.batch().drafts()[0].is_checked(0));
    }

    #[test]
    fn a_saved_draft_restores_what_was_typed() {
        let saved = answered().saved();
        let mut form = FormState::new("x", &request(), None);
        form.restore(&saved);
        assert_eq!(form.batch(), answered().batch());
    }
}

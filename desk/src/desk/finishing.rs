//! Ending asks: answering, declining and cancelling them, and expiring
//! those whose time is up; an ask ends once, in one conditional write.

use super::Desk;
use crate::{
    error::DeskError,
    id::AskId,
    outbox::Notice,
    people::{Actor, Caller, Finishing},
    record::{End, Finisher, Record},
};
use interaction::{Answers, Ask, AskStatus, Decline, Outcome, ValidRequest};

impl Desk {
    /// Ends the pending `record` with `outcome` at `at` by `finisher`
    /// (`None`: it expired): the record as it ended, or its id back when
    /// another caller ended it first.
    pub(super) async fn end(
        &self,
        mut record: Record,
        outcome: Outcome,
        at: i64,
        finisher: Option<Finisher>,
    ) -> Result<Result<Record, AskId>, DeskError> {
        let end = End::new(&record.request, outcome, at, finisher);
        let owed = self.owed(Notice::Finished).await?;
        if !self.store.finish(&record.id, &end, &owed).await? {
            return Ok(Err(record.id));
        }
        tracing::info!(id = %crate::Logged(record.id.as_str()), status = end.outcome().status().as_str(), "ask finished");
        crate::metered::ended(
            end.outcome().status(),
            end.finisher().map(|f| f.via),
            at.saturating_sub(record.created_at),
        );
        record.end = Some(end);
        self.catch_up().await;
        Ok(Ok(record))
    }

    /// Ends a pending ask with the outcome `decide` makes of its request,
    /// if `by` may, recording who and how: one read, one conditional write.
    async fn finish(
        &self,
        id: &str,
        by: &Actor,
        finishing: Finishing,
        decide: impl FnOnce(&ValidRequest) -> Result<Outcome, DeskError>,
    ) -> Result<Ask, DeskError> {
        // Another agent's ask is not found: no agent cancels it, and none
        // relays an answer to it.
        let record = self.read_for(id, &by.caller).await?;
        self.may(by, &record.to, finishing).await?;
        if record.end.is_some() {
            return Err(self.refusal(&record, &by.caller));
        }
        let outcome = decide(&record.request)?;
        let now = self.now_ms();
        match self
            .end(record, outcome, now, Some(by.finisher(finishing)))
            .await?
        {
            Ok(ended) => Ok(self.view_for(&ended, &by.caller)),
            // Someone else finished it between our read and our write.
            Err(_) => Err(self.refusal(&self.read(id).await?, &by.caller)),
        }
    }

    fn refusal(&self, record: &Record, caller: &Caller) -> DeskError {
        let ask = Box::new(self.view_for(record, caller));
        match ask.status {
            AskStatus::Cancelled | AskStatus::Expired => DeskError::Gone(ask),
            _ => DeskError::Finished(ask),
        }
    }

    /// Validates the human's answers against the stored request and ends
    /// the ask with them, if it is still pending, recording `by`.
    pub async fn answer(&self, id: &str, answers: Answers, by: &Actor) -> Result<Ask, DeskError> {
        self.answer_with(id, by, |_| answers).await
    }

    /// Like [`Desk::answer`], with answers made from the stored request by
    /// `make` (a posted form reads its fields by the request's questions):
    /// still one read and one write.
    pub async fn answer_with(
        &self,
        id: &str,
        by: &Actor,
        make: impl FnOnce(&ValidRequest) -> Answers,
    ) -> Result<Ask, DeskError> {
        self.finish(id, by, Finishing::Answer, |request| {
            request
                .validate_answers(make(request))
                .map(Outcome::Answered)
                .map_err(DeskError::Invalid)
        })
        .await
    }

    /// Ends a pending ask as declined, recording `by`.
    pub async fn decline(&self, id: &str, decline: Decline, by: &Actor) -> Result<Ask, DeskError> {
        let valid = decline.validate().map_err(DeskError::Invalid)?;
        self.finish(id, by, Finishing::Answer, |_| {
            Ok(Outcome::Declined {
                reason: valid.reason,
            })
        })
        .await
    }

    /// Ends a pending ask as cancelled: the agent gave up. Records `by`.
    /// Cancelling a cancelled ask again is what cancelling did: the ask,
    /// cancelled (an agent that retries its `DELETE` is told the same).
    pub async fn cancel(&self, id: &str, by: &Actor) -> Result<Ask, DeskError> {
        match self
            .finish(id, by, Finishing::Cancel, |_| Ok(Outcome::Cancelled))
            .await
        {
            Err(DeskError::Gone(ask)) if ask.status == AskStatus::Cancelled => Ok(*ask),
            done => done,
        }
    }

    /// Expires every pending ask whose time is up, and tells listeners.
    /// The server calls this every second, so waiting pages and agents
    /// hear of an expiry when it happens.
    pub async fn expire_due(&self) -> Result<usize, DeskError> {
        let mut expired = 0;
        for id in self.store.due(self.now_ms()).await? {
            // Reading an ask whose time is up expires it, once.
            if self.read(id.as_str()).await?.status() == AskStatus::Expired {
                expired += 1;
            }
        }
        Ok(expired)
    }
}

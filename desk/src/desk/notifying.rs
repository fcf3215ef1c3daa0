//! Notifying: which notifications each change owes (the channels,
//! reminders, escalation and browsers' pushes, which the store writes in
//! the change's own transaction), the outbox's claims and outcomes,
//! answers by action token, and the keys and subscriptions they need.

use super::Desk;
use crate::{
    action::{self, actionable},
    error::DeskError,
    id::AskId,
    outbox::{Attempt, Claimed, DeliveryRow, Notice, Owed, PushSubscription, Reminders},
    people::{Actor, Caller, LinkAnswers},
    record::Record,
};
use interaction::{Answers, Ask, AskStatus, Via};
use std::{sync::Arc, time::Duration};

impl Desk {
    /// The action tokens of an ask a notification's buttons on `via` may
    /// answer: `(label, token)` for each option, when the ask is pending
    /// with one single-select question of at most `max` options; none
    /// otherwise.
    pub fn actions(&self, ask: &Ask, max: usize, via: Via) -> Vec<(String, String)> {
        // A button is a capability like a link's: none where answering
        // needs signing in.
        if self.link_answers == LinkAnswers::Never {
            return Vec::new();
        }
        match actionable(ask.request.request()) {
            Some(question) if ask.status == AskStatus::Pending && question.options.len() <= max => {
                question
                    .options
                    .iter()
                    .map(|o| {
                        (
                            o.label.clone(),
                            self.action_key.token(via, &ask.id, &o.label),
                        )
                    })
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// Answers the ask `id` with the option `label`, as its action token
    /// `token` allows: once, through the same validation as every answer,
    /// recorded as answered through the surface the token was sent to
    /// (one of `surfaces`). A token that is not this ask's and label's, or
    /// was used already, is [`DeskError::Forbidden`]; an ask that has
    /// ended is `Finished` or `Gone` as for any answer. Nothing is stored
    /// on a refusal.
    pub async fn answer_by_action(
        &self,
        surfaces: &[Via],
        id: &str,
        label: &str,
        token: &str,
    ) -> Result<Ask, DeskError> {
        let forged = || {
            DeskError::Forbidden(
                "this action is not valid for this ask and option; open the ask's page to answer"
                    .to_owned(),
            )
        };
        let ask_id = AskId::parse(id).ok_or_else(forged)?;
        let via = self
            .action_key
            .verify(surfaces, ask_id.as_str(), label, token)
            .ok_or_else(forged)?;
        let used = action::used(token);
        if !self.store.use_action(&used, &ask_id, self.now_ms()).await? {
            return Err(DeskError::Forbidden(
                "this action was used already; open the ask's page to see how it ended".to_owned(),
            ));
        }
        let answered = self
            .answer_with(id, &Actor::new(Caller::Action, via), |request| {
                match actionable(request.request()) {
                    Some(question) => action::answers(question, label),
                    // A token is only ever made for an actionable ask.
                    None => Answers {
                        answers: Vec::new(),
                    },
                }
            })
            .await;
        if let Err(e) = &answered {
            // An ask still open (a database hiccup) lets its token be tried
            // again; one that ended keeps it spent.
            if !matches!(e, DeskError::Finished(_) | DeskError::Gone(_)) {
                if let Err(e) = self.store.unuse_action(&used).await {
                    tracing::warn!("an action token stays spent after a failed answer: {e}");
                }
            }
        }
        answered
    }

    /// The same desk telling the channels named `channels` of every ask
    /// created and finished: each change writes one outbox row per channel
    /// in its own transaction (see [`Desk::claim_deliveries`]).
    pub fn notifying(mut self, channels: Vec<String>) -> Self {
        self.channels = channels.into();
        self
    }

    /// The same desk reminding of waiting asks as `reminders` says: the
    /// reminders are written, each due at its time, with the ask's
    /// creation, and dropped when it ends first.
    pub fn reminding(mut self, reminders: Reminders) -> Self {
        self.reminders = Arc::new(reminders);
        self
    }

    /// The same desk telling browsers' push subscriptions, as the channel
    /// `name`, of every ask while at least one browser is subscribed.
    pub fn pushing(mut self, name: &str) -> Self {
        self.push_channel = Some(name.into());
        self
    }

    /// The channels to tell now: every channel, and the push channel when
    /// some browser is subscribed.
    pub(crate) async fn channels_now(&self) -> Result<Vec<&str>, DeskError> {
        let mut channels: Vec<&str> = self.channels.iter().map(String::as_str).collect();
        if let Some(push) = &self.push_channel {
            if !self.store.push_subscriptions().await?.is_empty() {
                channels.push(push);
            }
        }
        Ok(channels)
    }

    /// The notifications of `notice` owed to every channel now.
    pub(crate) async fn owed(&self, notice: Notice) -> Result<Vec<Owed>, DeskError> {
        owed_now(&self.channels_now().await?, notice)
    }

    /// What a new ask owes: its creation told to every channel, and the
    /// reminders and escalation due while it waits (none past its expiry).
    pub(crate) async fn owed_at_creation(&self, record: &Record) -> Result<Vec<Owed>, DeskError> {
        // One look at the push subscriptions for the creation and the
        // reminders alike.
        let channels = self.channels_now().await?;
        let mut owed = owed_now(&channels, Notice::Created)?;
        let lives = record
            .expires_at
            .map_or(i64::MAX, |at| at.saturating_sub(record.created_at));
        let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        let random = |e: getrandom::Error| DeskError::System(format!("no randomness: {e}"));
        if let Some(every) = self.reminders.every.filter(|d| !d.is_zero()) {
            for n in 1..=i64::from(self.reminders.max) {
                let delay = ms(every).saturating_mul(n);
                if delay >= lives {
                    break;
                }
                for channel in &channels {
                    owed.push(Owed::new(channel, Notice::Reminder, delay).map_err(random)?);
                }
            }
        }
        if let Some((channel, after)) = &self.reminders.escalate {
            if ms(*after) < lives {
                owed.push(Owed::new(channel, Notice::Reminder, ms(*after)).map_err(random)?);
            }
        }
        Ok(owed)
    }

    /// Claims at most `limit` deliveries that are due, for `lease`: see
    /// [`Outbox::claim_deliveries`](crate::outbox::Outbox::claim_deliveries).
    pub async fn claim_deliveries(
        &self,
        lease: Duration,
        limit: u32,
    ) -> Result<Vec<Claimed>, DeskError> {
        let now = self.now_ms();
        let until = now.saturating_add(i64::try_from(lease.as_millis()).unwrap_or(i64::MAX));
        Ok(self.store.claim_deliveries(now, until, limit).await?)
    }

    /// Records how an attempt at delivery `id` went.
    pub async fn record_attempt(&self, id: &str, attempt: &Attempt) -> Result<(), DeskError> {
        Ok(self
            .store
            .record_attempt(id, self.now_ms(), attempt)
            .await?)
    }

    /// Every delivery owed for the ask `id`, oldest first, as stored.
    pub async fn delivery_rows(&self, id: &str) -> Result<Vec<DeliveryRow>, DeskError> {
        let id = AskId::parse(id).ok_or(DeskError::NotFound)?;
        Ok(self.store.deliveries(&id).await?)
    }

    /// Every notification of the ask `id`, oldest first, as the API and
    /// its page show them.
    pub async fn deliveries(&self, id: &str) -> Result<Vec<interaction::Delivery>, DeskError> {
        let rows = self.delivery_rows(id).await?;
        Ok(rows.into_iter().map(DeliveryRow::view).collect())
    }

    /// Keeps a browser's push subscription: from now on it is told of asks
    /// (when the server has Web Push).
    pub async fn subscribe_push(&self, subscription: &PushSubscription) -> Result<(), DeskError> {
        Ok(self
            .store
            .add_push_subscription(subscription, self.now_ms())
            .await?)
    }

    /// Forgets the push subscription at `endpoint` (the browser left, or
    /// its push service says it is gone); whether there was one.
    pub async fn unsubscribe_push(&self, endpoint: &str) -> Result<bool, DeskError> {
        Ok(self.store.remove_push_subscription(endpoint).await?)
    }

    /// Every push subscription.
    pub async fn push_subscriptions(&self) -> Result<Vec<PushSubscription>, DeskError> {
        Ok(self.store.push_subscriptions().await?)
    }

    /// The server key `name`: the one kept in the database for every
    /// instance, or `fresh` when there was none (stored now).
    pub async fn server_key(&self, name: &str, fresh: &str) -> Result<String, DeskError> {
        Ok(self.store.server_key(name, fresh).await?)
    }
}

/// The notifications of `notice` owed to `channels` now.
fn owed_now(channels: &[&str], notice: Notice) -> Result<Vec<Owed>, DeskError> {
    channels
        .iter()
        .map(|channel| Owed::new(channel, notice, 0))
        .collect::<Result<_, _>>()
        .map_err(|e| DeskError::System(format!("no randomness: {e}")))
}

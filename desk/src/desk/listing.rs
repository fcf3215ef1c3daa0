//! Listing asks: newest first, filtered, a page at a time.

use super::Desk;
use crate::{
    error::DeskError,
    people::Caller,
    store::{Cursor, ListFilter},
};
use interaction::{AskStatus, AskSummary};

/// One page of a list of asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The asks, newest first.
    pub asks: Vec<AskSummary>,
    /// Where the next page starts, when there is one.
    pub next: Option<Cursor>,
}

/// How many asks a list returns at most.
pub const LIST_LIMIT: u32 = 500;

impl Desk {
    /// Asks with this status (all when `None`) that `caller` sees, newest
    /// first, at most [`LIST_LIMIT`].
    pub async fn list(
        &self,
        status: Option<AskStatus>,
        caller: &Caller,
    ) -> Result<Vec<AskSummary>, DeskError> {
        let filter = ListFilter {
            status,
            ..ListFilter::default()
        };
        Ok(self.search(&filter, LIST_LIMIT, caller).await?.asks)
    }

    /// One page of the asks `filter` lets through that `caller` sees (an
    /// agent, only its own), newest first: at most `limit`, and the cursor
    /// of the next page when there are more.
    pub async fn search(
        &self,
        filter: &ListFilter,
        limit: u32,
        caller: &Caller,
    ) -> Result<Page, DeskError> {
        self.expire_due().await?;
        let mut rows = self
            .store
            .list(filter, caller.only_own(), limit.saturating_add(1))
            .await?;
        let more = rows.len() > limit as usize;
        rows.truncate(limit as usize);
        let next = if more {
            rows.last().map(|(cursor, _)| *cursor)
        } else {
            None
        };
        Ok(Page {
            asks: rows.into_iter().map(|(_, e)| self.summary(e)).collect(),
            next,
        })
    }

    /// How many asks are pending and notifications owed, as the store
    /// counts them now: every instance's.
    pub async fn counts(&self) -> Result<crate::store::Counts, crate::error::DeskError> {
        Ok(self.store.counts().await?)
    }
}

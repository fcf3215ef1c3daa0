//! The front page's two lists as one value, and the one way events change
//! them, so the live desk holds a single piece of state.

use crate::rpc::HISTORY;
use interaction::{AskStatus, AskSummary};

/// The pending asks and the recent history, each newest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lists {
    /// The pending asks.
    pub pending: Vec<AskSummary>,
    /// The latest finished asks, at most [`HISTORY`].
    pub history: Vec<AskSummary>,
}

impl Lists {
    /// Puts an ask's new state into the lists: a new pending ask on top of
    /// the pending list; a finished one out of it and on top of the
    /// history. An event seen twice (a stream resumed) changes nothing more.
    pub fn apply(&mut self, ask: AskSummary) {
        self.pending.retain(|a| a.id != ask.id);
        self.history.retain(|a| a.id != ask.id);
        if ask.status == AskStatus::Pending {
            self.pending.insert(0, ask);
        } else {
            self.history.insert(0, ask);
            self.history.truncate(HISTORY);
        }
    }

    /// The pending asks with whether each is for `me`: those for `me`
    /// first, each part newest first.
    pub fn pending_for(&self, me: Option<&str>) -> Vec<(AskSummary, bool)> {
        let mine = |a: &AskSummary| me.is_some_and(|me| a.to.iter().any(|to| to == me));
        let (first, rest): (Vec<_>, Vec<_>) = self.pending.iter().partition(|a| mine(a));
        first
            .into_iter()
            .map(|a| (a.clone(), true))
            .chain(rest.into_iter().map(|a| (a.clone(), false)))
            .collect()
    }

    /// The history asks of one status (`answered`, …), or all of them.
    pub fn history_of(&self, status: Option<AskStatus>) -> Vec<AskSummary> {
        self.history
            .iter()
            .filter(|a| status.is_none_or(|s| a.status == s))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(id: &str, status: AskStatus) -> AskSummary {
        AskSummary {
            id: id.to_owned(),
            url: String::new(),
            title: None,
            agent: None,
            status,
            created_at: interaction::Timestamp::from_ms(0),
            expires_at: None,
            question_count: 1,
            to: Vec::new(),
            listens: false,
            asked_by: None,
        }
    }

    #[test]
    fn asks_for_me_come_first_and_keep_their_order() {
        let mut lists = Lists::default();
        for (id, to) in [
            ("a", vec![]),
            ("b", vec!["me"]),
            ("c", vec!["bob"]),
            ("d", vec!["bob", "me"]),
        ] {
            let mut ask = summary(id, AskStatus::Pending);
            ask.to = to.into_iter().map(str::to_owned).collect();
            lists.apply(ask);
        }
        let order = |me| {
            lists
                .pending_for(me)
                .into_iter()
                .map(|(a, mine)| (a.id, mine))
                .collect::<Vec<_>>()
        };
        let owned = |v: &[(&str, bool)]| -> Vec<(String, bool)> {
            v.iter().map(|(id, m)| ((*id).to_owned(), *m)).collect()
        };
        assert_eq!(
            order(Some("me")),
            owned(&[("d", true), ("b", true), ("c", false), ("a", false)])
        );
        assert_eq!(
            order(None),
            owned(&[("d", false), ("c", false), ("b", false), ("a", false)])
        );
    }

    fn ids(asks: &[AskSummary]) -> Vec<&str> {
        asks.iter().map(|a| a.id.as_str()).collect()
    }

    #[test]
    fn events_move_asks_between_the_lists_without_duplicates() {
        let mut lists = Lists {
            pending: vec![summary("a", AskStatus::Pending)],
            history: vec![],
        };
        lists.apply(summary("b", AskStatus::Pending));
        lists.apply(summary("b", AskStatus::Pending));
        assert_eq!(ids(&lists.pending), ["b", "a"]);
        lists.apply(summary("a", AskStatus::Answered));
        lists.apply(summary("a", AskStatus::Answered));
        assert_eq!(ids(&lists.pending), ["b"]);
        assert_eq!(ids(&lists.history), ["a"]);
    }

    #[test]
    fn the_history_keeps_only_the_newest() {
        let mut lists = Lists::default();
        for i in 0..=HISTORY {
            lists.apply(summary(&i.to_string(), AskStatus::Expired));
        }
        assert_eq!(lists.history.len(), HISTORY);
        assert_eq!(lists.history[0].id, HISTORY.to_string());
    }

    #[test]
    fn the_history_filters_by_status() {
        let mut lists = Lists::default();
        lists.apply(summary("a", AskStatus::Answered));
        lists.apply(summary("d", AskStatus::Declined));
        assert_eq!(ids(&lists.history_of(Some(AskStatus::Declined))), ["d"]);
        assert_eq!(ids(&lists.history_of(None)), ["d", "a"]);
    }
}

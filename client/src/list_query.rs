//! Which asks a list returns: the query string of `GET /api/v1/asks`.

use crate::encode;
use interaction::AskStatus;
use std::time::Duration;

/// Which asks [`Client::list`](crate::Client::list) returns, and whether it waits for a change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListQuery {
    /// Only asks with this status; all when `None`.
    pub status: Option<AskStatus>,
    /// Only asks from this agent (exactly).
    pub agent: Option<String>,
    /// Only asks whose title, agent, or a question's header or text holds
    /// this text, in any case.
    pub text: Option<String>,
    /// At most this many asks a page (the server allows 1 to 200, and
    /// sends 200 when none is asked).
    pub limit: Option<u32>,
    /// Where the page starts: a reply's [`AskList::next`](interaction::AskList::next).
    pub cursor: Option<String>,
    /// With [`wait`](Self::wait): reply once the list's version has grown
    /// past this one.
    pub after: Option<u64>,
    /// With [`after`](Self::after): how long to wait for a change.
    pub wait: Option<Duration>,
}

impl ListQuery {
    /// The pending asks, now.
    pub fn pending() -> Self {
        Self {
            status: Some(AskStatus::Pending),
            ..Self::default()
        }
    }

    /// The same query, waiting up to `wait` for the list to change after
    /// version `after`.
    pub fn changed_after(self, after: u64, wait: Duration) -> Self {
        Self {
            after: Some(after),
            wait: Some(wait),
            ..self
        }
    }

    /// The same query from the page that starts at `cursor`.
    pub fn from_cursor(self, cursor: String) -> Self {
        Self {
            cursor: Some(cursor),
            ..self
        }
    }

    pub(crate) fn query_string(&self) -> String {
        let mut parts = Vec::new();
        if let Some(status) = self.status {
            parts.push(format!("status={}", status.as_str()));
        }
        if let Some(agent) = &self.agent {
            parts.push(format!("agent={}", encode(agent)));
        }
        if let Some(text) = &self.text {
            parts.push(format!("q={}", encode(text)));
        }
        if let Some(limit) = self.limit {
            parts.push(format!("limit={limit}"));
        }
        if let Some(cursor) = &self.cursor {
            parts.push(format!("cursor={}", encode(cursor)));
        }
        if let Some(after) = self.after {
            parts.push(format!("after={after}"));
        }
        if let Some(wait) = self.wait {
            parts.push(format!("wait={}", wait.as_secs()));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("?{}", parts.join("&"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_queries_name_only_what_is_set() {
        assert_eq!(ListQuery::default().query_string(), "");
        assert_eq!(ListQuery::pending().query_string(), "?status=pending");
        assert_eq!(
            ListQuery::pending()
                .changed_after(7, Duration::from_secs(25))
                .query_string(),
            "?status=pending&after=7&wait=25"
        );
        let search = ListQuery {
            agent: Some("claude code".to_owned()),
            text: Some("50% & more".to_owned()),
            limit: Some(20),
            ..ListQuery::default()
        }
        .from_cursor("1764575778042.3".to_owned());
        assert_eq!(
            search.query_string(),
            "?agent=claude%20code&q=50%25%20%26%20more&limit=20&cursor=1764575778042%2E3"
        );
    }
}

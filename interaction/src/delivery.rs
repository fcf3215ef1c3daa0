//! Notifications of an ask as the API shows them: what each told, to
//! which channel, and whether it arrived.

use crate::time::Timestamp;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a notification tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Notice {
    /// A new ask waits for a person.
    #[serde(rename = "ask.created")]
    Created,
    /// An ask still waits (`--remind-after`).
    #[serde(rename = "ask.reminder")]
    Reminder,
    /// An ask ended: answered, declined, cancelled or expired.
    #[serde(rename = "ask.finished")]
    Finished,
}

impl Notice {
    /// Every notice.
    pub const ALL: [Self; 3] = [Self::Created, Self::Reminder, Self::Finished];

    /// The name receivers see (`X-Askdesk-Event`, `"event"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Created => "ask.created",
            Self::Reminder => "ask.reminder",
            Self::Finished => "ask.finished",
        }
    }

    /// The notice named `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|n| n.as_str() == name)
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where one notification stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum DeliveryState {
    /// Not yet taken by its receiver, perhaps retrying.
    Pending,
    /// Its receiver took it.
    Delivered,
    /// askdesk gave up on it.
    Failed,
}

impl DeliveryState {
    /// The state's name in the API (`pending`, `delivered`, `failed`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Delivered => "delivered",
            Self::Failed => "failed",
        }
    }
}

/// How one notification of an ask stands: which channel, what it told,
/// and whether it arrived. `GET /api/v1/asks/{id}` and the ask's page show
/// them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    /// The delivery id receivers de-duplicate on.
    pub id: String,
    /// The channel, named without secrets (`webhook hooks.example #1a2b3c4d`).
    pub channel: String,
    /// What it told.
    pub event: Notice,
    /// Where it stands.
    pub state: DeliveryState,
    /// Attempts so far.
    pub attempts: u32,
    /// When it was owed.
    pub created_at: Timestamp,
    /// When it was last attempted.
    pub last_attempt_at: Option<Timestamp>,
    /// Why the last attempt failed, when it did.
    pub last_error: Option<String>,
    /// When a receiver took it.
    pub delivered_at: Option<Timestamp>,
    /// When askdesk gave up on it.
    pub failed_at: Option<Timestamp>,
}

#[cfg(test)]
mod tests {
    use super::{DeliveryState, Notice};

    #[test]
    fn names_are_the_api_s() {
        for notice in Notice::ALL {
            let json = serde_json::to_string(&notice).expect("json");
            assert_eq!(json, format!("\"{notice}\""));
            assert_eq!(Notice::parse(notice.as_str()), Some(notice));
        }
        for state in [
            DeliveryState::Pending,
            DeliveryState::Delivered,
            DeliveryState::Failed,
        ] {
            let json = serde_json::to_string(&state).expect("json");
            assert_eq!(json, format!("\"{}\"", state.as_str()));
        }
        assert_eq!(Notice::parse("ask.lost"), None);
    }
}

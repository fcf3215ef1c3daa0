//! The desk: asks from pending to finished, stored durably.
//!
//! [`Desk`] is the one code path for every way in — the HTTP API, the
//! answering page's server functions, the plain form post and agent tools —
//! so an ask is validated, stored and finished the same way whoever acts on
//! it. Input is checked by the `interaction` crate and travels on as its
//! valid types into a [`Record`]; storage sits behind the [`Store`] trait,
//! with [`SqliteStore`] as the embedded default.
//!
//! `desk.rs` holds [`Desk`] itself (what it holds, how it is opened, reading
//! an ask), and every other `impl Desk` block is in `desk/`, in a file named
//! for what the desk does there: `creating`, `finishing`, `listing`,
//! `watching`, `events`, `notifying`, `people`, `links`, `retention`. The other
//! top-level modules are what the desk speaks of (records, people,
//! sessions, the outbox, retention, errors) and the [`Store`] trait, none of which
//! imports `desk` or `sql`, and `sql/` is the SQLite and PostgreSQL stores
//! with the statements and rows they share.

mod action;
mod desk;
mod error;
mod grants;
mod id;
mod messages;
pub mod metered;
mod outbox;
mod owners;
mod people;
mod record;
mod retention;
mod sessions;
mod sql;
mod store;

pub use action::actionable;
pub use desk::{
    events::{Event, KEEP_EVENTS, MAX_WAIT},
    grants::{Issued, Lifetimes, Refresh, ACCESS_PREFIX, REFRESH_PREFIX},
    listing::{Page, LIST_LIMIT},
    messages::{MESSAGES_PER_MINUTE, MESSAGE_CAP},
    watching::{EndWait, Watch},
    Clock, Desk,
};
pub use error::{DeskError, StoreError};
pub use grants::{
    Bearer, Code, CodeTaken, GrantRecord, Grants, NewToken, OAuthClient, Refreshed, Terms,
    TokenKind,
};
pub use id::{AskId, Logged};
pub use messages::Messages;
pub use outbox::{
    Attempt, Claimed, DeliveryRow, Notice, Outbox, Owed, PushSubscription, Reminders,
};
pub use owners::Owners;
pub use people::{digest, Actor, Caller, Joining, LinkAnswers, People, Person, TOKEN_PREFIX};
pub use record::{AskedBy, End, Entry, Finisher, Record};
pub use retention::{Removed, Retention};
pub use sessions::{
    Grant, Holder, LinkRefusal, LinkValid, Opened, SessionId, SessionInfo, Sessions, SignInLink,
    LINK_MS, SESSION_MS,
};
pub use sql::{
    BackupError, Change, Changes, Claim, ClaimError, Contents, PoolSettings, PostgresStore,
    SqliteStore,
};
pub use store::{Counts, Cursor, EventBounds, Keyed, ListFilter, Store};

//! Every server function of the pages, at `/rpc/…`.
//!
//! They are thin: decode, call the [`desk`] the server put in context (the
//! same code path as the HTTP API), map its errors. What only the server
//! needs sits in [`ssr`], behind `#[cfg(feature = "ssr")]`, so none of it
//! reaches the wasm bundle.

use crate::{error::ServerError, form::Posted};
use interaction::{Answers, Ask, AskSummary};
use leptos::{
    prelude::*,
    server_fn::{
        codec::{JsonEncoding, Post},
        ServerFn,
    },
};
use serde::{Deserialize, Serialize};

/// Arguments and replies as JSON in a `POST` body, so the islands can
/// send and read them with the browser's own `fetch` and JSON.
pub type Json = Post<JsonEncoding>;

/// How many finished asks the front page's history shows, and how many
/// asks a page of `/history` shows.
pub const HISTORY: usize = 50;

/// What the ask page needs to render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AskPageData {
    /// The ask.
    pub ask: Ask,
    /// Its notifications (none when the server tells no channel).
    pub deliveries: Vec<interaction::Delivery>,
    /// A plain form post the server just refused, to show again.
    pub posted: Option<Posted>,
    /// Whether this viewer may answer it (were it pending): not where the
    /// desk requires signing in and they have not, or it is for others.
    pub may_answer: bool,
    /// What people wrote on it to the agent's session, when the agent
    /// reads such messages (the ask has a `session`).
    pub messages: Vec<interaction::SessionMessage>,
    /// Why the message just written was refused, to show above its box.
    pub message_refused: Option<String>,
}

/// What the front page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeskData {
    /// The pending asks, newest first.
    pub pending: Vec<AskSummary>,
    /// The latest finished asks, newest first.
    pub history: Vec<AskSummary>,
    /// The event number the lists are current to.
    pub version: u64,
    /// Where agents reach this server, for the how-to in the empty state.
    pub public_url: String,
    /// The signed-in person's name: asks for them come first.
    pub me: Option<String>,
}

/// The paths of the server functions that anyone holding an ask's link may
/// call: the ask id they carry is the capability, so they need no token.
/// Taken from the functions' own types, so a renamed endpoint cannot fall
/// out of the server's list of public paths.
pub fn link_capability_paths() -> [&'static str; 3] {
    [
        <LoadAsk as ServerFn>::PATH,
        <AnswerAsk as ServerFn>::PATH,
        <DeclineAsk as ServerFn>::PATH,
    ]
}

/// The ask with this id and what its page shows, as the caller sees it.
#[server(prefix = "/rpc", endpoint = "ask_load", input = Json, output = Json)]
pub async fn load_ask(id: String) -> Result<AskPageData, ServerError> {
    read_ask_page(&ssr::desk()?, &ssr::caller(), &id)
        .await
        .map_err(ssr::refuse)
}

/// The ask with this id and what its page shows, as `caller` sees it: for
/// [`load_ask`], and for the server's handler of `/asks/{id}`, which reads
/// it before rendering the page.
#[cfg(feature = "ssr")]
pub async fn read_ask_page(
    desk: &desk::Desk,
    caller: &desk::Caller,
    id: &str,
) -> Result<AskPageData, desk::DeskError> {
    let ask = desk.get(id, caller).await?;
    let deliveries = desk.deliveries(&ask.id).await?;
    let may_answer = desk.may_answer(caller, &ask).await;
    let messages = match ask.listens {
        true => desk.messages_on(&ask.id).await?,
        false => Vec::new(),
    };
    Ok(AskPageData {
        ask,
        deliveries,
        posted: None,
        may_answer,
        messages,
        message_refused: None,
    })
}

/// Answers the ask; the desk validates the answers against the stored request.
#[server(prefix = "/rpc", endpoint = "ask_answer", input = Json, output = Json)]
pub async fn answer_ask(id: String, answers: Answers) -> Result<Ask, ServerError> {
    ssr::desk()?
        .answer(&id, answers, &ssr::acting(interaction::Via::Web))
        .await
        .map_err(ssr::refuse)
}

/// Declines the ask, with an optional reason for the agent.
#[server(prefix = "/rpc", endpoint = "ask_decline", input = Json, output = Json)]
pub async fn decline_ask(id: String, reason: String) -> Result<Ask, ServerError> {
    let decline = interaction::Decline {
        reason: Some(reason),
    };
    ssr::desk()?
        .decline(&id, decline, &ssr::acting(interaction::Via::Web))
        .await
        .map_err(ssr::refuse)
}

/// The pending asks and the recent history.
#[server(prefix = "/rpc", endpoint = "list_asks", input = Json, output = Json)]
pub async fn list_desk() -> Result<DeskData, ServerError> {
    use interaction::AskStatus;
    let desk = ssr::desk()?;
    let caller = ssr::caller();
    // Read the version first: anything after it comes through the stream.
    let version = desk.version();
    let pending = desk
        .list(Some(AskStatus::Pending), &caller)
        .await
        .map_err(ssr::refuse)?;
    // The newest asks of any status, finished ones kept for the history.
    let history = desk
        .list(None, &caller)
        .await
        .map_err(ssr::refuse)?
        .into_iter()
        .filter(|a| a.status != AskStatus::Pending)
        .take(HISTORY)
        .collect();
    Ok(DeskData {
        pending,
        history,
        version,
        public_url: desk.public_url().to_owned(),
        me: caller.name().map(str::to_owned),
    })
}

/// What `/history` shows: one page of the asks a search lets through.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryData {
    /// The asks, newest first, at most [`HISTORY`].
    pub asks: Vec<AskSummary>,
    /// Where the next (older) page starts, when there is one.
    pub older: Option<String>,
    /// How long finished asks are kept, when not forever.
    pub retention: Option<Retention>,
}

/// What `--keep-finished` does to the history, as `/history` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retention {
    /// Asks are removed this many seconds after they finish.
    pub keep_secs: u64,
    /// How many have been removed so far.
    pub removed: u64,
}

/// A page of every ask, newest first, with the status, agent and text the
/// search form names (empty: any) and after `cursor` (empty: from the
/// newest).
#[server(prefix = "/rpc", endpoint = "history", input = Json, output = Json)]
pub async fn search_history(
    status: String,
    agent: String,
    text: String,
    cursor: String,
) -> Result<HistoryData, ServerError> {
    let some = |v: String| Some(v.trim().to_owned()).filter(|v| !v.is_empty());
    let filter = desk::ListFilter {
        status: interaction::AskStatus::parse(&status),
        agent: some(agent),
        text: some(text),
        after: desk::Cursor::parse(&cursor),
    };
    let desk = ssr::desk()?;
    let page = desk
        .search(&filter, HISTORY as u32, &ssr::caller())
        .await
        .map_err(ssr::refuse)?;
    let retention = match desk.keep_finished() {
        Some(keep) => Some(Retention {
            keep_secs: keep.as_secs(),
            removed: desk.removed().await.map_err(ssr::refuse)?.total,
        }),
        None => None,
    };
    Ok(HistoryData {
        asks: page.asks,
        older: page.next.map(desk::Cursor::encode),
        retention,
    })
}

/// What the server functions need on the server only.
#[cfg(feature = "ssr")]
pub mod ssr {
    use crate::error::ServerError;
    use leptos::prelude::use_context;

    /// The desk the server put in the server function's context.
    pub fn desk() -> Result<desk::Desk, ServerError> {
        use_context::<desk::Desk>().ok_or_else(|| {
            tracing::error!("no desk in the server function's context");
            ServerError::Internal
        })
    }

    /// Who calls, as the server's guard found from the request's
    /// credentials: no credentials at all is the ask's link.
    pub fn caller() -> desk::Caller {
        use_context::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<desk::Caller>().cloned())
            .unwrap_or(desk::Caller::Link)
    }

    /// The caller acting through `via`.
    pub fn acting(via: interaction::Via) -> desk::Actor {
        desk::Actor::new(caller(), via)
    }

    /// Answers the call with the desk's refusal: the HTTP status the API
    /// would give ([`desk::DeskError::http_status`]) on the response, and
    /// the page's error for it.
    pub fn refuse(error: desk::DeskError) -> ServerError {
        crate::set_status(error.http_status());
        page_error(error)
    }

    /// What the page is told of a desk failure.
    pub fn page_error(error: desk::DeskError) -> ServerError {
        use desk::DeskError;
        match error {
            DeskError::Invalid(p) => ServerError::Invalid(p),
            DeskError::NotFound => ServerError::NotFound,
            DeskError::Finished(ask) | DeskError::Gone(ask) => ServerError::Finished(ask),
            DeskError::Forbidden(why) | DeskError::TooMany(why) => {
                tracing::info!("refused on a page: {why}");
                ServerError::Forbidden
            }
            // The detail is for the log; the page learns only that it
            // failed.
            e @ (DeskError::Conflict(_) | DeskError::System(_) | DeskError::Store(_)) => {
                tracing::error!("{e}");
                ServerError::Internal
            }
        }
    }
}

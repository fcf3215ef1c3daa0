//! What the tools do: `ask_user` creates an ask and follows it,
//! `await_answer` follows an existing one, `cancel_ask` withdraws one.
//! Following sends a progress notification every [`PROGRESS_EVERY`] and
//! ends when the ask ends, or when the call's `waitSeconds` are up, with the
//! ask still pending for a later `await_answer`.

use super::{
    replies::{finished, pending, read_arguments, tool_error, Reply},
    schema, AskDesk, AWAIT_ANSWER, CANCEL_ASK, PROGRESS_EVERY,
};
use desk::Caller;
use rmcp::{
    handler::server::tool::{InputResponses, RequestState},
    model::{CallToolResponse, CallToolResult, ErrorData, JsonObject, ProgressNotificationParam},
    service::RequestContext,
    tool, tool_router, RoleServer,
};
use schemars::JsonSchema;
use serde::Deserialize;
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

mod ask_user;

/// `ask_user`'s argument choosing where the person may answer.
pub const ANSWER_IN: &str = "answerIn";

/// What `askId` is, wherever a tool takes it.
const ASK_ID: &str = "The askId from an earlier result.";

/// `await_answer`'s arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AwaitInput {
    #[schemars(description = ASK_ID, pattern(r"^[0-9a-f]{32}$"))]
    ask_id: String,
    #[serde(default)]
    #[schemars(description = schema::WAIT_SECONDS, range(min = 1))]
    wait_seconds: Option<u64>,
}

/// `cancel_ask`'s arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CancelInput {
    #[schemars(description = ASK_ID, pattern(r"^[0-9a-f]{32}$"))]
    ask_id: String,
    /// Why, for the server's log.
    #[serde(default)]
    reason: Option<String>,
}

/// The tools every client is offered, each with its schemas and
/// annotations; a new tool is one more `#[tool]` fn here (or in a file of
/// its own, delegated to as `ask_user` is).
#[tool_router(router = tool_router, vis = "pub(super)")]
impl AskDesk {
    #[tool(
        title = "Ask the user",
        description = schema::DESCRIPTION,
        input_schema = schema::input(),
        output_schema = schema::output_of::<Reply>(),
        annotations(title = "Ask the user", read_only_hint = false, destructive_hint = false, open_world_hint = true)
    )]
    async fn ask_user(
        &self,
        arguments: JsonObject,
        state: RequestState,
        responses: InputResponses,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.ask(arguments, state.0, responses.0, context).await
    }

    #[tool(
        title = "Wait for the user's answer",
        description = schema::AWAIT_DESCRIPTION,
        input_schema = schema::input_of::<AwaitInput>(),
        output_schema = schema::output_of::<Reply>(),
        annotations(title = "Wait for the user's answer", read_only_hint = false, destructive_hint = false, open_world_hint = true)
    )]
    async fn await_answer(
        &self,
        arguments: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let input: AwaitInput = match read_arguments(
            AWAIT_ANSWER,
            arguments,
            Some("{\"askId\": \"…\"}, optionally with \"waitSeconds\""),
        ) {
            Ok(input) => input,
            Err(refusal) => return refusal,
        };
        // Read it first: an unknown id is the agent's mistake to hear of.
        // Another agent's ask is not found.
        let ask = match self.backend.get(&input.ask_id, &caller(&context)).await {
            Ok(ask) => ask,
            Err(e) => {
                return tool_error(format!(
                    "There is no ask {:?} to wait on: {e}",
                    input.ask_id
                ))
            }
        };
        let wait = input.wait_seconds.map(Duration::from_secs);
        self.follow(&ask.id, &ask.url, wait, OnAbort::Keep, context)
            .await
    }

    #[tool(
        title = "Withdraw a question",
        description = schema::CANCEL_DESCRIPTION,
        input_schema = schema::input_of::<CancelInput>(),
        output_schema = schema::output_of::<Reply>(),
        annotations(title = "Withdraw a question", read_only_hint = false, destructive_hint = true, open_world_hint = true)
    )]
    async fn cancel_ask(
        &self,
        arguments: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let input: CancelInput = match read_arguments(
            CANCEL_ASK,
            arguments,
            Some("{\"askId\": \"…\"}, optionally with \"reason\""),
        ) {
            Ok(input) => input,
            Err(refusal) => return refusal,
        };
        tracing::info!(
            id = %desk::Logged(&input.ask_id),
            reason = input.reason.as_deref().unwrap_or(""),
            "the agent withdraws its ask"
        );
        match self.backend.cancel(&input.ask_id, &caller(&context)).await {
            Ok(ask) => finished(ask),
            Err(e) => tool_error(format!("The ask {:?} was not cancelled: {e}", input.ask_id)),
        }
    }
}

/// What happens to the ask when the client gives up on the call.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnAbort {
    /// The call made the ask: nobody else waits for it.
    Cancel,
    /// Another call made it; it keeps waiting.
    Keep,
}

impl AskDesk {
    /// Whether the calling agent's client may relay the answers its person
    /// gives inside its host (the client's own form, askdesk's form as an
    /// MCP App): where it may not, the person answers at the desk.
    pub(super) async fn relays(&self, context: &RequestContext<RoleServer>) -> bool {
        match self.backend.may_relay(&caller(context)).await {
            Ok(()) => true,
            Err(why) => {
                tracing::info!("no form in the agent's client: {why}");
                false
            }
        }
    }

    /// Follows the ask until it ends or `wait` (if any) is up.
    async fn follow(
        &self,
        id: &str,
        url: &str,
        wait: Option<Duration>,
        on_abort: OnAbort,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let token = context.meta.get_progress_token();
        let progress = |step: u32| {
            let token = token.clone();
            let peer = context.peer.clone();
            let message = format!("Waiting for the human to answer at {url}");
            async move {
                if let Some(token) = token {
                    let note = ProgressNotificationParam::new(token, f64::from(step))
                        .with_message(message);
                    if let Err(e) = peer.notify_progress(note).await {
                        tracing::debug!("progress notification not sent: {e}");
                    }
                }
            }
        };
        let wait = within_limit(wait, &context);
        let deadline = wait.map(|w| Instant::now() + w);
        let caller = caller(&context);
        progress(0).await;
        let mut step = 0;
        loop {
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let slice = left.map_or(PROGRESS_EVERY, |left| left.min(PROGRESS_EVERY));
            tokio::select! {
                biased;
                () = self.stopped() => return self.come_back(id, &caller).await,
                () = context.ct.cancelled() => {
                    // Cancelled by the server's stop, not by the client.
                    if self.stopping.as_ref().is_some_and(CancellationToken::is_cancelled) {
                        return self.come_back(id, &caller).await;
                    }
                    if on_abort == OnAbort::Keep {
                        return tool_error("The call was cancelled; the ask keeps waiting.".to_owned());
                    }
                    tracing::info!(id = %desk::Logged(id), "the client cancelled; cancelling the ask");
                    if let Err(e) = self.backend.cancel(id, &caller).await {
                        tracing::warn!(id = %desk::Logged(id), "could not cancel the ask: {e}");
                    }
                    return tool_error("The call was cancelled, and so was the ask.".to_owned());
                }
                waited = self.backend.wait(id, slice, &caller) => match waited {
                    Ok(ask) if ask.status.is_finished() => return finished(ask),
                    Ok(ask) if left.is_some_and(|left| left <= slice) => return pending(&ask),
                    Ok(_) => {
                        step += 1;
                        progress(step).await;
                    }
                    Err(e) => return tool_error(format!("Waiting for the answer failed: {e}")),
                },
            }
        }
    }
}

impl AskDesk {
    /// Once the server begins to stop (its drain); never without one.
    async fn stopped(&self) {
        match &self.stopping {
            Some(stop) => stop.cancelled().await,
            None => std::future::pending().await,
        }
    }

    /// A waiting call's reply when the server stops: the ask stays, and
    /// the agent is told to come back to it (`await_answer`), which
    /// another instance answers.
    async fn come_back(&self, id: &str, caller: &Caller) -> CallToolResult {
        tracing::info!(id = %desk::Logged(id), "the server stops; the waiting call is told to come back");
        match self.backend.get(id, caller).await {
            Ok(ask) if ask.status.is_finished() => finished(ask),
            Ok(ask) => pending(&ask),
            Err(e) => tool_error(format!("The server is stopping: {e}")),
        }
    }
}

/// How long one tool call may wait for a human, when the caller's host
/// ends calls sooner than a human answers: claude.ai and Claude's apps
/// stop a call after 300 s, so the server's guard puts this on a request
/// from a connector (a client that connected by OAuth). A call that
/// reaches it returns the ask's id for `await_answer`, the ask still
/// waiting; nothing is asked twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallLimit(pub Duration);

/// `wait`, cut to the request's [`CallLimit`] if it has one.
fn within_limit(wait: Option<Duration>, context: &RequestContext<RoleServer>) -> Option<Duration> {
    let limit = context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<CallLimit>())
        .map(|limit| limit.0);
    match (wait, limit) {
        (Some(wait), Some(limit)) => Some(wait.min(limit)),
        (wait, limit) => wait.or(limit),
    }
}

/// Who calls, as the server's guard found from the HTTP request's
/// credentials; over stdio (no HTTP request), this process's own user.
pub(super) fn caller(context: &RequestContext<RoleServer>) -> Caller {
    context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Caller>())
        .cloned()
        .unwrap_or(Caller::Unnamed)
}

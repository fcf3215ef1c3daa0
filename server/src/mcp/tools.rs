//! What the tools do: `ask_user` creates an ask and follows it,
//! `await_answer` follows an existing one, `cancel_ask` withdraws one.
//! Following sends a progress notification every [`PROGRESS_EVERY`] and
//! ends when the ask ends, or when the call's `waitSeconds` are up, with the
//! ask still pending for a later `await_answer`.

use super::{
    elicit::{self, Elicitation, Form},
    hosted,
    replies::{finished, form_message, opened, pending, problem_list, tool_error},
    rounds::{self, RoundState},
    tasks::{self, TaskId},
    AskDesk, AWAIT_ANSWER, CANCEL_ASK, PROGRESS_EVERY, TOOL,
};
use desk::Caller;
use interaction::{LenientAsk, ValidRequest};
use rmcp::{
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, CreateTaskResult, ErrorData,
        InputResponses, JsonObject, ProgressNotificationParam,
    },
    service::RequestContext,
    RoleServer,
};
use serde::{de::DeserializeOwned, Deserialize};
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// `ask_user`'s argument choosing where the person may answer.
pub const ANSWER_IN: &str = "answerIn";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AwaitInput {
    ask_id: String,
    #[serde(default)]
    wait_seconds: Option<u64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CancelInput {
    ask_id: String,
    #[serde(default)]
    reason: Option<String>,
}

/// A retried `ask_user` call: what the client echoes and sends back.
struct Round {
    state: String,
    responses: Option<InputResponses>,
    questions: interaction::Request,
    wait: Option<Duration>,
}

/// What happens to the ask when the client gives up on the call.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnAbort {
    /// The call made the ask: nobody else waits for it.
    Cancel,
    /// Another call made it; it keeps waiting.
    Keep,
}

fn decode<T: DeserializeOwned>(
    tool: &str,
    arguments: JsonObject,
    shape: &str,
) -> Result<T, CallToolResult> {
    serde_json::from_value(serde_json::Value::Object(arguments)).map_err(|e| {
        tool_error(format!(
            "The arguments are not what {tool} takes: {e}. Send {shape}."
        ))
    })
}

impl AskDesk {
    pub(super) async fn ask(
        &self,
        call: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut arguments = call.arguments.unwrap_or_default();
        // Where to answer: at the desk only, or in this client's UI too.
        let in_client = match arguments.get(ANSWER_IN) {
            None | Some(serde_json::Value::Null) => self.elicit,
            Some(value) if value == "client" => true,
            Some(value) if value == "desk" => false,
            Some(other) => {
                return Ok(tool_error(format!(
                    "{ANSWER_IN} is {other}; it takes \"client\" (answer in this client too, when \
                     it can show a form) or \"desk\" (only on askdesk's page and terminal)."
                ))
                .into())
            }
        };
        arguments.remove(ANSWER_IN);
        // Claude Code's AskUserQuestion input, plus an optional `id` per
        // question, `title`, `agent`, `timeoutSeconds`, `waitSeconds` and
        // `idempotencyKey`.
        let input: LenientAsk = match decode(
            TOOL,
            arguments,
            "{\"questions\": [{\"question\": \"…\", \"options\": [{\"label\": \"…\"}], \
             \"multiSelect\": false}]}, optionally with \"title\", \"timeoutSeconds\" and \
             \"waitSeconds\"",
        ) {
            Ok(input) => input,
            Err(refusal) => return Ok(refusal.into()),
        };
        let wait = input.wait_seconds.map(Duration::from_secs);
        let key = input.idempotency_key.clone();
        let mut new = input.into_new_ask();
        if let Some(state) = call.request_state {
            let questions = interaction::Request {
                questions: new.questions,
            };
            let round = Round {
                state,
                responses: call.input_responses,
                questions,
                wait,
            };
            return self.next_round(round, context).await;
        }
        if new.agent.is_none() {
            new.agent = context.client_info().map(|client| {
                format!("{} {}", client.name, client.version)
                    .trim()
                    .to_owned()
            });
        }
        new.timeout_seconds = new.timeout_seconds.or(self.default_timeout);
        // The questions again, for the client's own form when it shows one
        // and this agent's client may relay the person's answer from it.
        let capabilities = context.client_capabilities();
        let shows_form = capabilities.as_ref().is_some_and(elicit::offers_form);
        let shows_apps = capabilities.as_ref().is_some_and(hosted::shows_apps);
        // Asked of the desk (over HTTP for `askdesk mcp`) only for a client
        // that could show a form at all.
        let relays = (shows_form || shows_apps) && self.relays(&context).await;
        let offers_form = relays && shows_form;
        let for_form = (in_client && offers_form).then(|| interaction::Request {
            questions: new.questions.clone(),
        });
        let title = new.title.clone();
        if let Some(limit) = &self.create_limit {
            if let Err(wait) = limit.take(&caller(&context)) {
                return Ok(tool_error(format!(
                    "This agent has created too many asks this minute; try again in {} s.",
                    wait.as_secs().max(1)
                ))
                .into());
            }
        }
        let created = match self.backend.create(new, key.as_deref()).await {
            Ok(created) => created,
            Err(client::Error::Invalid { problems, .. }) => {
                return Ok(tool_error(problem_list(&problems)).into())
            }
            Err(e) => return Ok(tool_error(e.to_string()).into()),
        };
        tracing::info!(id = %created.id, "waiting for the human to answer at {}", created.url);
        // A host that shows MCP Apps shows the form now: the call returns
        // the ask's id for it, and the model waits with await_answer.
        if relays && shows_apps {
            return Ok(opened(&created).into());
        }
        let message = form_message(title.as_deref(), &created.url);
        // The desk accepted these questions, so they are valid.
        let request = for_form.and_then(|r| ValidRequest::new(r).ok());
        let form = request.as_ref().and_then(Form::new);
        // On 2026-07-28 the form goes back in the result; the client calls
        // again with the reply.
        let modern = context
            .protocol_version()
            .is_some_and(|v| !v.has_initialize());
        // To a client that takes tasks, a task at once: it polls the ask.
        if modern && capabilities.as_ref().is_some_and(|c| c.supports_tasks()) {
            let id = TaskId {
                ask: created.id.clone(),
                in_client: form.is_some(),
            };
            return Ok(CreateTaskResult::new(tasks::created(&created, &id)).into());
        }
        if let (true, Some(form)) = (modern, &form) {
            let state = RoundState::first(&created.id);
            return Ok(rounds::form_result(form, message, &state).into());
        }
        // On a session, the client's form races the page and the terminal;
        // once the ask has ended, by whichever, the form is withdrawn.
        let ended = CancellationToken::new();
        let elicitation = request.filter(|_| !modern).map(|request| {
            let elicitation = Elicitation {
                backend: self.backend.clone(),
                caller: caller(&context),
                peer: context.peer.clone(),
                id: created.id.clone(),
                request,
                message,
            };
            tokio::spawn(elicitation.run(ended.clone()))
        });
        let result = self
            .follow(&created.id, &created.url, wait, OnAbort::Cancel, context)
            .await;
        ended.cancel();
        if let Some(elicitation) = elicitation {
            if let Err(e) = elicitation.await {
                tracing::warn!("the client's form stopped: {e}");
            }
        }
        Ok(result.into())
    }

    /// A retried `ask_user` call of a 2026-07-28 client: the person's reply
    /// to the form goes through the desk, and the result is the ask's end,
    /// the form again (saying why a reply was refused), or the wait at the
    /// desk once the client stopped answering.
    async fn next_round(
        &self,
        round: Round,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let refused = |why: String| ErrorData::invalid_params(why, None);
        let state = RoundState::parse(&round.state)
            .ok_or_else(|| refused("requestState is not one askdesk gave".to_owned()))?;
        let ask = self
            .backend
            .wait(&state.id, Duration::ZERO)
            .await
            .map_err(|e| refused(format!("requestState names no ask here: {e}")))?;
        // The state belongs to the call that made the ask.
        if ValidRequest::new(round.questions).ok().as_ref() != Some(&ask.request) {
            return Err(refused(
                "requestState belongs to another ask_user call: its questions differ".to_owned(),
            ));
        }
        if ask.status.is_finished() {
            return Ok(finished(ask).into());
        }
        let message = form_message(ask.title.as_deref(), &ask.url);
        let form = Form::new(&ask.request);
        match (
            rounds::reply(round.responses.as_ref()).map_err(refused)?,
            form,
        ) {
            (None, Some(form)) => return Ok(rounds::form_result(&form, message, &state).into()),
            (Some(reply), Some(form)) => {
                let caller = caller(&context);
                let why =
                    elicit::settle(&self.backend, &caller, &ask.id, &ask.request, reply).await;
                if let Some(why) = why.filter(|_| state.refused + 1 < elicit::ATTEMPTS) {
                    let again = elicit::again(&message, &why);
                    let next = state.after_refusal();
                    return Ok(rounds::form_result(&form, again, &next).into());
                }
            }
            (_, None) => {}
        }
        // Answered or declined (the wait returns at once), cancelled in the
        // client, or refused too often: the page and terminal have it.
        Ok(self
            .follow(&ask.id, &ask.url, round.wait, OnAbort::Cancel, context)
            .await
            .into())
    }

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

    pub(super) async fn await_answer(
        &self,
        arguments: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let input: AwaitInput = match decode(
            AWAIT_ANSWER,
            arguments,
            "{\"askId\": \"…\"}, optionally with \"waitSeconds\"",
        ) {
            Ok(input) => input,
            Err(refusal) => return refusal,
        };
        // Read it first: an unknown id is the agent's mistake to hear of.
        let ask = match self.backend.wait(&input.ask_id, Duration::ZERO).await {
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

    pub(super) async fn cancel_ask(
        &self,
        arguments: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let input: CancelInput = match decode(
            CANCEL_ASK,
            arguments,
            "{\"askId\": \"…\"}, optionally with \"reason\"",
        ) {
            Ok(input) => input,
            Err(refusal) => return refusal,
        };
        tracing::info!(
            id = %input.ask_id,
            reason = input.reason.as_deref().unwrap_or(""),
            "the agent withdraws its ask"
        );
        match self.backend.cancel(&input.ask_id, &caller(&context)).await {
            Ok(ask) => finished(ask),
            Err(e) => tool_error(format!("The ask {:?} was not cancelled: {e}", input.ask_id)),
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
        let deadline = wait.map(|w| Instant::now() + w);
        progress(0).await;
        let mut step = 0;
        loop {
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let slice = left.map_or(PROGRESS_EVERY, |left| left.min(PROGRESS_EVERY));
            tokio::select! {
                () = context.ct.cancelled() => {
                    if on_abort == OnAbort::Keep {
                        return tool_error("The call was cancelled; the ask keeps waiting.".to_owned());
                    }
                    tracing::info!(id = %id, "the client cancelled; cancelling the ask");
                    if let Err(e) = self.backend.cancel(id, &caller(&context)).await {
                        tracing::warn!(id = %id, "could not cancel the ask: {e}");
                    }
                    return tool_error("The call was cancelled, and so was the ask.".to_owned());
                }
                waited = self.backend.wait(id, slice) => match waited {
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

/// Who calls, as the server's guard found from the HTTP request's
/// credentials; over stdio (no HTTP request), this process's own user.
pub(super) fn caller(context: &RequestContext<RoleServer>) -> Caller {
    context
        .extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Caller>())
        .cloned()
        .unwrap_or(Caller::Unnamed)
}

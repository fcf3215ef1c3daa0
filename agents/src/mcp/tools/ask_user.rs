//! `ask_user`: the questions put to the desk, then answered the way this
//! client takes answers (the app, a task, the client's form, or the wait
//! at the desk), and a 2026-07-28 client's retried call with its reply.

use super::{caller, OnAbort, ANSWER_IN};
use crate::mcp::{
    elicit::{self, Elicitation, Form},
    hosted,
    replies::{finished, form_message, opened, problem_list, read_arguments, tool_error},
    rounds::{self, RoundState},
    tasks::{self, TaskId},
    AskDesk, TOOL,
};
use interaction::{LenientAsk, ValidRequest};
use rmcp::{
    model::{
        CallToolResponse, CallToolResult, CreateTaskResult, ErrorData, InputResponses, JsonObject,
    },
    service::RequestContext,
    RoleServer,
};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// A retried `ask_user` call: what the client echoes and sends back.
struct Round {
    state: String,
    responses: Option<InputResponses>,
    questions: interaction::Request,
    wait: Option<Duration>,
}

/// `ask_user`'s arguments: where to answer (`answerIn`, or the server's
/// `--elicit` when absent) and the questions, as Claude Code's
/// AskUserQuestion input plus an optional `id` per question, `title`,
/// `agent`, `timeoutSeconds`, `waitSeconds` and `idempotencyKey`.
fn ask_input(
    mut arguments: JsonObject,
    elicit: bool,
) -> Result<(bool, LenientAsk), CallToolResult> {
    let in_client = match arguments.remove(ANSWER_IN) {
        None | Some(serde_json::Value::Null) => elicit,
        Some(value) if value == "client" => true,
        Some(value) if value == "desk" => false,
        Some(other) => {
            return Err(tool_error(format!(
                "{ANSWER_IN} is {other}; it takes \"client\" (answer in this client too, when \
                 it can show a form) or \"desk\" (only on askdesk's page and terminal)."
            )))
        }
    };
    let input = read_arguments(
        TOOL,
        arguments,
        Some(
            "{\"questions\": [{\"question\": \"…\", \"options\": [{\"label\": \"…\"}], \
         \"multiSelect\": false}]}, optionally with \"title\", \"timeoutSeconds\" and \
         \"waitSeconds\"",
        ),
    )?;
    Ok((in_client, input))
}

impl AskDesk {
    /// `ask_user`: the questions in `arguments`; on a retried call of a
    /// 2026-07-28 client, the `state` askdesk gave and the client's
    /// `responses`.
    pub(super) async fn ask(
        &self,
        arguments: JsonObject,
        state: Option<String>,
        responses: Option<InputResponses>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (in_client, input) = match ask_input(arguments, self.elicit) {
            Ok(read) => read,
            Err(refusal) => return Ok(refusal.into()),
        };
        let wait = input.wait_seconds.map(Duration::from_secs);
        let key = input.idempotency_key.clone();
        let mut new = input.into_new_ask();
        if let Some(state) = state {
            let questions = interaction::Request {
                questions: new.questions,
                context: new.context,
            };
            let round = Round {
                state,
                responses,
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
        // Under a live channel the person may write to this session.
        new.session = self
            .channel
            .as_ref()
            .and_then(crate::mcp::channel::Relay::session);
        // The questions again, for the client's own form when it shows one
        // and this agent's client may relay the person's answer from it.
        let capabilities = context.client_capabilities();
        let shows_form = capabilities.as_ref().is_some_and(elicit::offers_form);
        let shows_apps = capabilities.as_ref().is_some_and(hosted::shows_apps);
        // Asked of the desk (over HTTP for `askdesk mcp`) only for a client
        // that could show a form at all.
        let relays = (shows_form || shows_apps) && self.relays(&context).await;
        let for_form = (in_client && relays && shows_form).then(|| interaction::Request {
            questions: new.questions.clone(),
            context: new.context.clone(),
        });
        let title = new.title.clone();
        let created = match self.create(new, key.as_deref(), &context).await {
            Ok(created) => created,
            Err(refusal) => return Ok(refusal.into()),
        };
        tracing::info!(id = %desk::Logged(&created.id), "waiting for the human to answer");
        // A host that shows MCP Apps shows the form now: the call returns
        // the ask's id for it, and the model waits with await_answer.
        if relays && shows_apps {
            return Ok(opened(&created).into());
        }
        let message = form_message(title.as_deref(), &created.url);
        // The desk accepted these questions, so they are valid.
        let request = for_form.and_then(|r| ValidRequest::new(r).ok());
        Ok(self
            .answered(created, request, message, wait, context)
            .await)
    }

    /// Puts `new` to the desk within this caller's limit of asks a minute.
    async fn create(
        &self,
        new: interaction::NewAsk,
        key: Option<&str>,
        context: &RequestContext<RoleServer>,
    ) -> Result<interaction::AskCreated, CallToolResult> {
        if let Some(limit) = &self.create_limit {
            if let Err(wait) = limit.take(&caller(context)) {
                return Err(tool_error(format!(
                    "This agent has created too many asks this minute; try again in {} s.",
                    wait.as_secs().max(1)
                )));
            }
        }
        self.backend
            .create(new, key, &caller(context))
            .await
            .map_err(|e| match e.problems() {
                Some(problems) => tool_error(problem_list(problems)),
                None => tool_error(e.to_string()),
            })
    }

    /// The answer to the `created` ask, as this client takes it: a task to
    /// poll, the client's form in the result (2026-07-28), or the wait at
    /// the desk while the client's form (`request`, on a session) races the
    /// page and the terminal.
    async fn answered(
        &self,
        created: interaction::AskCreated,
        request: Option<ValidRequest>,
        message: String,
        wait: Option<Duration>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let form = request.as_ref().and_then(Form::new);
        // On 2026-07-28 the form goes back in the result; the client calls
        // again with the reply.
        let modern = context
            .protocol_version()
            .is_some_and(|v| !v.has_initialize());
        // To a client that takes tasks, a task at once: it polls the ask.
        let tasks = context
            .client_capabilities()
            .is_some_and(|c| c.supports_tasks());
        if modern && tasks {
            let id = TaskId {
                ask: created.id.clone(),
                in_client: form.is_some(),
            };
            return CreateTaskResult::new(tasks::created(&created, &id)).into();
        }
        if let (true, Some(form)) = (modern, &form) {
            let state = RoundState::first(&created.id);
            return rounds::form_result(form, message, &state).into();
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
        result.into()
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
        // Another agent's ask is not found: its rounds are not ours.
        let ask = self
            .backend
            .get(&state.id, &caller(&context))
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
}

//! Agents ask through MCP: the binary serves this handler over streamable
//! HTTP at `/mcp` and over stdio (`askdesk mcp`). Three tools, routed by
//! rmcp's `#[tool_router]` (in [`tools`]; the app-only ones in
//! [`hosted`]): `ask_user`
//! decodes the agent's input leniently (the `interaction` crate's
//! `LenientAsk`), creates an ask through the same desk code path as
//! `POST /api/v1/asks`, tells the human where to answer, and waits until the
//! ask ends (or `waitSeconds` pass), sending progress notifications
//! meanwhile; if the client cancels the call, the ask is cancelled.
//! `await_answer` waits on an ask again; `cancel_ask` withdraws one.
//! To a host that shows MCP Apps, `ask_user` brings askdesk's own form
//! into the conversation ([`hosted`]).

pub mod channel;
pub mod elicit;
pub mod hosted;
mod kept;
mod replies;
mod rounds;
mod schema;
mod tasks;
mod tools;

pub use crate::backend::Backend;
pub use tools::CallLimit;

use rmcp::{
    handler::server::{router::tool::ToolRouter, tool::ToolCallContext},
    model::{
        CallToolRequestParams, CallToolResponse, CancelTaskParams, CustomNotification,
        ElicitResult, ElicitationAction, ErrorData, GetTaskParams, GetTaskResult, Implementation,
        JsonObject, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
        ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig, Tool,
        UpdateTaskParams,
    },
    service::{NotificationContext, RequestContext},
    RoleServer, ServerHandler,
};
use std::{sync::Arc, time::Duration};

/// The tool's name.
pub const TOOL: &str = "ask_user";
/// Waits on an ask again.
pub const AWAIT_ANSWER: &str = "await_answer";
/// Withdraws an ask.
pub const CANCEL_ASK: &str = "cancel_ask";

/// What every client's model is told about askdesk's tools.
const INSTRUCTIONS: &str =
    "Use ask_user to put structured questions to the human and wait for the answers. \
     The call returns when the human answers, declines, or the ask is cancelled or expires. \
     Humans may take long: give ask_user a waitSeconds below your tool-call timeout, and \
     when it returns status \"pending\", call await_answer with its askId to keep waiting; \
     cancel_ask withdraws a question that no longer matters.";

/// How often a waiting call tells the client it is still alive.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// The MCP server: the `ask_user` tool over a [`Backend`].
#[derive(Clone)]
pub struct AskDesk {
    backend: Backend,
    default_timeout: Option<u64>,
    elicit: bool,
    /// How many asks each agent may create a minute (`--create-limit`).
    create_limit: Option<Arc<crate::limit::CreateLimit>>,
    /// Why tasks' last replies were refused.
    notes: tasks::Notes,
    /// The form's document for hosts that show MCP Apps.
    view: hosted::View,
    /// What people entered in askdesk's form in their hosts.
    drafts: kept::Keeper<hosted::Draft>,
    /// The tools every client is offered ([`tools`]).
    tools: ToolRouter<Self>,
    /// The tools only askdesk's form in a host calls ([`hosted`]).
    app_tools: ToolRouter<Self>,
    /// Claude Code's channel, on stdio ([`channel`]).
    channel: Option<channel::Relay>,
    /// The server's stop: a call cancelled by it was not cancelled by
    /// its client ([`AskDesk::stopping_with`]).
    stopping: Option<tokio_util::sync::CancellationToken>,
}

impl AskDesk {
    /// A server whose asks go to `backend`; asks without their own timeout
    /// wait `default_timeout` seconds (or until the human acts).
    pub fn new(backend: Backend, default_timeout: Option<u64>) -> Self {
        Self {
            backend,
            default_timeout,
            elicit: false,
            create_limit: None,
            notes: tasks::Notes::default(),
            drafts: kept::Keeper::default(),
            view: hosted::View::default(),
            tools: Self::tool_router(),
            app_tools: Self::app_tools(),
            channel: None,
            stopping: None,
        }
    }

    /// Declares Claude Code's channel and relays its permission prompts
    /// to the desk (`askdesk mcp`).
    pub fn channeling(mut self) -> Result<Self, getrandom::Error> {
        self.channel = Some(channel::Relay::new()?);
        Ok(self)
    }

    /// Knows the server stops when `stop` is cancelled: a call waiting
    /// then is told to come back to its ask (`await_answer`, on another
    /// instance), and the ask stays, as a long-poll's does.
    pub fn stopping_with(mut self, stop: tokio_util::sync::CancellationToken) -> Self {
        self.stopping = Some(stop);
        self
    }

    /// Serves `view` as the form's document to hosts that show MCP Apps.
    pub fn showing(mut self, view: hosted::View) -> Self {
        self.view = view;
        self
    }

    /// Keeps what tasks and hosts' forms need between calls in `shared`,
    /// for every instance.
    pub fn sharing(mut self, shared: Option<desk::PostgresStore>) -> Self {
        if let Some(shared) = shared {
            self.notes = tasks::Notes::shared(shared.clone());
            self.drafts = kept::Keeper::shared(shared);
        }
        self
    }

    /// Counts each agent's creations against `limit`.
    pub fn limiting(mut self, limit: Option<Arc<crate::limit::CreateLimit>>) -> Self {
        self.create_limit = limit;
        self
    }

    /// Also asks in the client's own UI (elicitation) when it offers it,
    /// unless a call says otherwise (`answerIn`).
    pub fn eliciting(mut self, elicit: bool) -> Self {
        self.elicit = elicit;
        self
    }

    /// The tools as `tools/list` describes them to a client that shows
    /// MCP Apps (`apps`: `ask_user` with its view, and the view's own
    /// tools) or to any other.
    pub fn tools_for(&self, apps: bool) -> Vec<Tool> {
        let tools = self.tools.list_all().into_iter();
        if !apps {
            return tools.collect();
        }
        tools
            .map(|tool| {
                if tool.name == TOOL {
                    hosted::with_view(tool)
                } else {
                    tool
                }
            })
            .chain(self.app_tools.list_all())
            .collect()
    }
}

impl ServerHandler for AskDesk {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_tasks()
            .build();
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(hosted::EXTENSION.to_owned(), JsonObject::new());
        let mut instructions = INSTRUCTIONS.to_owned();
        if self.channel.is_some() {
            channel::declare(&mut capabilities);
            instructions = format!("{INSTRUCTIONS} {}", channel::INSTRUCTIONS);
        }
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("askdesk", env!("CARGO_PKG_VERSION")))
            .with_instructions(instructions)
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        if let Some(relay) = &self.channel {
            relay
                .notified(&self.backend, context.peer, notification)
                .await;
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let apps = shows_apps(&context) && self.relays(&context).await;
        Ok(ListToolsResult::with_all_items(self.tools_for(apps)))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(
            vec![hosted::resource()],
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != hosted::URI {
            return Err(ErrorData::resource_not_found(
                format!(
                    "there is no resource {:?}; askdesk has {}",
                    request.uri,
                    hosted::URI
                ),
                None,
            ));
        }
        self.view
            .read()
            .map(Into::into)
            .map_err(|why| ErrorData::internal_error(why, None))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(relay) = &self.channel {
            // The session moved on past any prompt still relayed.
            relay.moved_on(&self.backend).await;
        }
        let apps = shows_apps(&context);
        let router = if self.tools.has_route(&request.name) {
            &self.tools
        } else if apps && self.app_tools.has_route(&request.name) {
            &self.app_tools
        } else {
            // The tools this client was offered, as tools/list names them.
            let names: Vec<String> = self
                .tools_for(apps)
                .into_iter()
                .map(|tool| tool.name.to_string())
                .collect();
            return Err(ErrorData::invalid_params(
                format!(
                    "there is no tool {:?}; askdesk has {}",
                    request.name,
                    names.join(", ")
                ),
                None,
            ));
        };
        router
            .call(ToolCallContext::new(self, request, context))
            .await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let (id, ask) = self.task_ask(&request.task_id, &context).await?;
        let pending = ask.status == interaction::AskStatus::Pending;
        let note = match (id.in_client, pending) {
            (true, true) => self.notes.get(&id.ask).await.unwrap_or_default(),
            (true, false) => {
                self.notes.forget(&id.ask).await;
                tasks::Note::default()
            }
            (false, _) => tasks::Note::default(),
        };
        let offers_form = context
            .client_capabilities()
            .is_some_and(|c| elicit::offers_form(&c));
        Ok(GetTaskResult::new(tasks::detailed(
            &ask,
            &id,
            &note,
            offers_form,
        )))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let (id, ask) = self.task_ask(&request.task_id, &context).await?;
        if !id.in_client || ask.status.is_finished() {
            return Ok(());
        }
        let note = self.notes.get(&id.ask).await.unwrap_or_default();
        // Replies to keys the task does not ask under now are ignored.
        let asked = note.asks().then(|| note.key());
        let Some(reply) = asked.and_then(|key| request.input_responses.get(&key)) else {
            return Ok(());
        };
        let reply: ElicitResult = serde_json::from_value(reply.clone()).map_err(|e| {
            ErrorData::invalid_params(
                format!(
                    "inputResponses.{} is not an elicitation result: {e}",
                    note.key()
                ),
                None,
            )
        })?;
        if reply.action == ElicitationAction::Cancel {
            // Dismissed: the ask stays open at the desk, the form is not
            // shown again.
            self.notes.keep(&id.ask, &note.after_dismissal()).await;
            return Ok(());
        }
        let caller = tools::caller(&context);
        match elicit::settle(&self.backend, &caller, &ask.id, &ask.request, reply).await {
            Some(why) => self.notes.keep(&id.ask, &note.after_refusal(why)).await,
            None => self.notes.forget(&id.ask).await,
        }
        Ok(())
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let (id, _) = self.task_ask(&request.task_id, &context).await?;
        // An ask that ended first keeps its end; tasks/get reports it.
        if let Err(e) = self.backend.cancel(&id.ask, &tools::caller(&context)).await {
            tracing::info!(id = %desk::Logged(&id.ask), "the task's ask was not cancelled: {e}");
        }
        Ok(())
    }
}

/// Whether the calling client shows MCP Apps.
fn shows_apps(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|c| hosted::shows_apps(&c))
}

impl AskDesk {
    /// The task named `task_id` and its ask as it stands, if the caller
    /// made it: another agent's task is not found.
    async fn task_ask(
        &self,
        task_id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<(tasks::TaskId, interaction::Ask), ErrorData> {
        let unknown = || {
            ErrorData::invalid_params(format!("there is no task {task_id:?} on this desk"), None)
        };
        let id = tasks::TaskId::parse(task_id).ok_or_else(unknown)?;
        let ask = self
            .backend
            .get(&id.ask, &tools::caller(context))
            .await
            .map_err(|_| unknown())?;
        Ok((id, ask))
    }
}

#[cfg(test)]
mod tests;

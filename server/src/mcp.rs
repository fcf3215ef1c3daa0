//! Agents ask through MCP, over streamable HTTP at `/mcp` and over stdio
//! (`askdesk mcp`). Three tools (in [`tools`]): `ask_user`
//! decodes the agent's input leniently (the `interaction` crate's
//! `LenientAsk`), creates an ask through the same desk code path as
//! `POST /api/v1/asks`, tells the human where to answer, and waits until the
//! ask ends (or `waitSeconds` pass), sending progress notifications
//! meanwhile; if the client cancels the call, the ask is cancelled.
//! `await_answer` waits on an ask again; `cancel_ask` withdraws one.

mod backend;
pub mod elicit;
mod rounds;
mod schema;
mod sessions;
mod tools;

pub use backend::Backend;

use crate::AppState;
use rmcp::{
    model::{
        CallToolRequestParams, CallToolResponse, ErrorData, Implementation, ListToolsResult,
        PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
    },
    service::RequestContext,
    transport::streamable_http_server::{
        session::local::LocalSessionManager, StreamableHttpServerConfig, StreamableHttpService,
    },
    RoleServer, ServerHandler,
};
use std::{sync::Arc, time::Duration};

/// The tool's name.
pub const TOOL: &str = "ask_user";

/// How often a waiting call tells the client it is still alive.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// The MCP server: the `ask_user` tool over a [`Backend`].
#[derive(Clone)]
pub struct AskDesk {
    backend: Backend,
    default_timeout: Option<u64>,
    elicit: bool,
    /// How many asks each agent may create a minute (`--create-limit`).
    create_limit: Option<Arc<crate::http::limit::CreateLimit>>,
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
        }
    }

    /// Counts each agent's creations against `limit`.
    pub fn limiting(mut self, limit: Option<Arc<crate::http::limit::CreateLimit>>) -> Self {
        self.create_limit = limit;
        self
    }

    /// Also asks in the client's own UI (elicitation) when it offers it,
    /// unless a call says otherwise (`answerIn`).
    pub fn eliciting(mut self, elicit: bool) -> Self {
        self.elicit = elicit;
        self
    }

    /// The tools as `tools/list` describes them.
    pub fn tools() -> Vec<Tool> {
        let tool =
            |name: &'static str, title: &str, description: &'static str, input, destructive| {
                let mut annotations = ToolAnnotations::default();
                annotations.title = Some(title.to_owned());
                annotations.read_only_hint = Some(false);
                annotations.destructive_hint = Some(destructive);
                annotations.open_world_hint = Some(true);
                Tool::new(name, description, Arc::new(input))
                    .with_title(title.to_owned())
                    .with_raw_output_schema(Arc::new(schema::output()))
                    .with_annotations(annotations)
            };
        vec![
            tool(
                TOOL,
                "Ask the user",
                schema::DESCRIPTION,
                schema::input(),
                false,
            ),
            tool(
                tools::AWAIT_ANSWER,
                "Wait for the user's answer",
                schema::AWAIT_DESCRIPTION,
                schema::await_input(),
                false,
            ),
            tool(
                tools::CANCEL_ASK,
                "Withdraw a question",
                schema::CANCEL_DESCRIPTION,
                schema::cancel_input(),
                true,
            ),
        ]
    }
}

impl ServerHandler for AskDesk {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("askdesk", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Use ask_user to put structured questions to the human and wait for the answers. \
                 The call returns when the human answers, declines, or the ask is cancelled or expires. \
                 Humans may take long: give ask_user a waitSeconds below your tool-call timeout, and \
                 when it returns status \"pending\", call await_answer with its askId to keep waiting; \
                 cancel_ask withdraws a question that no longer matters.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(Self::tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name == TOOL {
            return self.ask(request, context).await;
        }
        let arguments = request.arguments.unwrap_or_default();
        let result = match request.name.as_ref() {
            tools::AWAIT_ANSWER => self.await_answer(arguments, context).await,
            tools::CANCEL_ASK => self.cancel_ask(arguments, context).await,
            other => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "there is no tool {other:?}; askdesk has {TOOL}, {} and {}",
                        tools::AWAIT_ANSWER,
                        tools::CANCEL_ASK
                    ),
                    None,
                ))
            }
        };
        Ok(result.into())
    }
}

/// The streamable HTTP transport for `/mcp`, over the server's own desk.
/// `http::guard` has checked Host, Origin and the token before a
/// request gets here.
pub fn http_service(state: &AppState) -> StreamableHttpService<AskDesk, LocalSessionManager> {
    let handler = AskDesk::new(
        Backend::Local(state.desk.clone()),
        state.mcp_default_timeout,
    )
    .eliciting(state.mcp_elicit)
    .limiting(state.create_limit.clone());
    let mut config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .with_cancellation_token(state.shutdown.child_token());
    // On PostgreSQL, sessions are kept for every instance: a client's next
    // request may reach another one.
    if let Some(shared) = &state.shared {
        config.session_store = Some(Arc::new(sessions::SharedSessions(shared.clone())));
    }
    let mut sessions = LocalSessionManager::default();
    // A call may wait days for a human, sending nothing when the client
    // asked for no progress; rmcp's default 5-minute idle limit would end
    // the session under it.
    sessions.session_config.keep_alive =
        Some(Duration::from_secs(interaction::MAX_TIMEOUT_SECONDS));
    StreamableHttpService::new(move || Ok(handler.clone()), Arc::new(sessions), config)
}

//! Agents ask through MCP: one tool, `ask_user`, served over streamable
//! HTTP at `/mcp` and over stdio (`askdesk mcp`, in [`stdio`]).
//!
//! A call decodes the agent's input leniently (the `interaction` crate's
//! [`LenientAsk`]), creates an ask through the same [`Desk`] code path
//! as `POST /api/v1/asks`, tells the human where to answer, and waits until
//! the ask ends, sending progress notifications meanwhile. If the client
//! cancels the call, the ask is cancelled.

mod backend;
mod schema;
pub mod stdio;

pub use backend::Backend;

use crate::AppState;
use interaction::{Ask, LenientAsk, Problem};
use rmcp::{
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
        Implementation, JsonObject, ListToolsResult, PaginatedRequestParams,
        ProgressNotificationParam, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
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
}

impl AskDesk {
    /// A server whose asks go to `backend`; asks without their own timeout
    /// wait `default_timeout` seconds (or until the human acts).
    pub fn new(backend: Backend, default_timeout: Option<u64>) -> Self {
        Self {
            backend,
            default_timeout,
        }
    }

    /// The tool as `tools/list` describes it.
    pub fn tool() -> Tool {
        let mut annotations = ToolAnnotations::default();
        annotations.title = Some("Ask the user".to_owned());
        annotations.read_only_hint = Some(false);
        annotations.destructive_hint = Some(false);
        annotations.open_world_hint = Some(true);
        Tool::new(TOOL, schema::DESCRIPTION, Arc::new(schema::input()))
            .with_title("Ask the user")
            .with_raw_output_schema(Arc::new(schema::output()))
            .with_annotations(annotations)
    }

    async fn ask(
        &self,
        arguments: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        // Claude Code's AskUserQuestion input, plus an optional `id` per
        // question, `title`, `agent` and `timeoutSeconds`.
        let input: LenientAsk = match serde_json::from_value(serde_json::Value::Object(arguments)) {
            Ok(input) => input,
            Err(e) => {
                return tool_error(format!(
                    "The arguments are not what {TOOL} takes: {e}. Send {{\"questions\": [{{\"question\": \"…\", \
                     \"options\": [{{\"label\": \"…\"}}], \"multiSelect\": false}}]}}, optionally with \
                     \"title\" and \"timeoutSeconds\"."
                ))
            }
        };
        let mut new = input.into_new_ask();
        if new.agent.is_none() {
            new.agent = context.peer.peer_info().map(|info| {
                let client = &info.client_info;
                format!("{} {}", client.name, client.version)
                    .trim()
                    .to_owned()
            });
        }
        new.timeout_seconds = new.timeout_seconds.or(self.default_timeout);
        let created = match self.backend.create(new).await {
            Ok(created) => created,
            Err(client::Error::Invalid { problems, .. }) => {
                return tool_error(problem_list(&problems))
            }
            Err(e) => return tool_error(e.to_string()),
        };
        tracing::info!(id = %created.id, "waiting for the human to answer at {}", created.url);
        let token = context.meta.get_progress_token();
        let progress = |step: u32| {
            let token = token.clone();
            let peer = context.peer.clone();
            let message = format!("Waiting for the human to answer at {}", created.url);
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
        progress(0).await;
        let mut step = 0;
        loop {
            tokio::select! {
                () = context.ct.cancelled() => {
                    tracing::info!(id = %created.id, "the client cancelled; cancelling the ask");
                    if let Err(e) = self.backend.cancel(&created.id).await {
                        tracing::warn!(id = %created.id, "could not cancel the ask: {e}");
                    }
                    return tool_error("The call was cancelled, and so was the ask.".to_owned());
                }
                waited = self.backend.wait(&created.id, PROGRESS_EVERY) => match waited {
                    Ok(ask) if ask.status.is_finished() => return finished(ask),
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

fn tool_error(text: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

fn problem_list(problems: &[Problem]) -> String {
    let mut text = format!(
        "The questions were refused. Fix these {} problem(s) and call {TOOL} again:",
        problems.len()
    );
    for p in problems {
        text.push_str(&format!("\n- {}: {} ({})", p.path, p.message, p.code));
    }
    text
}

/// The result of a finished ask: the projection's text for the model and
/// its structured value for programs.
fn finished(ask: Ask) -> CallToolResult {
    let Some(projection) = ask.projection else {
        return tool_error(format!(
            "The ask ended ({}) without a result.",
            ask.status.as_str()
        ));
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(projection.text)]);
    result.structured_content = serde_json::to_value(projection.structured).ok();
    result
}

impl ServerHandler for AskDesk {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("askdesk", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Use ask_user to put structured questions to the human and wait for the answers. \
                 The call returns when the human answers, declines, or the ask is cancelled or expires.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![Self::tool()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != TOOL {
            return Err(ErrorData::invalid_params(
                format!(
                    "there is no tool {:?}; askdesk has only {TOOL}",
                    request.name
                ),
                None,
            ));
        }
        Ok(self
            .ask(request.arguments.unwrap_or_default(), context)
            .await
            .into())
    }
}

/// The streamable HTTP transport for `/mcp`, over the server's own desk.
/// `security::guard` has checked Host, Origin and the token before a
/// request gets here.
pub fn http_service(state: &AppState) -> StreamableHttpService<AskDesk, LocalSessionManager> {
    let handler = AskDesk::new(
        Backend::Local(state.desk.clone()),
        state.mcp_default_timeout,
    );
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .with_cancellation_token(state.shutdown.child_token());
    let mut sessions = LocalSessionManager::default();
    // A call may wait days for a human, sending nothing when the client
    // asked for no progress; rmcp's default 5-minute idle limit would end
    // the session under it.
    sessions.session_config.keep_alive =
        Some(Duration::from_secs(interaction::MAX_TIMEOUT_SECONDS));
    StreamableHttpService::new(move || Ok(handler.clone()), Arc::new(sessions), config)
}

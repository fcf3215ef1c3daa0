//! askdesk's form inside the agent's host: an MCP App (the extension
//! `io.modelcontextprotocol/ui`). `ask_user` names the resource [`URI`];
//! the host reads it (`resources/read`: the document `app::hosted`
//! renders, with the `hosted` bundle inline) and shows it in the
//! conversation. To a client that declares the extension, `ask_user`
//! returns at once with the ask's id, which the host pushes to the view;
//! the view reads and answers the ask with the app-only tools
//! [`app::hosted::READ_TOOL`] and [`app::hosted::ANSWER_TOOL`] (hidden from
//! the model by their visibility, and listed only to such clients),
//! through the desk's one validator, recorded as `via: mcp-app`.

mod drafts;
mod shown;

pub use drafts::Draft;

use super::{replies::read_arguments, schema, tools::caller, AskDesk};
use crate::backend::BackendError;
use app::hosted::{
    AnswerInApp, AnswerInAppArguments, AppAnswer, AppReply, ReadAsk, ANSWER_TOOL, READ_TOOL,
    READ_WAIT_SECONDS,
};
use interaction::{Answers, Via};
use rmcp::{
    model::{
        CallToolResult, ClientCapabilities, ContentBlock, JsonObject, MetaObject,
        ReadResourceResult, Resource, ResourceContents, Tool,
    },
    service::RequestContext,
    tool, tool_router, RoleServer,
};
use serde::Serialize;
use serde_json::{json, Value};
use std::{
    sync::{Arc, OnceLock},
    time::Duration,
};

/// The extension's identifier.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The form's resource.
pub const URI: &str = "ui://askdesk/ask";
/// What an MCP App's document is.
pub const MIME: &str = "text/html;profile=mcp-app";

/// Whether the client shows MCP Apps: it declares the extension with our
/// document's type.
pub fn shows_apps(capabilities: &ClientCapabilities) -> bool {
    capabilities
        .extensions
        .as_ref()
        .and_then(|extensions| extensions.get(EXTENSION))
        .and_then(|settings| settings.get("mimeTypes"))
        .and_then(Value::as_array)
        .is_some_and(|types| types.iter().any(|t| t == MIME))
}

/// `_meta.ui` of a tool: its view, and who may call it.
fn tool_meta(visibility: &[&str]) -> MetaObject {
    let mut meta = MetaObject::new();
    meta.0.insert(
        "ui".to_owned(),
        json!({"resourceUri": URI, "visibility": visibility}),
    );
    meta
}

/// `ask_user` as a client that shows apps lists it: with its view.
pub fn with_view(tool: Tool) -> Tool {
    tool.with_meta(tool_meta(&["model", "app"]))
}

/// What the form is, to a host listing its resources.
const DESCRIPTION: &str = "Answer the agent's questions in the conversation.";

/// The form's resource as `resources/list` names it.
pub fn resource() -> Resource {
    let mut resource = Resource::new(URI, "askdesk_form")
        .with_title("askdesk's form")
        .with_description(DESCRIPTION);
    resource.mime_type = Some(MIME.to_owned());
    resource.meta = Some(resource_meta());
    resource
}

/// The domains the document may reach, by kind, as `_meta.ui.csp` names
/// them: none, since every call goes through the host.
#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct Csp {
    connect_domains: Vec<String>,
    resource_domains: Vec<String>,
    frame_domains: Vec<String>,
    base_uri_domains: Vec<String>,
}

/// The same domains under ChatGPT's own key (`openai/widgetCSP`), which
/// it reads instead of `_meta.ui.csp`; links leave only through the host
/// (`redirect_domains`: none either).
#[derive(Serialize)]
struct WidgetCsp<'a> {
    connect_domains: &'a [String],
    resource_domains: &'a [String],
    frame_domains: &'a [String],
    redirect_domains: &'a [String],
}

impl Csp {
    fn for_chatgpt(&self) -> WidgetCsp<'_> {
        WidgetCsp {
            connect_domains: &self.connect_domains,
            resource_domains: &self.resource_domains,
            frame_domains: &self.frame_domains,
            redirect_domains: &[],
        }
    }
}

/// `_meta` of the document: what it may reach and that it draws its own
/// frame, for MCP Apps hosts (`ui`) and in ChatGPT's names.
fn resource_meta() -> MetaObject {
    let csp = Csp::default();
    let mut meta = MetaObject::new();
    meta.0
        .insert("ui".to_owned(), json!({"csp": csp, "prefersBorder": false}));
    meta.0
        .insert("openai/widgetCSP".to_owned(), json!(csp.for_chatgpt()));
    meta.0
        .insert("openai/widgetPrefersBorder".to_owned(), json!(false));
    meta.0
        .insert("openai/widgetDescription".to_owned(), json!(DESCRIPTION));
    meta
}

/// The site's files, as the server keeps them: what the form's document
/// is made of.
pub trait SiteFiles: Send + Sync {
    /// The file at `path` (e.g. `/pkg/hosted.js`), as it is on disk.
    fn bytes(&self, path: &str) -> Option<&[u8]>;
    /// The path of the site's stylesheet.
    fn stylesheet(&self) -> Option<&str>;
}

/// Where the site comes from: the server's own, or one read when first
/// needed (`askdesk mcp`, which serves no pages).
type Site = Arc<dyn Fn() -> Option<Arc<dyn SiteFiles>> + Send + Sync>;

/// The form's document, rendered from the site's stylesheet and `hosted`
/// bundle the first time a host reads it, then kept.
#[derive(Clone)]
pub struct View {
    site: Site,
    document: Arc<OnceLock<Result<Arc<str>, String>>>,
}

impl Default for View {
    /// No site: the resource says how to get one.
    fn default() -> Self {
        Self::reading(|| None)
    }
}

impl View {
    /// The document of the site in `assets`.
    pub fn of(assets: Arc<dyn SiteFiles>) -> Self {
        Self::reading(move || Some(assets.clone()))
    }

    /// The document of the site `site` reads, when first asked for.
    pub fn reading(site: impl Fn() -> Option<Arc<dyn SiteFiles>> + Send + Sync + 'static) -> Self {
        Self {
            site: Arc::new(site),
            document: Arc::default(),
        }
    }

    fn document(&self) -> &Result<Arc<str>, String> {
        self.document
            .get_or_init(|| render((self.site)().as_deref()))
    }

    /// `resources/read` of [`URI`].
    pub fn read(&self) -> Result<ReadResourceResult, String> {
        let html = self.document().as_deref().map_err(Clone::clone)?;
        let contents = ResourceContents::TextResourceContents {
            uri: URI.to_owned(),
            mime_type: Some(MIME.to_owned()),
            text: html.to_owned(),
            meta: Some(resource_meta()),
        };
        Ok(ReadResourceResult::new(vec![contents]))
    }
}

/// The document from `assets`, or why there is none: no site, no `hosted`
/// bundle or script (a site cargo-leptos built has neither), or one that
/// may not stand inline (a site not built by `scripts/dev.sh`).
fn render(assets: Option<&dyn SiteFiles>) -> Result<Arc<str>, String> {
    let missing = |path: &str| {
        format!("this askdesk's site has no {path} for its form in hosts; scripts/dev.sh builds it")
    };
    let assets = assets.ok_or_else(|| missing(WASM_SCRIPT))?;
    let text = |path: &str| {
        assets
            .bytes(path)
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
    };
    let script = |path: &str| {
        let script = text(&format!("/{path}")).ok_or_else(|| missing(path))?;
        if !app::hosted::inlinable(script) {
            return Err(format!(
                "{path} may not stand inline; scripts/dev.sh builds it so that it may"
            ));
        }
        Ok(script)
    };
    let (wasm, without_wasm) = (script(WASM_SCRIPT)?, script(PLAIN_SCRIPT)?);
    let style = assets.stylesheet().and_then(text).unwrap_or("");
    Ok(Arc::from(app::hosted::document(wasm, without_wasm, style)))
}

/// The view's WebAssembly bundle, in the site.
const WASM_SCRIPT: &str = "pkg/hosted.js";
/// The view's script for hosts that refuse WebAssembly, in the site.
const PLAIN_SCRIPT: &str = "pkg/hosted-script.js";

/// The result of an app-only tool: its [`AppReply`] as `structuredContent`,
/// an error result when it is a refusal.
fn reply(reply: &AppReply) -> CallToolResult {
    let mut result = match reply {
        Ok(ask) => CallToolResult::success(vec![ContentBlock::text(format!(
            "The ask is {}.",
            ask.status.as_str()
        ))]),
        Err(e) => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
    };
    result.structured_content = serde_json::to_value(reply).ok();
    result
}

impl AskDesk {
    /// The app-only tools, listed and callable only for clients that show
    /// apps, hidden from the model by their visibility: the WebAssembly
    /// view's, the one its script stands in with where a host runs none,
    /// and the draft both keep.
    pub(super) fn app_tools() -> rmcp::handler::server::router::tool::ToolRouter<Self> {
        Self::form_tools() + Self::script_tools() + Self::draft_tools()
    }
}

/// The WebAssembly view's app-only tools.
#[tool_router(router = form_tools)]
impl AskDesk {
    /// [`READ_TOOL`]: the ask, once it ended or after its wait.
    #[tool(
        title = "Read an ask (askdesk's form)",
        description = "For askdesk's form in the host only: the ask as it stands, waiting up to \
                       waitSeconds for it to end.",
        input_schema = schema::input_of::<ReadAsk>(),
        meta = tool_meta(&["app"])
    )]
    async fn read_ask(
        &self,
        arguments: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let input: ReadAsk = match read_arguments(READ_TOOL, arguments, None) {
            Ok(input) => input,
            Err(refusal) => return refusal,
        };
        let wait = Duration::from_secs(input.wait_seconds.unwrap_or(0).min(READ_WAIT_SECONDS));
        let caller = caller(&context);
        let read = self
            .backend
            .wait(&input.ask_id, wait, &caller)
            .await
            .map_err(BackendError::for_page);
        self.forget_draft_once_ended(&read, &caller).await;
        reply(&read)
    }

    /// [`ANSWER_TOOL`]: the person's answers or decline, through the desk,
    /// relayed by the caller's client: the desk decides by the caller's
    /// credentials whether it may carry them.
    #[tool(
        title = "Answer an ask (askdesk's form)",
        description = "For askdesk's form in the host only: the person's answers (or decline), \
                       checked by the desk as the page's are.",
        input_schema = schema::input_of::<AnswerInAppArguments>(),
        meta = tool_meta(&["app"])
    )]
    async fn answer_in_app(
        &self,
        arguments: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let input: AnswerInApp = match read_arguments(ANSWER_TOOL, arguments, None) {
            Ok(input) => input,
            Err(refusal) => return refusal,
        };
        let caller = caller(&context);
        let done = match input.reply {
            AppAnswer::Answers(answers) => {
                self.backend
                    .answer(&input.ask_id, Answers { answers }, &caller, Via::McpApp)
                    .await
            }
            AppAnswer::Decline(decline) => {
                self.backend
                    .decline(&input.ask_id, &decline, &caller, Via::McpApp)
                    .await
            }
        };
        let done = done.map_err(BackendError::for_page);
        self.forget_draft_once_ended(&done, &caller).await;
        reply(&done)
    }
}

impl AskDesk {
    /// Forgets the draft `caller`'s view kept of an ask that has ended.
    async fn forget_draft_once_ended(&self, ask: &AppReply, caller: &desk::Caller) {
        if let Ok(ask) = ask {
            if ask.status.is_finished() {
                self.drafts.forget(&drafts::key(&ask.id, caller)).await;
            }
        }
    }
}

#[cfg(test)]
mod tests;

//! [`SHOW_TOOL`]: the form for a view whose host runs no WebAssembly. The
//! server renders the ask's form (or how it ended) with the page's
//! components, as for the page without JavaScript; the view's script puts
//! it in place and, when the person sends, posts the form's fields back,
//! which go through the desk's one validator as the page's post does and
//! come back as the form with its problems, or the outcome.

use super::{schema, tool_meta, AskDesk};
use crate::{
    backend::BackendError,
    mcp::{replies::read_arguments, tools::caller},
};
use app::state::FormState;
use app::{
    form::Posted,
    hosted::{shown, shown_failure, ShowAsk, Shown, SHOW_TOOL},
    i18n::Lang,
};
use interaction::{Decline, Via};
use rmcp::{
    model::{CallToolResult, ContentBlock, JsonObject},
    service::RequestContext,
    tool, tool_router, RoleServer,
};

/// The app-only tool of a view without WebAssembly, listed and callable
/// only for clients that show apps.
#[tool_router(router = script_tools, vis = "pub(super)")]
impl AskDesk {
    /// [`SHOW_TOOL`]: the ask's form with what was entered, sent first
    /// when asked.
    #[tool(
        title = "Show an ask (askdesk's form)",
        description = "For askdesk's form in the host only, where it runs no WebAssembly: the \
                       ask's form (or how it ended) as HTML, with the fields given (without any, with \
                       the draft keep_draft kept); with send, \
                       answers or declines with them first, checked by the desk as the page's \
                       are.",
        input_schema = schema::input_of::<ShowAsk>(),
        meta = tool_meta(&["app"])
    )]
    async fn show_ask(
        &self,
        arguments: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let input: ShowAsk = match read_arguments(SHOW_TOOL, arguments, None) {
            Ok(input) => input,
            Err(refusal) => return refusal,
        };
        let lang = input
            .locale
            .as_deref()
            .and_then(Lang::parse)
            .unwrap_or_default();
        let caller = caller(&context);
        let ask = match self.backend.get(&input.ask_id, &caller).await {
            Ok(ask) => ask,
            Err(e) => return result(shown_failure(&e.for_page(), lang)),
        };
        let draft = super::drafts::key(&ask.id, &caller);
        // Shown afresh (the host showed the view again): what the person
        // had entered, as kept.
        let fields = match (input.fields.is_empty(), input.send) {
            (true, false) => self.drafts.get(&draft).await.unwrap_or_default().0,
            _ => input.fields,
        };
        let posted = Posted::from_fields(&ask.id, &ask.request, &fields);
        let mut state = FormState::new(&ask.id, &ask.request, Some(&posted));
        let questions = ask.request.questions().to_vec();
        if ask.status.is_finished() {
            // Ended elsewhere, before or while the person typed: the
            // outcome, keeping what was typed.
            state.end_elsewhere(ask);
            self.drafts.forget(&draft).await;
        } else if input.send {
            let done = if app::form::declines(&fields) {
                let decline = Decline {
                    reason: Some(posted.reason.clone()),
                };
                self.backend
                    .decline(&ask.id, &decline, &caller, Via::McpApp)
                    .await
            } else {
                let answers = posted.answers(&ask.request);
                self.backend
                    .answer(&ask.id, answers, &caller, Via::McpApp)
                    .await
            };
            if done.is_ok() {
                self.drafts.forget(&draft).await;
            }
            state.settle(done.map_err(BackendError::for_page));
        }
        result(shown(state, questions, lang))
    }
}

/// [`SHOW_TOOL`]'s result: the HTML as `structuredContent`, and the
/// ask's status in words.
fn result(shown: Shown) -> CallToolResult {
    let text = match shown.status {
        Some(status) => format!("The ask is {}.", status.as_str()),
        None => "The ask could not be shown.".to_owned(),
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = serde_json::to_value(&shown).ok();
    result
}

//! [`DRAFT_TOOL`]: what the person has entered in askdesk's form in a
//! host, kept on the desk for that ask and the client that shows it, so
//! that a view the host unmounts and shows again (the conversation
//! scrolled, or reloaded) gets it back. Kept as the form's fields, the
//! one shape both the WebAssembly view and the script send; forgotten
//! when the ask ends.

use super::{schema, tool_meta, AskDesk};
use crate::mcp::{
    kept::Kept,
    replies::{read_arguments, tool_error},
    tools::caller,
};
use app::hosted::{KeepDraft, KeptDraft, DRAFT_BYTES, DRAFT_FIELDS, DRAFT_TOOL};
use desk::Caller;
use rmcp::{
    model::{CallToolResult, ContentBlock, JsonObject},
    service::RequestContext,
    tool, tool_router, RoleServer,
};
use serde::{Deserialize, Serialize};

/// A kept draft: the form's fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Draft(pub Vec<(String, String)>);

impl Kept for Draft {
    const ROW: &'static str = "askdesk-app-draft:";
    const WHAT: &'static str = "a draft in askdesk's form in a host";
}

/// The key of the draft of ask `id` in the form `caller`'s client shows:
/// an ask's id has no colon.
pub fn key(id: &str, caller: &Caller) -> String {
    format!("{id}:{}", caller.name().unwrap_or_default())
}

/// Why `fields` are too many or too long to keep, if they are.
fn too_big(fields: &[(String, String)]) -> Option<String> {
    let bytes: usize = fields.iter().map(|(k, v)| k.len() + v.len()).sum();
    (fields.len() > DRAFT_FIELDS || bytes > DRAFT_BYTES).then(|| {
        format!(
            "{DRAFT_TOOL}: fields may hold at most {DRAFT_FIELDS} fields and {DRAFT_BYTES} bytes \
             of names and values"
        )
    })
}

#[tool_router(router = draft_tools, vis = "pub(super)")]
impl AskDesk {
    /// [`DRAFT_TOOL`]: keeps the fields given, or reads what is kept.
    #[tool(
        title = "Keep a draft (askdesk's form)",
        description = "For askdesk's form in the host only: keeps what the person has entered \
                       in the form of an open ask (fields), or, without fields, gives back what \
                       is kept; an ended ask's draft is forgotten.",
        input_schema = schema::input_of::<KeepDraft>(),
        meta = tool_meta(&["app"])
    )]
    async fn keep_draft(
        &self,
        arguments: JsonObject,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let input: KeepDraft = match read_arguments(DRAFT_TOOL, arguments, None) {
            Ok(input) => input,
            Err(refusal) => return refusal,
        };
        if let Some(why) = input.fields.as_deref().and_then(too_big) {
            return tool_error(why);
        }
        let caller = caller(&context);
        let key = key(&input.ask_id, &caller);
        match self.backend.get(&input.ask_id, &caller).await {
            Ok(ask) if ask.status.is_finished() => {
                self.drafts.forget(&key).await;
                return kept(KeptDraft::default());
            }
            Ok(_) => {}
            Err(e) => return tool_error(format!("{DRAFT_TOOL}: {}", e.for_page())),
        }
        match input.fields {
            Some(fields) if fields.is_empty() => self.drafts.forget(&key).await,
            Some(fields) => {
                self.drafts.keep(&key, &Draft(fields.clone())).await;
                return kept(KeptDraft { fields });
            }
            None => {}
        }
        let fields = self.drafts.get(&key).await.unwrap_or_default().0;
        kept(KeptDraft { fields })
    }
}

/// [`DRAFT_TOOL`]'s result.
fn kept(draft: KeptDraft) -> CallToolResult {
    let text = match draft.fields.len() {
        0 => "No draft is kept.".to_owned(),
        n => format!("A draft of {n} fields is kept."),
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = serde_json::to_value(&draft).ok();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draft_is_kept_per_ask_and_per_person() {
        let person = |name: &str| {
            Caller::Person(desk::Person {
                name: name.to_owned(),
                role: interaction::Role::Agent,
                created_at: interaction::Timestamp::from_ms(0),
                relays_answers: true,
                email: None,
            })
        };
        let ask = "0123456789abcdef0123456789abcdef";
        assert_ne!(key(ask, &person("a")), key(ask, &person("b")));
        assert_ne!(key(ask, &person("a")), key(ask, &Caller::Unnamed));
        assert_ne!(
            key(ask, &Caller::Unnamed),
            key(&ask.replace('0', "1"), &Caller::Unnamed)
        );
    }

    #[test]
    fn a_draft_too_big_is_refused_naming_the_rule() {
        let field = |value: String| ("other.q1".to_owned(), value);
        assert!(too_big(&[field("x".repeat(1_000))]).is_none());
        let why = too_big(&[field("x".repeat(DRAFT_BYTES))]).expect("too long");
        assert!(why.contains("bytes"), "{why}");
        let many = vec![field(String::new()); DRAFT_FIELDS + 1];
        assert!(too_big(&many).is_some());
    }
}

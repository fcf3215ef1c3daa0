//! The answering form inside an agent's host, as an MCP App: the host
//! fetches the resource `ui://askdesk/ask` (its document, [`document`],
//! rendered by the server with the `hosted` bundle inline), shows it in a
//! sandboxed frame in the conversation, and pushes it the result of the
//! `ask_user` call it belongs to, which names the ask. The view then reads
//! the ask and shows the page's own form ([`crate::ask::form::AskForm`] and
//! its outcome, over one [`FormState`]), sending through the host with the
//! app-only tools [`ANSWER_TOOL`] and [`READ_TOOL`]; the server's one
//! validator decides, as for the page.
//!
//! The types here are the tools' arguments and results on both sides: the
//! server (`server::mcp::app`) reads and writes the same ones.

use crate::{
    ask::FormOrOutcome,
    browser::host::{self, HostNews},
    error::ServerError,
    i18n::{Lang, Speak},
};
use askform::{
    form::Posted,
    state::{FormState, Outgoing},
};
use interaction::{AnswerItem, Ask, Decline};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The app-only tool that answers or declines the ask with what the person
/// gave in the view.
pub const ANSWER_TOOL: &str = "answer_in_app";
/// The app-only tool that reads the ask, waiting a while for it to end.
pub const READ_TOOL: &str = "read_ask";
/// The element the view lives in.
pub const ROOT_ID: &str = "askdesk-app";
/// How long one [`READ_TOOL`] call waits for the ask to end, in seconds:
/// below the timeouts hosts give a tool call.
pub const READ_WAIT_SECONDS: u64 = 25;

/// [`ANSWER_TOOL`]'s arguments: the answers, or a decline. The server
/// lists their schema as the tool's input (the docs are its descriptions).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnswerInApp {
    /// The ask's id, from ask_user's result.
    pub ask_id: String,
    /// The person's answers, one item per question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<Vec<AnswerItem>>,
    /// Instead of answers: the person does not answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decline: Option<Decline>,
}

/// [`READ_TOOL`]'s arguments, listed as its input schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadAsk {
    /// The ask's id, from ask_user's result.
    pub ask_id: String,
    /// Wait up to this long, in seconds, for the ask to end.
    #[serde(default)]
    #[cfg_attr(feature = "ssr", schemars(range(max = READ_WAIT_SECONDS)))]
    pub wait_seconds: Option<u64>,
}

/// The app-only tool that shows the ask as the server renders it (the same
/// components, rendered on the server), and answers or declines with the
/// form's fields first when asked to: for a view whose host runs no
/// WebAssembly, which the `hosted-script` bundle drives.
pub const SHOW_TOOL: &str = "show_ask";

/// [`SHOW_TOOL`]'s arguments, listed as its input schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShowAsk {
    /// The ask's id, from ask_user's result.
    pub ask_id: String,
    /// The form's fields as a browser would post them, in order: [name, value] pairs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<(String, String)>,
    /// Answer (or decline, as the fields' intent says) with the fields first.
    #[serde(default)]
    pub send: bool,
    /// The host's locale (BCP 47), for the form's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
}

/// [`SHOW_TOOL`]'s `structuredContent`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Shown {
    /// The form with what was entered and the server's problems, or how
    /// the ask ended, as HTML for the view's element.
    pub html: String,
    /// The ask's status after the call; none when it could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<interaction::AskStatus>,
}

/// The app-only tool that keeps what the person has entered in the view,
/// on the desk, for that ask and the client that shows it: a host may
/// unmount the view (the conversation scrolls, or reloads) and show it
/// again; the opaque frame has no storage of its own.
pub const DRAFT_TOOL: &str = "keep_draft";

/// [`DRAFT_TOOL`]'s arguments, listed as its input schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeepDraft {
    /// The ask's id, from ask_user's result.
    pub ask_id: String,
    /// What the form holds now, as a browser would post it: [name, value] pairs; none to
    /// only read what is kept, empty to forget it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ssr", schemars(length(max = DRAFT_FIELDS)))]
    pub fields: Option<Vec<(String, String)>>,
}

/// How many fields a kept draft may hold.
pub const DRAFT_FIELDS: usize = 1_000;
/// How many bytes of names and values a kept draft may hold.
pub const DRAFT_BYTES: usize = 64 * 1024;

/// [`DRAFT_TOOL`]'s `structuredContent`: the draft kept, as fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeptDraft {
    /// The fields kept; none when nothing is (or the ask has ended).
    pub fields: Vec<(String, String)>,
}

#[cfg(feature = "ssr")]
mod served;
#[cfg(feature = "ssr")]
pub use served::{document, inlinable, shown, shown_failure};

/// Both tools' `structuredContent`: the ask as it stands after the call,
/// or why the call was refused, as the page's server functions say it.
pub type AppReply = Result<Ask, ServerError>;

/// What the view shows.
#[derive(Clone)]
enum Stage {
    /// The host has not said which ask yet.
    Waiting,
    /// The ask, as a form or how it ended.
    Open {
        form: RwSignal<FormState>,
        questions: Vec<interaction::Question>,
    },
    /// The tool call failed before it opened an ask.
    Cancelled,
    /// The ask could not be read.
    Failed(ServerError),
}

/// The view: introduces itself to the host, waits for the ask, and shows
/// its form.
#[component]
pub fn HostedAsk() -> impl IntoView {
    let stage = RwSignal::new(Stage::Waiting);
    let (lang, set_lang) = signal(Lang::default());
    let news = move |news: HostNews| match news {
        HostNews::ToolResult { ask_id: Some(id) } => {
            if matches!(stage.get_untracked(), Stage::Waiting) {
                leptos::task::spawn_local(open(id, stage));
            }
        }
        HostNews::ToolResult { ask_id: None } | HostNews::ToolCancelled => {
            if matches!(stage.get_untracked(), Stage::Waiting) {
                stage.set(Stage::Cancelled);
            }
        }
    };
    leptos::task::spawn_local(async move {
        match host::connect(news).await {
            Ok(context) => {
                if let Some(chosen) = context.locale.as_deref().and_then(Lang::parse) {
                    set_lang.set(chosen);
                }
            }
            Err(e) => stage.set(Stage::Failed(e)),
        }
    });
    move || {
        provide_context(lang.get());
        let t = lang.get().t();
        match stage.get() {
            Stage::Waiting => {
                view! { <p class="hosted-status">{t.waiting_for_question}</p> }.into_any()
            }
            Stage::Cancelled => view! { <p class="hosted-status">{t.call_ended}</p> }.into_any(),
            Stage::Failed(e) => {
                view! { <p class="refused" role="alert">{t.server_error(&e)}</p> }.into_any()
            }
            Stage::Open { form, questions } => view! { <HostedForm form questions/> }.into_any(),
        }
    }
}

/// Reads the ask `id` and opens its form.
async fn open(id: String, stage: RwSignal<Stage>) {
    let read = ReadAsk {
        ask_id: id,
        wait_seconds: None,
    };
    match read_ask(&read).await {
        Ok(ask) => {
            // Shown again (the host unmounted the view): what the person had
            // entered, as the desk kept it.
            let kept = if ask.status.is_finished() {
                None
            } else {
                kept_draft(&ask.id, None)
                    .await
                    .ok()
                    .filter(|fields| !fields.is_empty())
                    .map(|fields| Posted::from_fields(&ask.id, &ask.request, &fields))
            };
            let form = RwSignal::new(FormState::new(&ask.id, &ask.request, kept.as_ref()));
            let questions = ask.request.questions().to_vec();
            if ask.status.is_finished() {
                form.update(|s| s.settle(Ok(ask)));
            }
            stage.set(Stage::Open { form, questions });
        }
        Err(e) => stage.set(Stage::Failed(e)),
    }
}

async fn read_ask(read: &ReadAsk) -> Result<Ask, ServerError> {
    host::call_tool::<AppReply>(READ_TOOL, read).await?
}

/// Keeps `fields` as the draft of the ask `ask_id` on the desk ([`DRAFT_TOOL`]),
/// or, with none, reads what is kept.
async fn kept_draft(
    ask_id: &str,
    fields: Option<Vec<(String, String)>>,
) -> Result<Vec<(String, String)>, ServerError> {
    let call = KeepDraft {
        ask_id: ask_id.to_owned(),
        fields,
    };
    Ok(host::call_tool::<KeptDraft>(DRAFT_TOOL, &call)
        .await?
        .fields)
}

/// Keeps the form's draft on the desk as the person goes: each change
/// that stands for a moment goes, so a view the host shows again gets it
/// back.
fn keep_draft(form: RwSignal<FormState>) {
    let changes = StoredValue::new(0_u64);
    Effect::new(move |first: Option<()>| {
        let fields = form.with(|s| {
            let mut posted = s.saved();
            posted.reason = s.reason().to_owned();
            posted.fields()
        });
        if first.is_none() {
            return;
        }
        changes.update_value(|n| *n += 1);
        let change = changes.get_value();
        let ask_id = form.with_untracked(|s| s.ask_id().to_owned());
        leptos::task::spawn_local(async move {
            crate::browser::sleep(std::time::Duration::from_millis(DRAFT_PAUSE_MS)).await;
            let ended = form.with_untracked(|s| s.ended().is_some());
            if changes.get_value() == change && !ended {
                let _ = kept_draft(&ask_id, Some(fields)).await;
            }
        });
    });
}

/// How long a change stands before the draft goes to the desk, in
/// milliseconds.
const DRAFT_PAUSE_MS: u64 = 400;

/// The ask's form, sending through the host, and following the ask until
/// it ends here or elsewhere.
#[component]
fn HostedForm(form: RwSignal<FormState>, questions: Vec<interaction::Question>) -> impl IntoView {
    let send = Callback::new(move |outgoing: Outgoing| {
        let ask_id = form.with_untracked(|s| s.ask_id().to_owned());
        let (answers, decline) = match outgoing {
            Outgoing::Answer(answers) => (Some(answers.answers), None),
            Outgoing::Decline(reason) => (
                None,
                Some(Decline {
                    reason: Some(reason),
                }),
            ),
        };
        let call = AnswerInApp {
            ask_id,
            answers,
            decline,
        };
        leptos::task::spawn_local(async move {
            let result = host::call_tool::<AppReply>(ANSWER_TOOL, &call)
                .await
                .and_then(|reply| reply);
            form.update(|s| s.settle(result));
        });
    });
    leptos::task::spawn_local(follow(form));
    keep_draft(form);
    view! { <FormOrOutcome form questions send/> }
}

/// Reads the ask again and again, each read waiting a while, until it has
/// ended: by this view, or elsewhere (then the form gives way to how).
async fn follow(form: RwSignal<FormState>) {
    let read = ReadAsk {
        ask_id: form.with_untracked(|s| s.ask_id().to_owned()),
        wait_seconds: Some(READ_WAIT_SECONDS),
    };
    // A host that stopped answering is given a few more tries.
    let mut failures = 0;
    while form.with_untracked(|s| s.ended().is_none()) && failures < 3 {
        match read_ask(&read).await {
            Ok(ask) if ask.status.is_finished() => {
                form.update(|s| s.end_elsewhere(ask));
                return;
            }
            Ok(_) => failures = 0,
            Err(_) => {
                failures += 1;
                crate::browser::sleep(std::time::Duration::from_secs(2)).await;
            }
        }
    }
}

/// Starts the view in the document the server rendered ([`document`]):
/// the bundle's entry point calls this.
pub fn start() {
    #[cfg(feature = "hydrate")]
    {
        let Some(root) = document().get_element_by_id(ROOT_ID).and_then(|e| {
            leptos::wasm_bindgen::JsCast::dyn_into::<leptos::web_sys::HtmlElement>(e).ok()
        }) else {
            return;
        };
        leptos::mount::mount_to(root, HostedAsk).forget();
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;

    #[test]
    fn the_tools_arguments_read_as_the_server_takes_them() {
        let call: AnswerInApp = serde_json::from_value(serde_json::json!({
            "askId": "a1",
            "answers": [{"id": "q1", "selected": ["Yes"], "custom": "and more"}]
        }))
        .expect("answers");
        assert_eq!(call.ask_id, "a1");
        assert_eq!(
            call.answers.expect("answers")[0].custom.as_deref(),
            Some("and more")
        );
        let wrong =
            serde_json::from_value::<ReadAsk>(serde_json::json!({"askId": "a1", "wait": 3}));
        assert!(wrong.is_err());
    }
}

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
use interaction::{Ask, Decline};
use leptos::prelude::*;

mod tools;

pub use tools::*;

#[cfg(feature = "ssr")]
mod served;
#[cfg(feature = "ssr")]
pub use served::{document, inlinable, shown, shown_failure};

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
        let reply = match outgoing {
            Outgoing::Answer(answers) => AppAnswer::Answers(answers.answers),
            Outgoing::Decline(reason) => AppAnswer::Decline(Decline {
                reason: Some(reason),
            }),
        };
        let call = AnswerInApp { ask_id, reply };
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
        let AppAnswer::Answers(answers) = &call.reply else {
            panic!("answers: {call:?}")
        };
        assert_eq!(answers[0].custom.as_deref(), Some("and more"));
        // What the view sends reads back as it was.
        let sent = serde_json::to_value(&call).expect("serialized");
        assert_eq!(sent["answers"][0]["selected"][0], "Yes");
        assert!(sent.get("decline").is_none(), "{sent}");
        let declined: AnswerInApp =
            serde_json::from_value(serde_json::json!({"askId": "a1", "decline": {}}))
                .expect("a decline");
        assert!(matches!(declined.reply, AppAnswer::Decline(_)));
        // Answers and a decline, or neither, is not a call.
        for wrong in [
            serde_json::json!({"askId": "a1", "answers": [], "decline": {}}),
            serde_json::json!({"askId": "a1"}),
        ] {
            let refused = serde_json::from_value::<AnswerInApp>(wrong).expect_err("refused");
            assert!(refused.to_string().contains("one of the two"), "{refused}");
        }
        let wrong =
            serde_json::from_value::<ReadAsk>(serde_json::json!({"askId": "a1", "wait": 3}));
        assert!(wrong.is_err());
    }
}

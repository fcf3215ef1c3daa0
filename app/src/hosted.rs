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
use askform::state::{FormState, Outgoing};
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

#[cfg(feature = "ssr")]
mod served;
#[cfg(feature = "ssr")]
pub use served::{shown, shown_failure};

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
            let form = RwSignal::new(FormState::new(&ask.id, &ask.request, None));
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

/// The view's document, as the server serves it for `ui://askdesk/ask`:
/// the site's stylesheet and two scripts inline (an MCP App loads nothing
/// from elsewhere; both must be [`inlinable`]): `without_wasm`, which
/// drives the server-rendered form ([`SHOW_TOOL`]) where the host refuses
/// WebAssembly and does nothing elsewhere, then `wasm`, the `hosted`
/// bundle. The element carries the words the script shows before the
/// ask arrives; a host that runs no scripts at all shows the line the
/// stylesheet hides once the view has filled its element.
#[cfg(feature = "ssr")]
pub fn document(wasm: &str, without_wasm: &str, stylesheet: &str) -> String {
    use crate::page_words::SpeakPage;
    let lang = Lang::default();
    let (t, words) = (lang.t(), lang.page());
    let body = view! {
        <html lang=lang.tag()>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <title>"askdesk"</title>
                <style inner_html=stylesheet.to_owned()></style>
            </head>
            <body class="hosted">
                <main
                    id=ROOT_ID
                    class="ask-page embed"
                    data-waiting=t.waiting_for_question
                    data-ended=t.call_ended
                ></main>
                <p class="hosted-fallback">{words.hosted_without_scripts}</p>
                <script inner_html=without_wasm.to_owned()></script>
                <script inner_html=wasm.to_owned()></script>
            </body>
        </html>
    };
    format!("<!DOCTYPE html>{}", body.to_html())
}

/// Whether `script` may stand as the text of an inline `<script>`: no
/// `</script` to end the element, no `<!--` to change how HTML reads it,
/// no NUL for the parser to replace. `scripts/wasm-module.mjs --inline`
/// writes the `hosted` bundle so; this is the check, not a second escaper.
#[cfg(feature = "ssr")]
pub fn inlinable(script: &str) -> bool {
    !script.contains('\0')
        && !script.contains("<!--")
        && !script.to_ascii_lowercase().contains("</script")
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;

    #[test]
    fn a_script_that_could_end_its_element_early_is_not_inlinable() {
        for script in [
            r#"var s="a</script>";"#,
            r#"var s="a</SCRIPT>";"#,
            "var s=\"<!--\";",
            "var s=\"\0\";",
        ] {
            assert!(!inlinable(script), "{script:?}");
        }
        assert!(inlinable(r#"var s="a<\/script>\x3C!--\0",t=1<2;"#));
    }

    #[test]
    fn the_document_holds_the_style_the_scripts_and_the_fallback() {
        let html = document("start()", "drive()", "main{color:red}");
        assert!(
            html.starts_with("<!DOCTYPE html><html lang=\"en\">"),
            "{html}"
        );
        assert!(html.contains("<style>main{color:red}</style>"), "{html}");
        let wasm = html
            .find("<script>start()</script>")
            .expect("the wasm bundle");
        let without = html
            .find("<script>drive()</script>")
            .expect("the script path");
        assert!(without < wasm, "{html}");
        assert!(html.contains("data-waiting=\"Waiting"), "{html}");
        assert!(html.contains(&format!("id=\"{ROOT_ID}\"")), "{html}");
        assert!(html.contains("class=\"hosted-fallback\""), "{html}");
    }

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

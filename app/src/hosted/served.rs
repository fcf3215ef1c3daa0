//! What the server renders for askdesk's form in a host: the view's
//! document ([`document`]), and [`super::SHOW_TOOL`]'s HTML, the ask's form or
//! outcome rendered by the components the WebAssembly view mounts
//! ([`crate::ask::FormOrOutcome`] over one [`FormState`]), for a view whose
//! host runs no WebAssembly. Its script puts the HTML in the view's element
//! and posts the form's fields back through the tool.

use super::{Shown, ROOT_ID};
use crate::{
    ask::FormOrOutcome,
    error::ServerError,
    i18n::{Lang, Speak},
};
use askform::state::FormState;
use interaction::Question;
use leptos::prelude::*;

/// The form of `state` (what was entered, the server's problems, how the
/// ask ended), in `lang`.
pub fn shown(state: FormState, questions: Vec<Question>, lang: Lang) -> Shown {
    let status = state.ended().map(|ended| ended.ask.status);
    let owner = Owner::new();
    let html = owner.with(|| {
        provide_context(lang);
        let form = RwSignal::new(state);
        // The script sends; the components' own handlers never run here.
        let send = Callback::new(|_| {});
        view! { <FormOrOutcome form questions send/> }.to_html()
    });
    Shown {
        html,
        status: status.or(Some(interaction::AskStatus::Pending)),
    }
}

/// The view's document, as the server serves it for `ui://askdesk/ask`:
/// the site's stylesheet and two scripts inline (an MCP App loads nothing
/// from elsewhere; both must be [`inlinable`]): `without_wasm`, which
/// drives the server-rendered form ([`super::SHOW_TOOL`]) where the host refuses
/// WebAssembly and does nothing elsewhere, then `wasm`, the `hosted`
/// bundle. The element carries the words the script shows before the
/// ask arrives; a host that runs no scripts at all shows the line the
/// stylesheet hides once the view has filled its element.
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
pub fn inlinable(script: &str) -> bool {
    !script.contains('\0')
        && !script.contains("<!--")
        && !script.to_ascii_lowercase().contains("</script")
}

/// Why the ask could not be shown, in `lang`.
pub fn shown_failure(error: &ServerError, lang: Lang) -> Shown {
    let text = lang.t().server_error(error);
    let html = view! { <p class="refused" role="alert">{text}</p> }.to_html();
    Shown { html, status: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use askform::form::Posted;
    use interaction::{Ask, ValidRequest};

    fn ask(status: &str) -> Ask {
        serde_json::from_value(serde_json::json!({
            "id": "0123456789abcdef0123456789abcdef",
            "status": status,
            "url": "",
            "createdAt": "2026-12-05T10:00:00Z",
            "request": {"questions": [{
                "id": "q1", "question": "Which?", "multiSelect": true,
                "options": [{"label": "Auth"}, {"label": "Logging"}]
            }]},
        }))
        .expect("ask")
    }

    fn fields(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    fn state(ask: &Ask, posted: &[(&str, &str)]) -> FormState {
        let request: &ValidRequest = &ask.request;
        let names = crate::form::field_names(request);
        let posted = Posted::from_fields(&ask.id, request, &fields(posted));
        assert!(!names.is_empty());
        FormState::new(&ask.id, request, Some(&posted))
    }

    #[test]
    fn the_form_comes_back_with_what_was_entered_labels_and_text_together() {
        let pending = ask("pending");
        let names = crate::form::field_names(&pending.request);
        let (labels, custom) = (&names[0], &names[1]);
        let state = state(&pending, &[(labels, "Logging"), (custom, "and tracing")]);
        let shown = shown(state, pending.request.questions().to_vec(), Lang::default());
        assert_eq!(shown.status, Some(interaction::AskStatus::Pending));
        assert!(shown.html.starts_with("<form "), "{}", shown.html);
        assert!(shown.html.contains("and tracing"), "{}", shown.html);
        let checked = shown
            .html
            .split("<input")
            .filter(|input| input.contains("checked"))
            .count();
        assert_eq!(checked, 1, "{}", shown.html);
    }

    #[test]
    fn an_ask_that_ended_meanwhile_keeps_the_text_typed() {
        let pending = ask("pending");
        let names = crate::form::field_names(&pending.request);
        let mut state = state(&pending, &[(&names[1], "typed meanwhile")]);
        state.end_elsewhere(ask("cancelled"));
        let shown = shown(state, pending.request.questions().to_vec(), Lang::default());
        assert_eq!(shown.status, Some(interaction::AskStatus::Cancelled));
        assert!(!shown.html.contains("<form"), "{}", shown.html);
        assert!(shown.html.contains("typed meanwhile"), "{}", shown.html);
    }

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
    fn a_failure_is_said_in_words() {
        let shown = shown_failure(&ServerError::NotFound, Lang::default());
        assert_eq!(shown.status, None);
        assert!(shown.html.contains("role=\"alert\""), "{}", shown.html);
    }
}

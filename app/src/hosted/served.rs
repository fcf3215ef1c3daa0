//! [`super::SHOW_TOOL`]'s HTML: the ask's form or outcome, rendered on the
//! server by the components the WebAssembly view mounts
//! ([`crate::ask::FormOrOutcome`] over one [`FormState`]), for a view whose
//! host runs no WebAssembly. Its script puts the HTML in the view's element
//! and posts the form's fields back through the tool.

use super::Shown;
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
    fn a_failure_is_said_in_words() {
        let shown = shown_failure(&ServerError::NotFound, Lang::default());
        assert_eq!(shown.status, None);
        assert!(shown.html.contains("role=\"alert\""), "{}", shown.html);
    }
}

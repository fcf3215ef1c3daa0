//! The first page of askdesk: one sample question answered end to end.
//!
//! It exercises the whole pipeline (server rendering from `interaction`
//! types, hydration, a reactive draft, a server function that validates with
//! the one validator) and will give way to real asks stored by the server.

use crate::{error::ServerError, question::QuestionField};
use interaction::{AnswerItem, Question, QuestionDraft, QuestionOption};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The sample question the page shows.
pub fn demo_question() -> Question {
    let option = |label: &str, description: &str| QuestionOption {
        label: label.to_owned(),
        description: Some(description.to_owned()),
        preview: None,
    };
    Question {
        id: "features".to_owned(),
        question: "Which features should the first release have?".to_owned(),
        header: Some("Features".to_owned()),
        options: vec![
            option("Auth", "Sign-in with a token"),
            option("Logging", "Structured logs on stderr"),
            option("Metrics", "Counters for answered and pending asks"),
        ],
        multi_select: true,
    }
}

/// What the server says it received.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Receipt {
    /// A sentence the server wrote about the answer it got.
    pub message: String,
}

/// Validates an answer to the sample question and says what arrived.
#[server(prefix = "/rpc", endpoint = "demo_submit")]
pub async fn submit_demo(item: AnswerItem) -> Result<Receipt, ServerError> {
    let request = interaction::ValidRequest::new(interaction::Request {
        questions: vec![demo_question()],
    })
    .map_err(ServerError::Invalid)?;
    let answers = interaction::Answers {
        answers: vec![item],
    };
    let valid = request
        .validate_answers(&answers)
        .map_err(ServerError::Invalid)?;
    Ok(Receipt {
        message: format!("The server accepted {}.", summary(&valid.items()[0])),
    })
}

/// A short rendering of an answer item, e.g. `Auth, Logging + "Rate limiting"`.
pub fn summary(item: &AnswerItem) -> String {
    let labels = item.selected.join(", ");
    match (&item.custom, labels.is_empty()) {
        (None, _) => labels,
        (Some(custom), true) => interaction::json_quote(custom),
        (Some(custom), false) => format!("{labels} + {}", interaction::json_quote(custom)),
    }
}

/// The sample question with a live summary and a submit button.
#[component]
pub fn DemoForm() -> impl IntoView {
    let draft = RwSignal::new(QuestionDraft::new(&demo_question()));
    let submit = ServerAction::<SubmitDemo>::new();
    // Derived once per change; the summary, the button and submit read it.
    let status = Memo::new(move |_| draft.with(QuestionDraft::status));
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if let Ok(item) = status.get_untracked() {
            submit.dispatch(SubmitDemo { item });
        }
    };
    let live = move || match status.get() {
        Ok(item) => summary(&item),
        Err(reason) => reason.to_string(),
    };
    let reply = move || match submit.value().get() {
        None => String::new(),
        Some(Ok(receipt)) => receipt.message,
        Some(Err(e)) => e.to_string(),
    };
    view! {
        <form class="ask" on:submit=on_submit>
            <QuestionField draft/>
            <p class="summary">"Your answer: " <output id="summary">{live}</output></p>
            <button type="submit" disabled=move || status.with(Result::is_err) || submit.pending().get()>
                "Submit"
            </button>
        </form>
        <p id="reply" role="status" aria-label="Server reply">{reply}</p>
    }
}

/// The page at `/`.
#[component]
pub fn DemoPage() -> impl IntoView {
    view! {
        <header class="site">
            <h1>"askdesk"</h1>
            <p>"Questions from your agents, answered here."</p>
        </header>
        <DemoForm/>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_names_labels_and_quotes_other_text() {
        let item = |selected: &[&str], custom: Option<&str>| AnswerItem {
            id: "features".to_owned(),
            selected: selected.iter().map(|s| (*s).to_owned()).collect(),
            custom: custom.map(str::to_owned),
        };
        assert_eq!(
            summary(&item(&["Auth", "Logging"], Some("Rate limiting"))),
            r#"Auth, Logging + "Rate limiting""#
        );
        assert_eq!(summary(&item(&["Auth"], None)), "Auth");
        assert_eq!(summary(&item(&[], Some("x\ny"))), r#""x\ny""#);
    }
}

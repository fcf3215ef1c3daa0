//! The first page of askdesk: one sample question answered end to end.
//!
//! It exercises the whole pipeline (server rendering from `interaction`
//! types, hydration, signals, a server function) and will give way to real
//! asks stored by the server.

use crate::{error::ServerError, question::QuestionField};
use interaction::{Question, QuestionOption};
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

/// Receives an answer to the sample question and says what arrived.
#[server(prefix = "/rpc", endpoint = "demo_submit")]
pub async fn submit_demo(
    question_id: String,
    #[server(default)] selected: Vec<String>,
    custom: String,
) -> Result<Receipt, ServerError> {
    if question_id != demo_question().id {
        return Err(ServerError::UnknownQuestion { id: question_id });
    }
    let labels: Vec<String> = selected.iter().map(|l| format!("{l:?}")).collect();
    Ok(Receipt {
        message: format!(
            "The server received [{}] and Other {:?}.",
            labels.join(", "),
            custom
        ),
    })
}

/// The live summary of an answer in progress, e.g. `Auth, Logging + "Rate limiting"`.
pub fn summary(selected: &[String], custom: &str) -> String {
    match (selected.is_empty(), custom.is_empty()) {
        (true, true) => "Nothing chosen yet".to_owned(),
        (false, true) => selected.join(", "),
        (true, false) => format!("{custom:?}"),
        (false, false) => format!("{} + {custom:?}", selected.join(", ")),
    }
}

/// The sample question with a live summary and a submit button.
#[component]
pub fn DemoForm() -> impl IntoView {
    let question = demo_question();
    let question_id = question.id.clone();
    let selected = RwSignal::new(Vec::<String>::new());
    let custom = RwSignal::new(String::new());
    let submit = ServerAction::<SubmitDemo>::new();
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        submit.dispatch(SubmitDemo {
            question_id: question_id.clone(),
            selected: selected.get_untracked(),
            custom: custom.get_untracked(),
        });
    };
    let reply = move || match submit.value().get() {
        None => String::new(),
        Some(Ok(receipt)) => receipt.message,
        Some(Err(e)) => e.to_string(),
    };
    view! {
        <form class="ask" on:submit=on_submit>
            <QuestionField question selected custom/>
            <p class="summary">
                "Your answer: "
                <output id="summary">{move || selected.with(|s| custom.with(|c| summary(s, c)))}</output>
            </p>
            <button type="submit" disabled=move || submit.pending().get()>"Submit"</button>
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
        let labels = vec!["Auth".to_owned(), "Logging".to_owned()];
        assert_eq!(
            summary(&labels, "Rate limiting"),
            r#"Auth, Logging + "Rate limiting""#
        );
        assert_eq!(summary(&[], ""), "Nothing chosen yet");
        assert_eq!(summary(&[], "x"), r#""x""#);
    }
}

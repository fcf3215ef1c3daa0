//! The problems a server refused an answer for, as a form's fields and
//! the form itself show them.

use crate::i18n::use_lang;
use interaction::Problem;
use leptos::prelude::*;

/// Problems the server reported, each worded in the page's language from
/// its stable code.
#[component]
pub fn ProblemList(
    /// The problems, in the order the validator found them.
    problems: Vec<Problem>,
    /// The list's element id, for `aria-describedby`.
    #[prop(optional, into)]
    id: Option<String>,
) -> impl IntoView {
    let lang = use_lang();
    let items = problems
        .iter()
        .map(|p| view! { <li>{p.text(lang)}</li> })
        .collect_view();
    view! { <ul class="problems" id=id>{items}</ul> }
}

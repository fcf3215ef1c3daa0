//! One question rendered as a form group, backed by an `interaction` draft.

use crate::ask::state::FormState;
use crate::form::{other_field, selected_field};
use crate::i18n::Speak;
use interaction::{Problem, Question, QuestionDraft};
use leptos::{either::Either, prelude::*};

/// A question as a `fieldset`: its header and text as the legend, its options
/// as native checkboxes (multi-select) or radios (single-select) with an
/// "Other" box for free text, or a textarea when it has no options.
///
/// Every change goes through the draft, which owns the rules (on
/// single-select, choosing one option un-chooses the others, and Other text
/// overrides the choice). The inputs also carry their initial state as HTML
/// attributes and field names, so the form works before and without the
/// wasm.
#[component]
pub fn QuestionField(
    /// The whole form's state; this field shows and changes the draft of
    /// one question, and shows the problems the server reported for it.
    form: RwSignal<FormState>,
    /// The position of this field's question in the batch.
    index: usize,
    /// The question itself.
    question: Question,
) -> impl IntoView {
    let read = move |f: &dyn Fn(&QuestionDraft) -> bool| {
        form.with(|s| s.batch().draft(index).is_some_and(f))
    };
    let edit = move |f: &dyn Fn(&mut QuestionDraft)| form.update(|s| s.edit(index, f));
    let custom_of = move |s: &FormState| {
        s.batch()
            .draft(index)
            .map(|d| d.custom().to_owned())
            .unwrap_or_default()
    };
    let custom = move || form.with(custom_of);
    let initial_custom = form.with_untracked(custom_of);
    let problems = {
        let id = question.id.clone();
        Memo::new(move |_| form.with(|s| s.problems_of(Some(&id))))
    };

    let t = crate::i18n::use_lang().t();
    let legend_id = format!("{}-legend", question.id);
    let problems_id = format!("{}-problems", question.id);
    let input_type = if question.multi_select {
        "checkbox"
    } else {
        "radio"
    };
    let options = question
        .options
        .iter()
        .enumerate()
        .map(|(i, option)| {
            let input_id = format!("{}-option-{i}", question.id);
            let description_id = format!("{input_id}-description");
            let description = option.description.clone().map(|d| {
                view! { <span class="option-description" id=description_id.clone()>{d}</span> }
            });
            let described_by = option.description.is_some().then_some(description_id);
            let initially =
                form.with_untracked(|s| s.batch().draft(index).is_some_and(|d| d.is_checked(i)));
            view! {
                <div class="option">
                    <input
                        type=input_type
                        id=input_id.clone()
                        name=selected_field(&question.id)
                        value=option.label.clone()
                        aria-describedby=described_by
                        checked=initially
                        prop:checked=move || read(&|d| d.is_checked(i))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            edit(&|d| d.set_checked(i, on));
                        }
                    />
                    <label for=input_id>{option.label.clone()}</label>
                    {description}
                </div>
            }
        })
        .collect_view();
    let other_id = format!("{}-other", question.id);
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        edit(&|d| d.set_custom(text.clone()));
    };
    let free_text = if question.options.is_empty() {
        Either::Left(view! {
            <div class="free-text">
                <label for=other_id.clone()>{t.your_answer}</label>
                <textarea
                    id=other_id
                    name=other_field(&question.id)
                    rows="4"
                    prop:value=custom
                    on:input=on_input
                >
                    {initial_custom}
                </textarea>
            </div>
        })
    } else {
        let overrides = move || {
            read(&QuestionDraft::custom_overrides_choice).then(|| {
                view! { <p class="override">{t.overrides}</p> }
            })
        };
        Either::Right(view! {
            <div class="other">
                <label for=other_id.clone()>{t.other}</label>
                <input
                    type="text"
                    id=other_id
                    name=other_field(&question.id)
                    value=initial_custom
                    prop:value=custom
                    on:input=on_input
                />
                {overrides}
            </div>
        })
    };
    let problem_list = {
        let problems_id = problems_id.clone();
        move || {
            let problems = problems.get();
            (!problems.is_empty()).then(|| view! { <ProblemList problems id=problems_id.clone()/> })
        }
    };
    let header = question
        .header
        .clone()
        .map(|h| view! { <span class="header">{h}</span> " " });
    let described_by = {
        let problems_id = problems_id.clone();
        move || (!problems.with(Vec::is_empty)).then(|| problems_id.clone())
    };
    view! {
        <fieldset class="question" aria-describedby=described_by>
            <legend id=legend_id>{header}<span class="text">{question.question.clone()}</span></legend>
            {problem_list}
            {options}
            {free_text}
        </fieldset>
    }
}

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
    let lang = crate::i18n::use_lang();
    let items = problems
        .iter()
        .map(|p| view! { <li>{p.text(lang)}</li> })
        .collect_view();
    view! { <ul class="problems" id=id>{items}</ul> }
}

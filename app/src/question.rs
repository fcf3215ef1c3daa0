//! One question rendered as a form group, backed by an `interaction` draft.

use interaction::QuestionDraft;
use leptos::prelude::*;

/// A question as a `fieldset`: its header and text as the legend, its options
/// as native checkboxes (multi-select) or radios (single-select), and an
/// "Other" box for free text. Every change goes through the draft, which owns
/// the rules (on single-select, choosing one option un-chooses the others).
#[component]
pub fn QuestionField(
    /// The answer in progress; the question comes from it.
    draft: RwSignal<QuestionDraft>,
) -> impl IntoView {
    let question = draft.with_untracked(|d| d.question().clone());
    let legend = match &question.header {
        Some(header) => format!("{header}: {}", question.question),
        None => question.question.clone(),
    };
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
            view! {
                <div class="option">
                    <input
                        type=input_type
                        id=input_id.clone()
                        name=question.id.clone()
                        value=option.label.clone()
                        aria-describedby=described_by
                        prop:checked=move || draft.with(|d| d.is_checked(i))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            draft.update(|d| d.set_checked(i, on));
                        }
                    />
                    <label for=input_id>{option.label.clone()}</label>
                    {description}
                </div>
            }
        })
        .collect_view();
    let other_id = format!("{}-other", question.id);
    let overrides = move || {
        draft.with(|d| d.custom_overrides_choice()).then(|| {
            view! { <p class="override">"Your Other text replaces the chosen option."</p> }
        })
    };
    view! {
        <fieldset class="question">
            <legend>{legend}</legend>
            {options}
            <div class="other">
                <label for=other_id.clone()>"Other"</label>
                <input
                    type="text"
                    id=other_id
                    name=format!("{}.custom", question.id)
                    prop:value=move || draft.with(|d| d.custom().to_owned())
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        draft.update(|d| d.set_custom(text));
                    }
                />
                {overrides}
            </div>
        </fieldset>
    }
}

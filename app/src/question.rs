//! One question rendered as a form group.

use interaction::Question;
use leptos::prelude::*;

/// A question as a `fieldset`: its header and text as the legend, its options
/// as native checkboxes (multi-select) or radios (single-select), and an
/// "Other" box for free text.
#[component]
pub fn QuestionField(
    /// The question to show.
    question: Question,
    /// The labels the user has chosen, kept in option order.
    selected: RwSignal<Vec<String>>,
    /// What the user typed into "Other".
    custom: RwSignal<String>,
) -> impl IntoView {
    let legend = match &question.header {
        Some(header) => format!("{header}: {}", question.question),
        None => question.question.clone(),
    };
    let input_type = if question.multi_select {
        "checkbox"
    } else {
        "radio"
    };
    let all_labels: Vec<String> = question.options.iter().map(|o| o.label.clone()).collect();
    let options = question
        .options
        .iter()
        .enumerate()
        .map(|(i, option)| {
            let label = option.label.clone();
            let input_id = format!("{}-option-{i}", question.id);
            let description_id = format!("{input_id}-description");
            let is_checked = {
                let label = label.clone();
                move || selected.with(|s| s.contains(&label))
            };
            let all_labels = all_labels.clone();
            let multi = question.multi_select;
            let on_change = {
                let label = label.clone();
                move |ev| {
                    let on = event_target_checked(&ev);
                    selected.update(|s| {
                        let keep = |l: &String| {
                            if *l == label {
                                on
                            } else {
                                multi && s.contains(l)
                            }
                        };
                        *s = all_labels.iter().filter(|l| keep(l)).cloned().collect();
                    });
                }
            };
            let description = option.description.clone().map(|d| {
                view! { <span class="option-description" id=description_id.clone()>{d}</span> }
            });
            let described_by = option.description.is_some().then_some(description_id);
            view! {
                <div class="option">
                    <input
                        type=input_type
                        id=input_id.clone()
                        name="selected"
                        value=label.clone()
                        aria-describedby=described_by
                        prop:checked=is_checked
                        on:change=on_change
                    />
                    <label for=input_id>{label}</label>
                    {description}
                </div>
            }
        })
        .collect_view();
    let other_id = format!("{}-other", question.id);
    view! {
        <fieldset class="question">
            <legend>{legend}</legend>
            {options}
            <div class="other">
                <label for=other_id.clone()>"Other"</label>
                <input type="text" id=other_id name="custom" bind:value=custom/>
            </div>
        </fieldset>
    }
}

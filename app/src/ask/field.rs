//! One question of the answering form, as small components over the form's
//! one [`FormState`]: the fieldset ([`QuestionField`]), each option
//! ([`ChoiceOption`]), and the box for typed text — the Other box of a
//! question with options ([`OtherBox`]), the browser's own input of a typed
//! question ([`TypedBox`]), or a textarea ([`TextBox`]).
//!
//! Every change goes through the question's draft, which owns the rules: on
//! multi-select, checked labels and Other text are kept together whichever
//! comes first; on single-select, choosing one option un-chooses the others
//! and Other text overrides the choice, which the field says. The inputs
//! also carry their first state as HTML attributes and field names, so the
//! form posts as it stands before and without the wasm.

use super::problems::ProblemList;
use crate::{
    form::{other_field, selected_field},
    i18n::{use_lang, Speak},
};
use askform::state::FormState;
use interaction::{Format, Question, QuestionDraft, QuestionOption};
use leptos::{either::EitherOf3, prelude::*};

/// A question as a `fieldset`: its header and text as the legend, its
/// options as native checkboxes (multi-select) or radios (single-select)
/// with an Other box for free text, or a box of its own when it has no
/// options.
#[component]
pub fn QuestionField(
    /// The whole form's state: this field shows and changes the draft of
    /// one question, and shows the problems the server reported for it.
    form: RwSignal<FormState>,
    /// The position of this field's question in the request.
    index: usize,
    /// The question itself.
    question: Question,
) -> impl IntoView {
    let problems = {
        let id = question.id.clone();
        Memo::new(move |_| form.with(|s| s.problems_of(Some(&id)).cloned().collect::<Vec<_>>()))
    };
    let typed = typed_input(&question);
    let Question {
        id,
        question: text,
        header,
        options,
        multi_select,
        ..
    } = question;
    let input_type = if multi_select { "checkbox" } else { "radio" };
    let free_text = if !options.is_empty() {
        EitherOf3::A(view! { <OtherBox of=TextOf::new(form, index, &id)/> })
    } else if let Some(typed) = typed {
        EitherOf3::B(view! { <TypedBox of=TextOf::new(form, index, &id) typed/> })
    } else {
        EitherOf3::C(view! { <TextBox of=TextOf::new(form, index, &id)/> })
    };
    let options = options
        .into_iter()
        .enumerate()
        .map(|(position, option)| {
            view! { <ChoiceOption form index position question_id=id.clone() input_type option/> }
        })
        .collect_view();
    let problems_id = format!("{id}-problems");
    let problem_list = {
        let problems_id = problems_id.clone();
        move || {
            let problems = problems.get();
            (!problems.is_empty()).then(|| view! { <ProblemList problems id=problems_id.clone()/> })
        }
    };
    let described_by = move || (!problems.with(Vec::is_empty)).then(|| problems_id.clone());
    let header = header.map(|h| view! { <span class="header" dir="auto">{h}</span> " " });
    view! {
        <fieldset class="question" aria-describedby=described_by>
            <legend id=format!("{id}-legend")>{header}<span class="text" dir="auto">{text}</span></legend>
            {problem_list}
            {options}
            {free_text}
        </fieldset>
    }
}

/// One option: a native checkbox or radio, its label, and its description
/// and preview when it has them.
#[component]
fn ChoiceOption(
    /// The whole form's state.
    form: RwSignal<FormState>,
    /// The position of the option's question in the request.
    index: usize,
    /// The option's position in its question.
    position: usize,
    /// The id of the option's question, which the input's id and name
    /// carry.
    question_id: String,
    /// `checkbox` (multi-select) or `radio` (single-select).
    input_type: &'static str,
    /// The option.
    option: QuestionOption,
) -> impl IntoView {
    let checked_in = move |s: &FormState| {
        s.batch()
            .draft(index)
            .is_some_and(|d| d.is_checked(position))
    };
    let input_id = format!("{question_id}-option-{position}");
    let description_id = format!("{input_id}-description");
    let described_by = option.description.is_some().then(|| description_id.clone());
    let description = option.description.map(|d| {
        view! { <span class="option-description" id=description_id dir="auto">{d}</span> }
    });
    // A preview is exactly what the option is about (a command, a diff):
    // shown as it is, monospace, with its whitespace, and its bidirectional
    // controls as their code points, so that a command reads in the order
    // it runs (`dir="auto"` isolates the preview, not its parts). A newline
    // right after `<pre>` is dropped by HTML, so none leads.
    let preview = option
        .preview
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            interaction::with_visible_controls(p.trim_start_matches(['\n', '\r'])).into_owned()
        })
        .map(|p| view! { <pre class="option-preview" dir="auto">{p}</pre> });
    view! {
        <div class="option">
            <input
                type=input_type
                id=input_id.clone()
                name=selected_field(&question_id)
                value=option.label.clone()
                aria-describedby=described_by
                checked=form.with_untracked(checked_in)
                prop:checked=move || form.with(checked_in)
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    form.update(|s| s.edit(index, |d| d.set_checked(position, on)));
                }
            />
            <label for=input_id dir="auto">{option.label}</label>
            {description}
            {preview}
        </div>
    }
}

/// The question a text box holds the typed text of.
struct TextOf {
    /// The whole form's state.
    form: RwSignal<FormState>,
    /// The question's position in the request.
    index: usize,
    /// The question's id, which the box's id and name carry.
    id: String,
}

impl TextOf {
    fn new(form: RwSignal<FormState>, index: usize, id: &str) -> Self {
        Self {
            form,
            index,
            id: id.to_owned(),
        }
    }
}

/// The question's typed text: as it stands (for the input's first HTML
/// value), as it changes, and the handler that takes an input's text.
fn use_custom(
    of: &TextOf,
) -> (
    String,
    impl Fn() -> String + Copy,
    impl Fn(leptos::ev::Event) + Copy,
) {
    let TextOf { form, index, .. } = *of;
    let custom_of = move |s: &FormState| {
        s.batch()
            .draft(index)
            .map(|d| d.custom().to_owned())
            .unwrap_or_default()
    };
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        form.update(|s| s.edit(index, |d| d.set_custom(text)));
    };
    (
        form.with_untracked(custom_of),
        move || form.with(custom_of),
        on_input,
    )
}

/// The Other box of a question with options, and, on single-select, the
/// note that its text overrides the choice.
#[component]
fn OtherBox(
    /// The question whose text the box holds.
    of: TextOf,
) -> impl IntoView {
    let t = use_lang().t();
    let (first, custom, on_input) = use_custom(&of);
    let TextOf { form, index, id } = of;
    let overrides = move || {
        form.with(|s| {
            s.batch()
                .draft(index)
                .is_some_and(QuestionDraft::custom_overrides_choice)
        })
        .then(|| view! { <p class="override">{t.overrides}</p> })
    };
    let other_id = format!("{id}-other");
    view! {
        <div class="other">
            <label for=other_id.clone()>{t.other}</label>
            <input
                type="text"
                id=other_id
                name=other_field(&id)
                value=first
                prop:value=custom
                on:input=on_input
            />
            {overrides}
        </div>
    }
}

/// A typed question's answer box: the browser's own input for its format
/// (the draft and the validator still decide what is accepted).
#[component]
fn TypedBox(
    /// The question whose text the box holds.
    of: TextOf,
    /// The input's type and bounds.
    typed: Typed,
) -> impl IntoView {
    let t = use_lang().t();
    let (first, custom, on_input) = use_custom(&of);
    let id = of.id;
    let Typed {
        kind,
        min,
        max,
        step,
    } = typed;
    let other_id = format!("{id}-other");
    view! {
        <div class="free-text">
            <label for=other_id.clone()>{t.your_answer}</label>
            <input
                type=kind
                id=other_id
                name=other_field(&id)
                min=min
                max=max
                step=step
                value=first
                prop:value=custom
                on:input=on_input
            />
        </div>
    }
}

/// An optionless question's answer box: a textarea.
#[component]
fn TextBox(
    /// The question whose text the box holds.
    of: TextOf,
) -> impl IntoView {
    let t = use_lang().t();
    let (first, custom, on_input) = use_custom(&of);
    let id = of.id;
    let other_id = format!("{id}-other");
    view! {
        <div class="free-text">
            <label for=other_id.clone()>{t.your_answer}</label>
            <textarea id=other_id name=other_field(&id) rows="4" prop:value=custom on:input=on_input>
                {first}
            </textarea>
        </div>
    }
}

/// The native input of a typed question: its type and attributes.
struct Typed {
    kind: &'static str,
    min: Option<String>,
    max: Option<String>,
    step: Option<&'static str>,
}

/// The input a question's format asks for, if it names one.
fn typed_input(question: &Question) -> Option<Typed> {
    let format = question.format()?;
    let (kind, step) = match format {
        Format::Integer => ("number", Some("1")),
        Format::Number => ("number", Some("any")),
        Format::Date => ("date", None),
        // Seconds may be typed; the page sends the person's own clock time.
        Format::DateTime => ("datetime-local", Some("1")),
        Format::Email => ("email", None),
        Format::Uri => ("url", None),
    };
    // A local date and time input takes its bounds without a zone.
    let bound = |b: &Option<interaction::Scalar>| {
        b.as_ref().map(|b| {
            let mut text = b.text();
            if format == Format::DateTime {
                let zone = text
                    .char_indices()
                    .skip(16)
                    .find(|(_, c)| matches!(c, 'Z' | 'z' | '+' | '-'));
                if let Some((at, _)) = zone {
                    text.truncate(at);
                }
            }
            text
        })
    };
    Some(Typed {
        kind,
        min: bound(&question.minimum),
        max: bound(&question.maximum),
        step,
    })
}

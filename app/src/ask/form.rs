//! The answering form of a pending ask, as Leptos components over one
//! reactive [`FormState`]. The server renders it as a plain HTML form
//! (posted to `/asks/{id}`); in the browser the ask island hydrates it, and
//! every input changes the state through its own transition.

use crate::{
    error::ServerError,
    form::{other_field, selected_field, INTENT_FIELD, REASON_FIELD},
    i18n::{use_lang, Speak, Words},
};
use askform::state::{FormState, Outgoing};
use interaction::{Format, Problem, Question, QuestionDraft};
use leptos::{either::Either, prelude::*};

/// How the page names a question: its header, or its number.
pub fn question_name(question: &Question, index: usize, t: &Words) -> String {
    question
        .header
        .clone()
        .unwrap_or_else(|| (t.question_n)(index + 1))
}

/// The form: every question, the problems the server reported, what still
/// blocks Submit, and the decline box.
#[component]
pub fn AskForm(
    /// The form's state; the form shows it and changes it, nothing else.
    form: RwSignal<FormState>,
    /// The questions, in the request's order.
    questions: Vec<Question>,
    /// Carries what the form lets go (answers or a decline) to the server;
    /// the state has already moved to sending.
    send: Callback<Outgoing>,
) -> impl IntoView {
    let t = use_lang().t();
    let id = form.with_untracked(|s| s.ask_id().to_owned());
    // Effects run in the browser only: until then (and without JavaScript)
    // Submit stays enabled and the server checks the posted form.
    let live = RwSignal::new(false);
    Effect::new(move |_| live.set(true));
    let blockers = Memo::new(move |_| form.with(FormState::blockers));
    let blocked = Memo::new(move |_| live.get() && !blockers.with(Vec::is_empty));
    let busy = Memo::new(move |_| form.with(FormState::is_sending));
    let start = move |begin: fn(&mut FormState) -> Option<Outgoing>| {
        if let Some(outgoing) = form.try_update(begin).flatten() {
            send.run(outgoing);
        }
    };
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        start(FormState::begin_answer);
    };
    let on_decline = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        start(FormState::begin_decline);
    };

    let names: Vec<String> = questions
        .iter()
        .enumerate()
        .map(|(i, q)| question_name(q, i, t))
        .collect();
    let fields = questions
        .into_iter()
        .enumerate()
        .map(|(index, question)| view! { <QuestionField form index question/> })
        .collect_view();
    let refused = move || {
        form.with(FormState::refused)
            .then(|| view! { <p class="refused" role="alert">{t.refused}</p> })
    };
    let general_problems = move || {
        let general: Vec<Problem> = form.with(|s| s.problems_of(None).cloned().collect());
        (!general.is_empty()).then(|| view! { <ProblemList problems=general/> })
    };
    let blocker_list = move || {
        blocked.get().then(|| {
            let items = blockers
                .get()
                .into_iter()
                .map(|b| {
                    let name = names.get(b.index).cloned().unwrap_or_default();
                    view! {
                        <li>
                            <a href=format!("#{}-legend", b.question_id)>{name}</a>
                            ": "
                            {t.reason(&b.reason)}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="blockers" id="blockers">
                    <p>{t.blockers_intro}</p>
                    <ul>{items}</ul>
                </div>
            }
        })
    };
    let failure = move || {
        form.with(|s| s.failure().map(|e: &ServerError| t.server_error(e)))
            .map(|text| view! { <p class="failure" role="alert">{text}</p> })
    };
    let reason = form.with_untracked(|s| s.reason().to_owned());
    view! {
        <form class="ask" method="post" action=format!("/asks/{id}") on:submit=on_submit>
            {refused}
            {general_problems}
            {fields}
            <div class="submit-row">
                <button
                    type="submit"
                    class="primary"
                    name=INTENT_FIELD
                    value="answer"
                    disabled=move || blocked.get() || busy.get()
                    aria-describedby=move || blocked.get().then_some("blockers")
                >
                    {t.submit}
                </button>
                {blocker_list}
            </div>
            {failure}
            <details class="decline">
                <summary>{t.decline_to_answer}</summary>
                <label for="decline-reason">{t.decline_reason}</label>
                <textarea
                    id="decline-reason"
                    name=REASON_FIELD
                    rows="3"
                    prop:value=move || form.with(|s| s.reason().to_owned())
                    on:input=move |ev| form.update(|s| s.set_reason(event_target_value(&ev)))
                >
                    {reason}
                </textarea>
                <button
                    type="submit"
                    name=INTENT_FIELD
                    value="decline"
                    formnovalidate=true
                    disabled=move || busy.get()
                    on:click=on_decline
                >
                    {t.decline}
                </button>
            </details>
        </form>
    }
}

/// A question as a `fieldset`: its header and text as the legend, its
/// options as native checkboxes (multi-select) or radios (single-select)
/// with an Other box for free text, or a textarea when it has no options.
///
/// Every change goes through the question's draft, which owns the rules: on
/// multi-select, checked labels and Other text are kept together whichever
/// comes first; on single-select, choosing one option un-chooses the others
/// and Other text overrides the choice, which the field says. The inputs
/// also carry their first state as HTML attributes and field names, so the
/// form posts as it stands before and without the wasm.
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
    let t = use_lang().t();
    let read =
        move |f: fn(&QuestionDraft) -> bool| form.with(|s| s.batch().draft(index).is_some_and(f));
    let custom_of = move |s: &FormState| {
        s.batch()
            .draft(index)
            .map(|d| d.custom().to_owned())
            .unwrap_or_default()
    };
    let custom = move || form.with(custom_of);
    let first_custom = form.with_untracked(custom_of);
    let on_input = move |ev| {
        let text = event_target_value(&ev);
        form.update(|s| s.edit(index, |d| d.set_custom(text)));
    };
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
    let name = selected_field(&id);
    let has_options = !options.is_empty();
    let options = options
        .into_iter()
        .enumerate()
        .map(|(i, option)| {
            let input_id = format!("{id}-option-{i}");
            let description_id = format!("{input_id}-description");
            let described_by = option.description.is_some().then(|| description_id.clone());
            let description = option.description.map(|d| {
                view! { <span class="option-description" id=description_id dir="auto">{d}</span> }
            });
            // A preview is exactly what the option is about (a command, a
            // diff): shown as it is, monospace, with its whitespace. A
            // newline right after `<pre>` is dropped by HTML, so none leads.
            let preview = option
                .preview
                .filter(|p| !p.trim().is_empty())
                .map(|p| p.trim_start_matches(['\n', '\r']).to_owned())
                .map(|p| view! { <pre class="option-preview" dir="auto">{p}</pre> });
            let first_checked =
                form.with_untracked(|s| s.batch().draft(index).is_some_and(|d| d.is_checked(i)));
            let checked =
                move || form.with(|s| s.batch().draft(index).is_some_and(|d| d.is_checked(i)));
            view! {
                <div class="option">
                    <input
                        type=input_type
                        id=input_id.clone()
                        name=name.clone()
                        value=option.label.clone()
                        aria-describedby=described_by
                        checked=first_checked
                        prop:checked=checked
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            form.update(|s| s.edit(index, |d| d.set_checked(i, on)));
                        }
                    />
                    <label for=input_id dir="auto">{option.label}</label>
                    {description}
                    {preview}
                </div>
            }
        })
        .collect_view();
    let other_id = format!("{id}-other");
    let free_text = if has_options {
        let overrides = move || {
            read(QuestionDraft::custom_overrides_choice)
                .then(|| view! { <p class="override">{t.overrides}</p> })
        };
        Either::Left(view! {
            <div class="other">
                <label for=other_id.clone()>{t.other}</label>
                <input
                    type="text"
                    id=other_id
                    name=other_field(&id)
                    value=first_custom
                    prop:value=custom
                    on:input=on_input
                />
                {overrides}
            </div>
        })
    } else if let Some(Typed {
        kind,
        min,
        max,
        step,
    }) = typed
    {
        // A typed question gets the browser's own input for its format;
        // the draft and the validator still decide what is accepted.
        Either::Right(Either::Left(view! {
            <div class="free-text">
                <label for=other_id.clone()>{t.your_answer}</label>
                <input
                    type=kind
                    id=other_id
                    name=other_field(&id)
                    min=min
                    max=max
                    step=step
                    value=first_custom
                    prop:value=custom
                    on:input=on_input
                />
            </div>
        }))
    } else {
        Either::Right(Either::Right(view! {
            <div class="free-text">
                <label for=other_id.clone()>{t.your_answer}</label>
                <textarea
                    id=other_id
                    name=other_field(&id)
                    rows="4"
                    prop:value=custom
                    on:input=on_input
                >
                    {first_custom}
                </textarea>
            </div>
        }))
    };
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

//! The elements of the answering form the browser code changes, found
//! once by the ids `markup` gives them.

use crate::{
    i18n::{Lang, Speak},
    markup,
    state::FormState,
};
use interaction::Question;
use std::cell::RefCell;
use web_sys::wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlButtonElement, HtmlInputElement, HtmlTextAreaElement};

/// The elements [`super::Page::render`] changes.
pub(super) struct Form {
    pub(super) questions: Vec<QuestionElements>,
    pub(super) top: Slot,
    pub(super) blockers: Slot,
    pub(super) failure: Slot,
    pub(super) submit: HtmlButtonElement,
    pub(super) decline: HtmlButtonElement,
    pub(super) reason: HtmlTextAreaElement,
}

/// One question's elements.
pub(super) struct QuestionElements {
    pub(super) fieldset: Element,
    pub(super) options: Vec<HtmlInputElement>,
    pub(super) other: TextBox,
    pub(super) problems: Slot,
    pub(super) overrides: Option<Slot>,
}

impl Form {
    /// The elements of the form under `root`, as the server wrote it for
    /// `state` (so each slot holds what `markup` makes of `state`); `None`
    /// when the page is not that form.
    pub(super) fn find(
        root: &Element,
        state: &FormState,
        questions: &[Question],
        lang: Lang,
    ) -> Option<Self> {
        let document = root.owner_document()?;
        let t = lang.t();
        let mut fields = Vec::with_capacity(questions.len());
        for (index, question) in questions.iter().enumerate() {
            let id = &question.id;
            let other = match find::<HtmlInputElement>(&document, &format!("{id}-other")) {
                Some(input) => TextBox::Input(input),
                None => TextBox::Area(find(&document, &format!("{id}-other"))?),
            };
            let overrides = match other {
                TextBox::Input(_) => Some(Slot::find(
                    &document,
                    &markup::slot_id(Some(id), "override"),
                    markup::override_note(state, index, t),
                )?),
                TextBox::Area(_) => None,
            };
            fields.push(QuestionElements {
                fieldset: find::<Element>(&document, &format!("{id}-legend"))?.parent_element()?,
                options: (0..question.options.len())
                    .map(|i| find(&document, &format!("{id}-option-{i}")))
                    .collect::<Option<_>>()?,
                other,
                problems: Slot::find(
                    &document,
                    &markup::slot_id(Some(id), "problems"),
                    markup::question_problems(state, question, lang),
                )?,
                overrides,
            });
        }
        Some(Form {
            questions: fields,
            top: Slot::find(
                &document,
                &markup::slot_id(None, "top"),
                markup::top(state, lang),
            )?,
            blockers: Slot::find(&document, &markup::slot_id(None, "blockers"), String::new())?,
            failure: Slot::find(
                &document,
                &markup::slot_id(None, "failure"),
                markup::failure(state, t),
            )?,
            submit: root
                .query_selector("button[value=answer]")
                .ok()??
                .dyn_into()
                .ok()?,
            decline: root
                .query_selector("button[value=decline]")
                .ok()??
                .dyn_into()
                .ok()?,
            reason: find(&document, "decline-reason")?,
        })
    }
}

/// A question's Other box, or its textarea when it has no options.
#[derive(Clone)]
pub(super) enum TextBox {
    Input(HtmlInputElement),
    Area(HtmlTextAreaElement),
}

impl TextBox {
    pub(super) fn value(&self) -> String {
        match self {
            Self::Input(input) => input.value(),
            Self::Area(area) => area.value(),
        }
    }

    pub(super) fn set_value(&self, value: &str) {
        match self {
            Self::Input(input) => input.set_value(value),
            Self::Area(area) => area.set_value(value),
        }
    }

    pub(super) fn element(&self) -> &Element {
        match self {
            Self::Input(input) => input,
            Self::Area(area) => area,
        }
    }
}

/// A `<div class="slot">` and the HTML it holds.
pub(super) struct Slot {
    element: Element,
    html: RefCell<String>,
}

impl Slot {
    /// The slot `id`, holding `html` (as the server wrote it).
    fn find(document: &Document, id: &str, html: String) -> Option<Self> {
        Some(Self {
            element: document.get_element_by_id(id)?,
            html: RefCell::new(html),
        })
    }

    /// Makes the slot hold `html`; untouched when it already does, so a
    /// screen reader hears an alert once, not on every keystroke.
    pub(super) fn show(&self, html: String) {
        if *self.html.borrow() != html {
            self.element.set_inner_html(&html);
            *self.html.borrow_mut() = html;
        }
    }
}

fn find<T: JsCast>(document: &Document, id: &str) -> Option<T> {
    document.get_element_by_id(id)?.dyn_into().ok()
}

//! The ask page's browser code (feature `browser`): it takes over the
//! answering form the server rendered, without Leptos in the browser.
//!
//! The form's state is one [`FormState`], as on the server. Every input
//! changes it through its own transitions; then [`Page::render`] brings
//! the page in line: the inputs' checked state and text, and the slots
//! (see [`markup`]) rewritten with the same functions the server used,
//! each only when its HTML changed. The page keeps the draft in
//! sessionStorage, follows the ask's event stream, and sends through the
//! same server functions (`/rpc/…`) the Leptos client would.

mod dom;
mod io;

use crate::{
    form::Posted,
    i18n::{Lang, Speak},
    markup,
    rpc::{AnswerArgs, DeclineArgs, LoadArgs, ANSWER_ASK, DECLINE_ASK, LOAD_ASK},
    state::{FormState, Outgoing},
    PendingProps, PROPS_ID, ROOT_ID,
};
use dom::Form;
use interaction::{Ask, AskStatus, ValidRequest, ASK_EVENT, RESET_EVENT};
use io::{call, copy, forget_draft, load_draft, save_draft, tell_host, Loaded};
use serde::Deserialize;
use std::{cell::RefCell, rc::Rc};
use wasm_bindgen_futures::spawn_local;
use web_sys::wasm_bindgen::{closure::Closure, JsCast};
use web_sys::{Document, Element, Event, EventSource, MessageEvent};

/// Takes over the page's answering form, if the page has one.
pub fn start() {
    let Some(document) = document() else { return };
    let props = document
        .get_element_by_id(PROPS_ID)
        .and_then(|script| script.text_content())
        .and_then(|json| serde_json::from_str::<PendingProps>(&json).ok());
    let (Some(root), Some(props)) = (document.get_element_by_id(ROOT_ID), props) else {
        return;
    };
    if let Some(page) = Page::attach(&root, props) {
        page.follow_events();
        if let Some(body) = document.body() {
            // Only a test hook: browser tests wait for it.
            let _ = body.set_attribute("data-hydrated", "");
        }
    }
}

fn document() -> Option<Document> {
    web_sys::window()?.document()
}

/// The answering form of one pending ask, taken over.
#[derive(Clone)]
pub struct Page(Rc<Inner>);

struct Inner {
    state: RefCell<FormState>,
    request: ValidRequest,
    lang: Lang,
    /// In an iframe: the host origin to tell when the ask ends.
    notify: Option<String>,
    root: Element,
    /// The form's elements, until the ask ends and the form is gone.
    form: RefCell<Option<Form>>,
    /// The draft as stored (as served, when nothing is), so an unchanged
    /// one is not written again.
    saved: RefCell<Option<Posted>>,
    events: RefCell<Option<EventSource>>,
    /// The closures the page's listeners call: they live as long as it.
    listeners: RefCell<Vec<Listener>>,
}

/// A listener the page added.
type Listener = Closure<dyn FnMut(Event)>;

impl Page {
    /// Takes over the form under `root`, as the server rendered it for
    /// `props`: puts back a draft saved before a reload, listens to every
    /// input and shows what blocks Submit. `None` when the page is not
    /// that form.
    pub fn attach(root: &Element, props: PendingProps) -> Option<Self> {
        let PendingProps {
            id,
            request,
            posted,
            notify,
            lang,
        } = props;
        // The state the server rendered from, and so the slots' HTML now.
        let mut state = FormState::new(&id, &request, posted.as_ref());
        let form = Form::find(root, &state, request.questions(), lang)?;
        // A refused post shown by the server is newer than any saved draft,
        // and the first render saves it. Otherwise the draft saved before a
        // reload comes back, and what is stored (that draft, or nothing for
        // a form as served) is written again only once it changes.
        let saved = if posted.is_none() {
            if let Some(draft) = load_draft(&id) {
                state.restore(&draft);
            }
            Some(state.saved())
        } else {
            None
        };
        let page = Page(Rc::new(Inner {
            state: RefCell::new(state),
            request,
            lang,
            notify,
            root: root.clone(),
            form: RefCell::new(Some(form)),
            saved: RefCell::new(saved),
            events: RefCell::new(None),
            listeners: RefCell::new(Vec::new()),
        }));
        page.listen();
        page.render();
        Some(page)
    }

    /// The form's state now.
    pub fn state(&self) -> FormState {
        self.0.state.borrow().clone()
    }

    fn on(&self, target: &Element, event: &str, handle: impl Fn(&Page, Event) + 'static) {
        let page = self.clone();
        let closure: Listener = Closure::new(move |e: Event| handle(&page, e));
        // Adding a listener fails only for a non-function; ours is one.
        let _ = target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
        self.0.listeners.borrow_mut().push(closure);
    }

    fn listen(&self) {
        let Some(form) = &*self.0.form.borrow() else {
            return;
        };
        for (index, question) in form.questions.iter().enumerate() {
            for (i, input) in question.options.iter().enumerate() {
                let checkbox = input.clone();
                self.on(input, "change", move |page, _| {
                    let on = checkbox.checked();
                    page.edit(|s| s.edit(index, |d| d.set_checked(i, on)));
                });
            }
            let text = question.other.clone();
            self.on(question.other.element(), "input", move |page, _| {
                let value = text.value();
                page.edit(|s| s.edit(index, |d| d.set_custom(value)));
            });
        }
        let reason = form.reason.clone();
        self.on(&form.reason, "input", move |page, _| {
            page.edit(|s| s.set_reason(reason.value()));
        });
        if let Some(element) = self.0.root.query_selector("form").ok().flatten() {
            self.on(&element, "submit", |page, e| {
                e.prevent_default();
                page.send(FormState::begin_answer);
            });
        }
        self.on(&form.decline, "click", |page, e| {
            e.prevent_default();
            page.send(FormState::begin_decline);
        });
    }

    fn edit(&self, change: impl FnOnce(&mut FormState)) {
        change(&mut self.0.state.borrow_mut());
        self.render();
    }

    /// Sends what `begin` lets go, if anything: the state decides whether
    /// the form may send now.
    fn send(&self, begin: fn(&mut FormState) -> Option<Outgoing>) {
        let Some(outgoing) = begin(&mut self.0.state.borrow_mut()) else {
            return;
        };
        self.render();
        let page = self.clone();
        let id = self.0.state.borrow().ask_id().to_owned();
        spawn_local(async move {
            let result = match outgoing {
                Outgoing::Answer(answers) => {
                    let args = AnswerArgs {
                        id: &id,
                        answers: &answers,
                    };
                    call::<Ask>(ANSWER_ASK, &args).await
                }
                Outgoing::Decline(reason) => {
                    let args = DeclineArgs {
                        id: &id,
                        reason: &reason,
                    };
                    call::<Ask>(DECLINE_ASK, &args).await
                }
            };
            if let Ok(ask) = &result {
                forget_draft(&ask.id);
            }
            page.edit(|s| s.settle(result));
        });
    }

    /// Follows the ask's event stream: when it says the ask ended (or
    /// cannot say what was missed), reads the ask and shows how it ended.
    fn follow_events(&self) {
        let id = self.0.state.borrow().ask_id().to_owned();
        let Ok(source) = EventSource::new(&format!("/asks/{id}/events")) else {
            return;
        };
        for name in [ASK_EVENT, RESET_EVENT] {
            let page = self.clone();
            let listener: Listener = Closure::new(move |event: Event| {
                let ended = event
                    .dyn_ref::<MessageEvent>()
                    .and_then(|m| m.data().as_string())
                    .and_then(|data| serde_json::from_str::<Heard>(&data).ok())
                    .is_none_or(|heard| heard.ask.status.is_finished());
                if ended {
                    page.check();
                }
            });
            let _ =
                source.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
            self.0.listeners.borrow_mut().push(listener);
        }
        *self.0.events.borrow_mut() = Some(source);
    }

    /// Reads the ask, and shows how it ended if it has.
    fn check(&self) {
        let page = self.clone();
        let id = self.0.state.borrow().ask_id().to_owned();
        spawn_local(async move {
            if let Ok(data) = call::<Loaded>(LOAD_ASK, &LoadArgs { id: &id }).await {
                page.edit(|s| s.end_elsewhere(data.ask));
            }
        });
    }

    /// Brings the page in line with the state.
    fn render(&self) {
        // The form is gone once the ask has ended: nothing changes then.
        if self.0.form.borrow().is_none() {
            return;
        }
        let state = self.0.state.borrow();
        let lang = self.0.lang;
        let t = lang.t();
        if let Some(ended) = state.ended() {
            self.0.form.borrow_mut().take();
            if let Some(source) = self.0.events.borrow_mut().take() {
                source.close();
            }
            self.0.root.set_inner_html(&markup::ended(ended, lang));
            for (n, unsent) in ended.unsent.iter().enumerate() {
                let text = unsent.text.clone();
                if let Ok(Some(button)) =
                    self.0.root.query_selector(&format!("[data-copy=\"{n}\"]"))
                {
                    self.on(&button, "click", move |_, _| copy(&text));
                }
            }
            if let Some(origin) = &self.0.notify {
                tell_host(&ended.ask, origin);
            }
            return;
        }
        let form = self.0.form.borrow();
        let Some(form) = &*form else { return };
        for (index, (question, elements)) in self
            .0
            .request
            .questions()
            .iter()
            .zip(&form.questions)
            .enumerate()
        {
            let draft = state.batch().draft(index);
            for (i, input) in elements.options.iter().enumerate() {
                input.set_checked(draft.is_some_and(|d| d.is_checked(i)));
            }
            let custom = draft.map(|d| d.custom()).unwrap_or_default();
            if elements.other.value() != custom {
                elements.other.set_value(custom);
            }
            elements
                .problems
                .show(markup::question_problems(&state, question, lang));
            let _ = match markup::question_described_by(&state, question) {
                Some(id) => elements.fieldset.set_attribute("aria-describedby", &id),
                None => elements.fieldset.remove_attribute("aria-describedby"),
            };
            if let Some(overrides) = &elements.overrides {
                overrides.show(markup::override_note(&state, index, t));
            }
        }
        form.top.show(markup::top(&state, lang));
        let blockers = markup::blockers(&state, self.0.request.questions(), t, true);
        let blocked = !blockers.is_empty();
        form.blockers.show(blockers);
        form.failure.show(markup::failure(&state, t));
        form.submit.set_disabled(blocked || state.is_sending());
        let _ = if blocked {
            form.submit.set_attribute("aria-describedby", "blockers")
        } else {
            form.submit.remove_attribute("aria-describedby")
        };
        form.decline.set_disabled(state.is_sending());
        if form.reason.value() != state.reason() {
            form.reason.set_value(state.reason());
        }
        let draft = state.saved();
        if self.0.saved.borrow().as_ref() != Some(&draft) {
            save_draft(&draft);
            *self.0.saved.borrow_mut() = Some(draft);
        }
    }
}

/// What the page reads of an event on its ask's stream.
#[derive(Deserialize)]
struct Heard {
    ask: HeardAsk,
}

#[derive(Deserialize)]
struct HeardAsk {
    status: AskStatus,
}

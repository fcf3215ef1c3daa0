//! The answering form and a finished ask's outcome as HTML text.
//!
//! The server writes the whole form into the page; the ask page's browser
//! code (`client`, feature `browser`) rewrites only the parts that change
//! as the person answers (the slots below), with these same functions
//! ([`outcome`] once the ask has ended). So every
//! shape is written once, and the form works as a plain HTML form until
//! (and without) the wasm.
//!
//! A slot is a `<div class="slot">`, which the stylesheet lays out as
//! `display: contents`: what it holds sits in the form's grid as if the
//! slot were not there, and an empty slot takes no room.

mod html;
mod outcome;

pub use outcome::{ended, outcome};

use crate::{
    error::ServerError,
    form::{other_field, selected_field, INTENT_FIELD, REASON_FIELD},
    i18n::{Lang, Speak, Words},
    state::FormState,
};
use html::Html;
use interaction::{Blocker, Problem, Question, QuestionDraft};

/// How the page names a question: its header, or its number.
pub fn question_name(question: &Question, index: usize, t: &Words) -> String {
    question
        .header
        .clone()
        .unwrap_or_else(|| (t.question_n)(index + 1))
}

/// The element id of slot `name` of question `question_id`, or of the
/// form (`None`).
pub fn slot_id(question_id: Option<&str>, name: &str) -> String {
    match question_id {
        Some(id) => format!("{id}-{name}-slot"),
        None => format!("form-{name}-slot"),
    }
}

/// The element id of a question's problem list.
fn problems_id(question_id: &str) -> String {
    format!("{question_id}-problems")
}

/// The answering form over `form`'s state, as it stands. With `live`
/// (the browser code runs), Submit is disabled while a question blocks it
/// and the blockers are listed; without, the server checks the posted form.
pub fn form(form: &FormState, questions: &[Question], lang: Lang, live: bool) -> String {
    let t = lang.t();
    let mut html = Html::with_capacity(4096);
    html.raw(r#"<form class="ask" method="post" action="/asks/"#)
        .text(form.ask_id())
        .raw(r#"">"#)
        .slot(&slot_id(None, "top"), &top(form, lang));
    for (index, question) in questions.iter().enumerate() {
        question_field(&mut html, form, index, question, lang);
    }
    let blockers = blockers(form, questions, t, live);
    let blocked = !blockers.is_empty();
    html.raw(r#"<div class="submit-row"><button type="submit" class="primary" name=""#)
        .raw(INTENT_FIELD)
        .raw(r#"" value="answer""#)
        .raw(if blocked || form.is_sending() {
            " disabled"
        } else {
            ""
        })
        .raw(if blocked {
            r#" aria-describedby="blockers""#
        } else {
            ""
        })
        .raw(">")
        .text(t.submit)
        .raw("</button>")
        .slot(&slot_id(None, "blockers"), &blockers)
        .raw("</div>")
        .slot(&slot_id(None, "failure"), &failure(form, t))
        .raw(r#"<details class="decline"><summary>"#)
        .text(t.decline_to_answer)
        .raw(r#"</summary><label for="decline-reason">"#)
        .text(t.decline_reason)
        .raw(r#"</label><textarea id="decline-reason" name=""#)
        .raw(REASON_FIELD)
        .raw(r#"" rows="3">"#)
        .text(form.reason())
        .raw(r#"</textarea><button type="submit" name=""#)
        .raw(INTENT_FIELD)
        .raw(r#"" value="decline" formnovalidate"#)
        .raw(if form.is_sending() { " disabled" } else { "" })
        .raw(">")
        .text(t.decline)
        .raw("</button></details></form>");
    html.0
}

/// The top of the form: that the server refused the last answer, and the
/// problems that belong to no single question.
pub fn top(form: &FormState, lang: Lang) -> String {
    let mut html = Html::default();
    if form.refused() {
        html.raw(r#"<p class="refused" role="alert">"#)
            .text(lang.t().refused)
            .raw("</p>");
    }
    html.raw(&problem_list(form.problems_of(None), None, lang));
    html.0
}

/// The problems the server reported, each worded in the page's language
/// from its stable code; nothing when there are none.
pub fn problem_list<'a>(
    problems: impl IntoIterator<Item = &'a Problem>,
    id: Option<&str>,
    lang: Lang,
) -> String {
    let mut html = Html::default();
    let mut problems = problems.into_iter().peekable();
    if problems.peek().is_none() {
        return html.0;
    }
    html.raw(r#"<ul class="problems""#);
    if let Some(id) = id {
        html.raw(r#" id=""#).text(id).raw(r#"""#);
    }
    html.raw(">");
    for problem in problems {
        html.raw("<li>").text(&problem.text(lang)).raw("</li>");
    }
    html.raw("</ul>");
    html.0
}

/// The problems the server reported for question `question`.
pub fn question_problems(form: &FormState, question: &Question, lang: Lang) -> String {
    problem_list(
        form.problems_of(Some(&question.id)),
        Some(&problems_id(&question.id)),
        lang,
    )
}

/// The note that a single-select question's Other text replaces its
/// chosen option, when it does.
pub fn override_note(form: &FormState, index: usize, t: &Words) -> String {
    let mut html = Html::default();
    let overrides = form
        .batch()
        .draft(index)
        .is_some_and(QuestionDraft::custom_overrides_choice);
    if overrides {
        html.raw(r#"<p class="override">"#)
            .text(t.overrides)
            .raw("</p>");
    }
    html.0
}

/// The fieldset's `aria-describedby`: its problem list, when it has one.
pub fn question_described_by(form: &FormState, question: &Question) -> Option<String> {
    let has = form.problems_of(Some(&question.id)).next().is_some();
    has.then(|| problems_id(&question.id))
}

/// A question as a `fieldset`: its header and text as the legend, its
/// options as native checkboxes (multi-select) or radios (single-select)
/// with an Other box for free text, or a textarea when it has no options.
/// The inputs carry the draft's state as HTML attributes and field names,
/// so the form posts it as it stands.
fn question_field(
    html: &mut Html,
    form: &FormState,
    index: usize,
    question: &Question,
    lang: Lang,
) {
    let t = lang.t();
    let draft = form.batch().draft(index);
    let id = question.id.as_str();
    html.raw(r#"<fieldset class="question""#);
    if let Some(described_by) = question_described_by(form, question) {
        html.raw(r#" aria-describedby=""#)
            .text(&described_by)
            .raw(r#"""#);
    }
    html.raw(r#"><legend id=""#).text(id).raw(r#"-legend">"#);
    if let Some(header) = &question.header {
        html.raw(r#"<span class="header">"#)
            .text(header)
            .raw("</span> ");
    }
    html.raw(r#"<span class="text">"#)
        .text(&question.question)
        .raw("</span></legend>")
        .slot(
            &slot_id(Some(id), "problems"),
            &question_problems(form, question, lang),
        );
    let input_type = if question.multi_select {
        r#"<div class="option"><input type="checkbox" id=""#
    } else {
        r#"<div class="option"><input type="radio" id=""#
    };
    let name = selected_field(id);
    for (i, option) in question.options.iter().enumerate() {
        let checked = draft.is_some_and(|d| d.is_checked(i));
        html.raw(input_type)
            .text(id)
            .raw("-option-")
            .number(i)
            .raw(r#"" name=""#)
            .text(&name)
            .raw(r#"" value=""#)
            .text(&option.label)
            .raw(r#"""#);
        if option.description.is_some() {
            html.raw(r#" aria-describedby=""#)
                .text(id)
                .raw("-option-")
                .number(i)
                .raw(r#"-description""#);
        }
        html.raw(if checked { " checked" } else { "" })
            .raw(r#"><label for=""#)
            .text(id)
            .raw("-option-")
            .number(i)
            .raw(r#"">"#)
            .text(&option.label)
            .raw("</label>");
        if let Some(description) = &option.description {
            html.raw(r#"<span class="option-description" id=""#)
                .text(id)
                .raw("-option-")
                .number(i)
                .raw(r#"-description">"#)
                .text(description)
                .raw("</span>");
        }
        html.raw("</div>");
    }
    let custom = draft.map(QuestionDraft::custom).unwrap_or_default();
    let other = other_field(id);
    if question.options.is_empty() {
        html.raw(r#"<div class="free-text"><label for=""#)
            .text(id)
            .raw(r#"-other">"#)
            .text(t.your_answer)
            .raw(r#"</label><textarea id=""#)
            .text(id)
            .raw(r#"-other" name=""#)
            .text(&other)
            .raw(r#"" rows="4">"#)
            .text(custom)
            .raw("</textarea></div>");
    } else {
        html.raw(r#"<div class="other"><label for=""#)
            .text(id)
            .raw(r#"-other">"#)
            .text(t.other)
            .raw(r#"</label><input type="text" id=""#)
            .text(id)
            .raw(r#"-other" name=""#)
            .text(&other)
            .raw(r#"" value=""#)
            .text(custom)
            .raw(r#""/>"#)
            .slot(
                &slot_id(Some(id), "override"),
                &override_note(form, index, t),
            )
            .raw("</div>");
    }
    html.raw("</fieldset>");
}

/// What still blocks Submit, each question linked to its legend; nothing
/// unless `live` (without the browser code the server checks the post).
pub fn blockers(form: &FormState, questions: &[Question], t: &Words, live: bool) -> String {
    let blockers: Vec<Blocker> = if live { form.blockers() } else { Vec::new() };
    let mut html = Html::default();
    if blockers.is_empty() {
        return html.0;
    }
    html.raw(r#"<div class="blockers" id="blockers"><p>"#)
        .text(t.blockers_intro)
        .raw("</p><ul>");
    for blocker in &blockers {
        let name = questions
            .get(blocker.index)
            .map(|q| question_name(q, blocker.index, t))
            .unwrap_or_default();
        html.raw(r##"<li><a href="#"##)
            .text(&blocker.question_id)
            .raw(r#"-legend">"#)
            .text(&name)
            .raw("</a>: ")
            .text(&t.reason(&blocker.reason))
            .raw("</li>");
    }
    html.raw("</ul></div>");
    html.0
}

/// Why the last send did not get through, if it did not.
pub fn failure(form: &FormState, t: &Words) -> String {
    let mut html = Html::default();
    if let Some(error) = form.failure() {
        let error: &ServerError = error;
        html.raw(r#"<p class="failure" role="alert">"#)
            .text(&t.server_error(error))
            .raw("</p>");
    }
    html.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::form::tests::request;

    fn escape(text: &str) -> String {
        let mut html = Html::default();
        html.text(text);
        html.0
    }

    #[test]
    fn text_is_escaped_for_content_and_attributes() {
        assert_eq!(
            escape(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("plain 中文 &"), "plain 中文 &amp;");
    }

    #[test]
    fn agent_text_cannot_become_markup() {
        let mut request = request().questions().to_vec();
        request[0].question = "</legend><script>alert(1)</script>".to_owned();
        request[0].options[0].label = r#"a" onclick="x"#.to_owned();
        let state = FormState::new("x", &crate::form::tests::request(), None);
        let html = form(&state, &request, Lang::En, true);
        assert!(!html.contains("<script>"), "{html}");
        assert!(!html.contains(r#"a" onclick"#), "{html}");
        assert!(html.contains("&lt;/legend&gt;&lt;script&gt;"), "{html}");
    }

    #[test]
    fn live_the_form_says_what_blocks_submit_and_without_the_server_checks() {
        let request = request();
        let state = FormState::new("x", &request, None);
        let live = form(&state, request.questions(), Lang::En, true);
        assert!(live.contains(r#"value="answer" disabled aria-describedby="blockers""#));
        assert!(
            live.contains(r##"<a href="#db-legend">Question 1</a>"##),
            "{live}"
        );
        let plain = form(&state, request.questions(), Lang::En, false);
        assert!(plain.contains(r#"value="answer">"#), "{plain}");
        assert!(!plain.contains(r#"id="blockers""#), "{plain}");
    }

    #[test]
    fn the_inputs_carry_the_draft() {
        let request = request();
        let mut state = FormState::new("x", &request, None);
        state.edit(0, |d| d.set_checked(1, true));
        state.edit(0, |d| d.set_custom("Duck & DB".to_owned()));
        state.edit(2, |d| d.set_custom("<none>".to_owned()));
        let html = form(&state, request.questions(), Lang::En, true);
        assert!(html.contains(r#"value="PostgreSQL" checked>"#), "{html}");
        assert!(html.contains(r#"value="SQLite">"#), "{html}");
        assert!(
            html.contains(r#"name="other.db" value="Duck &amp; DB"/>"#),
            "{html}"
        );
        assert!(html.contains(r#"<p class="override">"#), "{html}");
        assert!(
            html.contains(r#"rows="4">&lt;none&gt;</textarea>"#),
            "{html}"
        );
    }
}

//! The answering form and a finished ask's outcome as HTML text.
//!
//! The server writes the whole form into the page; the ask page's browser
//! code ([`super::client`]) rewrites only the parts that change as the
//! person answers (the slots below), with these same functions. So every
//! shape is written once, and the form works as a plain HTML form until
//! (and without) the wasm.
//!
//! A slot is a `<div class="slot">`, which the stylesheet lays out as
//! `display: contents`: what it holds sits in the form's grid as if the
//! slot were not there, and an empty slot takes no room.

use super::state::{Ended, FormState, Unsent};
use crate::{
    error::ServerError,
    form::{other_field, selected_field, INTENT_FIELD, REASON_FIELD},
    i18n::{Lang, Speak, Words},
    time::short_time,
};
use interaction::{Ask, AskStatus, Blocker, Problem, Question, QuestionDraft};
use std::fmt::{self, Write};

/// Text made safe for element content and double-quoted attribute values.
pub struct Esc<'a>(pub &'a str);

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..at])?;
            f.write_str(match rest.as_bytes()[at] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            })?;
            rest = &rest[at + 1..];
        }
        f.write_str(rest)
    }
}

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

fn slot(out: &mut String, id: &str, content: &str) {
    let _ = write!(out, r#"<div class="slot" id="{}">{content}</div>"#, Esc(id));
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
    let mut out = String::with_capacity(4096);
    let _ = write!(
        out,
        r#"<form class="ask" method="post" action="/asks/{}">"#,
        Esc(form.ask_id())
    );
    slot(&mut out, &slot_id(None, "top"), &top(form, lang));
    for (index, question) in questions.iter().enumerate() {
        question_field(&mut out, form, index, question, lang);
    }
    out.push_str(r#"<div class="submit-row">"#);
    let blocked = live && !form.blockers().is_empty();
    let _ = write!(
        out,
        r#"<button type="submit" class="primary" name="{INTENT_FIELD}" value="answer"{}{}>{}</button>"#,
        if blocked || form.is_sending() {
            " disabled"
        } else {
            ""
        },
        if blocked {
            r#" aria-describedby="blockers""#
        } else {
            ""
        },
        Esc(t.submit),
    );
    let blockers = blockers(form, questions, t, live);
    slot(&mut out, &slot_id(None, "blockers"), &blockers);
    out.push_str("</div>");
    slot(&mut out, &slot_id(None, "failure"), &failure(form, t));
    let _ = write!(
        out,
        r#"<details class="decline"><summary>{}</summary><label for="decline-reason">{}</label><textarea id="decline-reason" name="{REASON_FIELD}" rows="3">{}</textarea><button type="submit" name="{INTENT_FIELD}" value="decline" formnovalidate{}>{}</button></details></form>"#,
        Esc(t.decline_to_answer),
        Esc(t.decline_reason),
        Esc(form.reason()),
        if form.is_sending() { " disabled" } else { "" },
        Esc(t.decline),
    );
    out
}

/// The top of the form: that the server refused the last answer, and the
/// problems that belong to no single question.
pub fn top(form: &FormState, lang: Lang) -> String {
    let mut out = String::new();
    if form.refused() {
        let _ = write!(
            out,
            r#"<p class="refused" role="alert">{}</p>"#,
            Esc(lang.t().refused)
        );
    }
    out.push_str(&problem_list(&form.problems_of(None), None, lang));
    out
}

/// The problems the server reported, each worded in the page's language
/// from its stable code; nothing when there are none.
pub fn problem_list(problems: &[Problem], id: Option<&str>, lang: Lang) -> String {
    if problems.is_empty() {
        return String::new();
    }
    let mut out = String::from(r#"<ul class="problems""#);
    if let Some(id) = id {
        let _ = write!(out, r#" id="{}""#, Esc(id));
    }
    out.push('>');
    for problem in problems {
        let _ = write!(out, "<li>{}</li>", Esc(&problem.text(lang)));
    }
    out.push_str("</ul>");
    out
}

/// The problems the server reported for question `question`.
pub fn question_problems(form: &FormState, question: &Question, lang: Lang) -> String {
    let problems = form.problems_of(Some(&question.id));
    problem_list(&problems, Some(&problems_id(&question.id)), lang)
}

/// The note that a single-select question's Other text replaces its
/// chosen option, when it does.
pub fn override_note(form: &FormState, index: usize, t: &Words) -> String {
    let overrides = form
        .batch()
        .draft(index)
        .is_some_and(QuestionDraft::custom_overrides_choice);
    if overrides {
        format!(r#"<p class="override">{}</p>"#, Esc(t.overrides))
    } else {
        String::new()
    }
}

/// The fieldset's `aria-describedby`: its problem list, when it has one.
pub fn question_described_by(form: &FormState, question: &Question) -> Option<String> {
    let has = !form.problems_of(Some(&question.id)).is_empty();
    has.then(|| problems_id(&question.id))
}

/// A question as a `fieldset`: its header and text as the legend, its
/// options as native checkboxes (multi-select) or radios (single-select)
/// with an Other box for free text, or a textarea when it has no options.
/// The inputs carry the draft's state as HTML attributes and field names,
/// so the form posts it as it stands.
fn question_field(
    out: &mut String,
    form: &FormState,
    index: usize,
    question: &Question,
    lang: Lang,
) {
    let t = lang.t();
    let draft = form.batch().draft(index);
    let id = Esc(&question.id);
    out.push_str(r#"<fieldset class="question""#);
    if let Some(described_by) = question_described_by(form, question) {
        let _ = write!(out, r#" aria-describedby="{}""#, Esc(&described_by));
    }
    let _ = write!(out, r#"><legend id="{id}-legend">"#);
    if let Some(header) = &question.header {
        let _ = write!(out, r#"<span class="header">{}</span> "#, Esc(header));
    }
    let _ = write!(
        out,
        r#"<span class="text">{}</span></legend>"#,
        Esc(&question.question)
    );
    slot(
        out,
        &slot_id(Some(&question.id), "problems"),
        &question_problems(form, question, lang),
    );
    let input_type = if question.multi_select {
        "checkbox"
    } else {
        "radio"
    };
    let name = selected_field(&question.id);
    for (i, option) in question.options.iter().enumerate() {
        let checked = draft.is_some_and(|d| d.is_checked(i));
        let _ = write!(
            out,
            r#"<div class="option"><input type="{input_type}" id="{id}-option-{i}" name="{}" value="{}""#,
            Esc(&name),
            Esc(&option.label),
        );
        if option.description.is_some() {
            let _ = write!(out, r#" aria-describedby="{id}-option-{i}-description""#);
        }
        let _ = write!(
            out,
            r#"{}><label for="{id}-option-{i}">{}</label>"#,
            if checked { " checked" } else { "" },
            Esc(&option.label)
        );
        if let Some(description) = &option.description {
            let _ = write!(
                out,
                r#"<span class="option-description" id="{id}-option-{i}-description">{}</span>"#,
                Esc(description)
            );
        }
        out.push_str("</div>");
    }
    let custom = draft.map(QuestionDraft::custom).unwrap_or_default();
    let other = Esc(&other_field(&question.id));
    if question.options.is_empty() {
        let _ = write!(
            out,
            r#"<div class="free-text"><label for="{id}-other">{}</label><textarea id="{id}-other" name="{other}" rows="4">{}</textarea></div>"#,
            Esc(t.your_answer),
            Esc(custom),
        );
    } else {
        let _ = write!(
            out,
            r#"<div class="other"><label for="{id}-other">{}</label><input type="text" id="{id}-other" name="{other}" value="{}"/>"#,
            Esc(t.other),
            Esc(custom),
        );
        slot(
            out,
            &slot_id(Some(&question.id), "override"),
            &override_note(form, index, t),
        );
        out.push_str("</div>");
    }
    out.push_str("</fieldset>");
}

/// What still blocks Submit, each question linked to its legend; nothing
/// unless `live` (without the browser code the server checks the post).
pub fn blockers(form: &FormState, questions: &[Question], t: &Words, live: bool) -> String {
    let blockers: Vec<Blocker> = if live { form.blockers() } else { Vec::new() };
    if blockers.is_empty() {
        return String::new();
    }
    let mut out = format!(
        r#"<div class="blockers" id="blockers"><p>{}</p><ul>"#,
        Esc(t.blockers_intro)
    );
    for blocker in &blockers {
        let name = questions
            .get(blocker.index)
            .map(|q| question_name(q, blocker.index, t))
            .unwrap_or_default();
        let _ = write!(
            out,
            r##"<li><a href="#{}-legend">{}</a>: {}</li>"##,
            Esc(&blocker.question_id),
            Esc(&name),
            Esc(&t.reason(&blocker.reason))
        );
    }
    out.push_str("</ul></div>");
    out
}

/// Why the last send did not get through, if it did not.
pub fn failure(form: &FormState, t: &Words) -> String {
    form.failure()
        .map(|e: &ServerError| {
            format!(
                r#"<p class="failure" role="alert">{}</p>"#,
                Esc(&t.server_error(e))
            )
        })
        .unwrap_or_default()
}

/// An ask that ended while its page was open: a note when it ended
/// elsewhere first, the text typed but never sent (each with a copy
/// button, `data-copy` its index in `ended.unsent`), and the outcome.
pub fn ended(ended: &Ended, lang: Lang) -> String {
    let t = lang.t();
    let mut out = String::new();
    if ended.late {
        let _ = write!(
            out,
            r#"<p class="refused" role="alert">{}</p>"#,
            Esc(t.ended_before)
        );
    }
    if !ended.unsent.is_empty() {
        let _ = write!(
            out,
            r#"<section class="unsent" aria-labelledby="unsent-heading"><h2 id="unsent-heading">{}</h2><ul>"#,
            Esc(t.unsent_heading)
        );
        for (n, Unsent { index, text }) in ended.unsent.iter().enumerate() {
            let name = ended
                .ask
                .request
                .questions
                .get(*index)
                .map(|q| question_name(q, *index, t))
                .unwrap_or_default();
            let _ = write!(
                out,
                r#"<li><p class="unsent-name">{}</p><pre class="unsent-text">{}</pre><button type="button" class="quiet" data-copy="{n}">{}</button></li>"#,
                Esc(&name),
                Esc(text),
                Esc(t.copy)
            );
        }
        out.push_str("</ul></section>");
    }
    out.push_str(&outcome(&ended.ask, lang));
    out
}

/// How a finished ask ended, read-only: its status, when, the reason or
/// the answers, and the way back to the desk.
pub fn outcome(ask: &Ask, lang: Lang) -> String {
    let t = lang.t();
    let finished = ask
        .finished_at
        .as_deref()
        .map(short_time)
        .unwrap_or_default();
    let line = match ask.status {
        AskStatus::Answered => (t.answered_line)(&finished),
        AskStatus::Declined => (t.declined_line)(&finished),
        AskStatus::Cancelled => (t.withdrawn_line)(&finished),
        AskStatus::Expired => (t.expired_line)(&finished),
        AskStatus::Pending => String::new(),
    };
    let mut out = format!(
        r#"<section class="outcome" aria-labelledby="outcome-heading"><h2 id="outcome-heading">{}</h2><p role="status">{}</p>"#,
        Esc(t.status(ask.status)),
        Esc(&line)
    );
    if let Some(reason) = &ask.decline_reason {
        let _ = write!(
            out,
            r#"<p class="reason">{} <q>{}</q></p>"#,
            Esc(t.your_reason),
            Esc(reason)
        );
    }
    if let Some(items) = &ask.answers {
        out.push_str(r#"<dl class="answers">"#);
        for (i, q) in ask.request.questions.iter().enumerate() {
            let item = items.iter().find(|item| item.id == q.id);
            let _ = write!(
                out,
                "<dt>{}: {}</dt><dd>",
                Esc(&question_name(q, i, t)),
                Esc(&q.question)
            );
            if let Some(item) = item {
                if !item.selected.is_empty() {
                    let _ = write!(
                        out,
                        r#"<p class="selected">{}</p>"#,
                        Esc(&item.selected.join(", "))
                    );
                }
                if let Some(custom) = &item.custom {
                    let _ = write!(out, r#"<p class="custom">{}</p>"#, Esc(custom));
                }
            }
            out.push_str("</dd>");
        }
        out.push_str("</dl>");
    }
    let _ = write!(
        out,
        r#"</section><p class="back"><a href="/">{}</a></p>"#,
        Esc(t.back_to_waiting)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::form::tests::request;

    #[test]
    fn text_is_escaped_for_content_and_attributes() {
        assert_eq!(
            Esc(r#"<a href="x">Tom & 'Jerry'</a>"#).to_string(),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
        assert_eq!(Esc("plain 中文").to_string(), "plain 中文");
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

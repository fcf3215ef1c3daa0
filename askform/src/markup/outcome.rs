//! How an ask ended, as HTML: on the server for a finished ask, in the
//! browser when the ask ends while its page is open.

use super::{html::Html, question_name};
use crate::{
    i18n::{Lang, Speak},
    state::{Ended, Unsent},
};
use interaction::{short_time, Ask, AskStatus};

/// An ask that ended while its page was open: a note when it ended
/// elsewhere first, the text typed but never sent (each with a copy
/// button, `data-copy` its index in `ended.unsent`), and the outcome.
pub fn ended(ended: &Ended, lang: Lang) -> String {
    let t = lang.t();
    let mut html = Html::default();
    if ended.late {
        html.raw(r#"<p class="refused" role="alert">"#)
            .text(t.ended_before)
            .raw("</p>");
    }
    if !ended.unsent.is_empty() {
        html.raw(
            r#"<section class="unsent" aria-labelledby="unsent-heading"><h2 id="unsent-heading">"#,
        )
        .text(t.unsent_heading)
        .raw("</h2><ul>");
        for (n, Unsent { index, text }) in ended.unsent.iter().enumerate() {
            let name = ended
                .ask
                .request
                .questions()
                .get(*index)
                .map(|q| question_name(q, *index, t))
                .unwrap_or_default();
            html.raw(r#"<li><p class="unsent-name">"#)
                .text(&name)
                .raw(r#"</p><pre class="unsent-text">"#)
                .text(text)
                .raw(r#"</pre><button type="button" class="quiet" data-copy=""#)
                .number(n)
                .raw(r#"">"#)
                .text(t.copy)
                .raw("</button></li>");
        }
        html.raw("</ul></section>");
    }
    html.raw(&outcome(&ended.ask, lang));
    html.0
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
    let mut html = Html::with_capacity(1024);
    html.raw(
        r#"<section class="outcome" aria-labelledby="outcome-heading"><h2 id="outcome-heading">"#,
    )
    .text(t.status(ask.status))
    .raw(r#"</h2><p role="status">"#)
    .text(&line)
    .raw("</p>");
    if let Some(reason) = &ask.decline_reason {
        html.raw(r#"<p class="reason">"#)
            .text(t.your_reason)
            .raw(" <q>")
            .text(reason)
            .raw("</q></p>");
    }
    if let Some(items) = &ask.answers {
        html.raw(r#"<dl class="answers">"#);
        for (i, q) in ask.request.questions().iter().enumerate() {
            html.raw("<dt>")
                .text(&question_name(q, i, t))
                .raw(": ")
                .text(&q.question)
                .raw("</dt><dd>");
            if let Some(item) = items.iter().find(|item| item.id == q.id) {
                if !item.selected.is_empty() {
                    html.raw(r#"<p class="selected">"#)
                        .text(&item.selected.join(", "))
                        .raw("</p>");
                }
                if let Some(custom) = &item.custom {
                    html.raw(r#"<p class="custom">"#).text(custom).raw("</p>");
                }
            }
            html.raw("</dd>");
        }
        html.raw("</dl>");
    }
    html.raw(r#"</section><p class="back"><a href="/">"#)
        .text(t.back_to_waiting)
        .raw("</a></p>");
    html.0
}

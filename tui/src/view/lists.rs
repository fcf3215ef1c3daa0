//! The screens that list things: the queue of pending asks, the review of
//! every answer, and how an ask ended.

use super::{
    push_defaults_line, push_item, push_problems, push_wrapped, question_name, scrolled,
    shown_title, title_line, INDENT,
};
use crate::{
    i18n::Words,
    model::{status_word, Model},
    session::Session,
    text::wrap,
};
use interaction::{Ask, AskStatus};
use ratatui::{
    layout::Rect,
    style::{Style, Stylize},
    text::{Line, Span},
    widgets::Paragraph,
    Frame,
};

pub(super) fn queue(model: &Model, t: &Words, frame: &mut Frame, area: Rect) {
    let Some(queue) = model.queue() else {
        return;
    };
    let columns = usize::from(area.width);
    let mut lines = vec![
        Line::from(vec![
            "askdesk ".bold(),
            (t.waiting)(queue.asks.len()).into(),
        ]),
        Line::from(""),
    ];
    if queue.asks.is_empty() && !model.busy {
        push_wrapped(&mut lines, t.empty_queue, columns, "", Style::new().dim());
    }
    let mut focus_line = 0;
    for (i, ask) in queue.asks.iter().enumerate() {
        let focused = i == queue.focus;
        if focused {
            focus_line = lines.len();
        }
        let title = shown_title(ask.title.as_deref(), t);
        let style = if focused {
            Style::new().reversed()
        } else {
            Style::new()
        };
        let pointer = if focused { "› " } else { "  " };
        for (n, piece) in wrap(&title, columns.saturating_sub(2))
            .into_iter()
            .enumerate()
        {
            let lead = if n == 0 { pointer } else { "  " };
            lines.push(Line::from(vec![
                Span::raw(lead),
                Span::styled(piece, style),
            ]));
        }
        let count = (t.questions)(ask.question_count);
        let meta = format!(
            "{} · {count} · {} {}",
            ask.agent.clone().unwrap_or_else(|| t.an_agent.to_owned()),
            t.asked,
            ask.created_at.short()
        );
        push_wrapped(&mut lines, &meta, columns, "    ", Style::new().dim());
    }
    scrolled(frame, area, lines, focus_line);
}

pub(super) fn review(session: &Session, t: &Words, now: i64, frame: &mut Frame, area: Rect) {
    let columns = usize::from(area.width);
    let blockers = session.batch.blockers();
    let mut lines = vec![title_line(session, t, t.review.to_owned()), Line::from("")];
    push_defaults_line(&mut lines, session, t, now, columns);
    for (i, draft) in session.batch.drafts().iter().enumerate() {
        let question = draft.question();
        let name = question_name(question, i, t);
        push_wrapped(
            &mut lines,
            &format!("{}. {name}: {}", i + 1, question.question),
            columns,
            "",
            Style::new().bold(),
        );
        match blockers.iter().find(|b| b.index == i) {
            Some(blocker) => push_wrapped(
                &mut lines,
                &format!("✗ {}", t.reason(&blocker.reason)),
                columns,
                INDENT,
                Style::new().yellow(),
            ),
            None => push_item(&mut lines, &draft.item(), t, columns),
        }
        push_problems(&mut lines, session, &question.id, columns, INDENT);
    }
    lines.push(Line::from(""));
    if blockers.is_empty() {
        lines.push(Line::from(t.press_enter.green()));
    } else {
        lines.push(Line::from((t.still_needed)(blockers.len()).yellow()));
    }
    // Scrolling stops where the last line is at the bottom.
    let most = lines.len().saturating_sub(usize::from(area.height));
    let offset = usize::from(session.review_scroll).min(most);
    let offset = u16::try_from(offset).unwrap_or(u16::MAX);
    frame.render_widget(Paragraph::new(lines).scroll((offset, 0)), area);
}

pub(super) fn outcome(ask: &Ask, t: &Words, frame: &mut Frame, area: Rect) {
    let columns = usize::from(area.width);
    let title = shown_title(ask.title.as_deref(), t);
    let mut lines = vec![
        Line::from(vec!["askdesk ".bold(), Span::raw(title)]),
        Line::from(""),
    ];
    let word = status_word(t, ask.status);
    let style = if ask.status == AskStatus::Answered {
        Style::new().green().bold()
    } else {
        Style::new().bold()
    };
    lines.push(Line::from(Span::styled((t.this_ask_is)(word), style)));
    if ask.defaulted {
        push_wrapped(&mut lines, t.defaulted, columns, "", Style::new().yellow());
    }
    if let Some(reason) = &ask.decline_reason {
        push_wrapped(
            &mut lines,
            &format!("{}{reason}", t.reason),
            columns,
            "",
            Style::new(),
        );
    }
    if let Some(items) = &ask.answers {
        for (i, question) in ask.request.questions().iter().enumerate() {
            let name = question_name(question, i, t);
            push_wrapped(
                &mut lines,
                &format!("{}. {name}", i + 1),
                columns,
                "",
                Style::new().bold(),
            );
            if let Some(item) = items.iter().find(|item| item.id == question.id) {
                push_item(&mut lines, item, t, columns);
            }
        }
    }
    frame.render_widget(Paragraph::new(lines), area);
}

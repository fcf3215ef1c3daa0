//! What the screen shows for a [`Model`]: a pure function of the model and
//! the frame's size.

use crate::{
    i18n::{Speak, Words},
    model::{status_word, Model, Screen, Session},
    text::{char_width, width, wrap},
};
use interaction::{AnswerItem, Ask, AskStatus, Mode, Reason};
use ratatui::{
    layout::{Constraint, Layout, Position, Rect},
    style::{Modifier, Style, Stylize},
    text::{Line, Span},
    widgets::{Block, Borders, Paragraph},
    Frame,
};

const INDENT: &str = "      ";

/// Draws the model.
pub fn view(model: &Model, frame: &mut Frame) {
    let t = model.lang.t();
    let hints = match (model.screen, &model.session) {
        (Screen::Queue, _) => t.hints_queue,
        (Screen::Answer, Some(s)) if s.draft().is_some_and(|d| d.mode() == Mode::Custom) => {
            if s.option_count() == 0 {
                t.hints_typing_free
            } else {
                t.hints_typing_other
            }
        }
        (Screen::Answer, _) => t.hints_options,
        (Screen::Review, _) => t.hints_review,
        (Screen::Decline, _) => t.hints_decline,
        (Screen::Outcome, _) => t.hints_outcome,
    };
    let hint_lines = wrap(hints, usize::from(frame.area().width));
    let footer_height = u16::try_from(hint_lines.len() + 1).unwrap_or(u16::MAX);
    let [body, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(footer_height)])
        .areas(frame.area());
    match model.screen {
        Screen::Queue => queue(model, t, frame, body),
        Screen::Answer => {
            if let Some(session) = &model.session {
                answer(session, t, frame, body);
            }
        }
        Screen::Review => {
            if let Some(session) = &model.session {
                review(session, t, frame, body);
            }
        }
        Screen::Decline => {
            if let Some(session) = &model.session {
                decline(session, t, frame, body);
            }
        }
        Screen::Outcome => {
            if let Some(ask) = &model.outcome {
                outcome(ask, t, frame, body);
            }
        }
    }
    let mut status = Vec::new();
    if let Some(notice) = &model.notice {
        status.push(Line::from(notice.clone().yellow()));
    } else if model.busy {
        status.push(Line::from(t.working.dim()));
    } else {
        status.push(Line::from(""));
    }
    status.extend(hint_lines.into_iter().map(|l| Line::from(l.dim())));
    frame.render_widget(Paragraph::new(status), footer);
}

/// Pushes `text` wrapped to `columns`, each line after `indent`.
fn push_wrapped(
    lines: &mut Vec<Line<'static>>,
    text: &str,
    columns: usize,
    indent: &str,
    style: Style,
) {
    for piece in wrap(text, columns.saturating_sub(width(indent))) {
        lines.push(Line::from(vec![
            Span::raw(indent.to_owned()),
            Span::styled(piece, style),
        ]));
    }
}

/// Pushes the problems the server reported for question `id`.
fn push_problems(
    lines: &mut Vec<Line<'static>>,
    session: &Session,
    id: &str,
    columns: usize,
    indent: &str,
) {
    for problem in session
        .problems
        .iter()
        .filter(|p| p.question_id.as_deref() == Some(id))
    {
        push_wrapped(
            lines,
            &format!("✗ {}", problem.message),
            columns,
            indent,
            Style::new().red(),
        );
    }
}

/// Pushes an answer item: its chosen labels and its Other text.
fn push_item(lines: &mut Vec<Line<'static>>, item: &AnswerItem, t: &Words, columns: usize) {
    if !item.selected.is_empty() {
        let text = format!("{}{}", t.selected, item.selected.join(", "));
        push_wrapped(lines, &text, columns, INDENT, Style::new());
    }
    if let Some(custom) = &item.custom {
        push_wrapped(
            lines,
            &format!("{}{custom}", t.other),
            columns,
            INDENT,
            Style::new(),
        );
    }
}

/// Shows `lines` in `area`, scrolled so line `focus` is in view.
fn scrolled(frame: &mut Frame, area: Rect, lines: Vec<Line<'static>>, focus: usize) -> u16 {
    let height = usize::from(area.height).max(1);
    let offset = focus.saturating_sub(height.saturating_sub(2));
    let offset = u16::try_from(offset).unwrap_or(u16::MAX);
    frame.render_widget(Paragraph::new(lines).scroll((offset, 0)), area);
    offset
}

fn title_line(session: &Session, t: &Words, right: String) -> Line<'static> {
    let title = session
        .title
        .clone()
        .unwrap_or_else(|| t.untitled.to_owned());
    Line::from(vec![
        "askdesk ".bold(),
        Span::raw(title),
        Span::raw("  "),
        right.dim(),
    ])
}

fn answer(session: &Session, t: &Words, frame: &mut Frame, area: Rect) {
    let Some(draft) = session.draft() else {
        return;
    };
    let question = draft.question();
    let columns = usize::from(area.width);
    let preview = question
        .options
        .get(session.focus)
        .and_then(|o| o.preview.clone())
        .filter(|p| !p.trim().is_empty());
    let (main, preview_area) = match preview {
        Some(_) if area.height >= 12 => {
            let [main, side] =
                Layout::vertical([Constraint::Min(6), Constraint::Length(area.height / 3)])
                    .areas(area);
            (main, Some(side))
        }
        _ => (area, None),
    };
    let mut lines = vec![
        title_line(
            session,
            t,
            (t.question_of)(session.current + 1, session.len()),
        ),
        Line::from(""),
    ];
    if let Some(header) = &question.header {
        lines.push(Line::from(header.clone().bold().underlined()));
    }
    push_wrapped(
        &mut lines,
        &question.question,
        columns,
        "",
        Style::new().add_modifier(Modifier::BOLD),
    );
    lines.push(Line::from(""));
    let custom_mode = draft.mode() == Mode::Custom;
    let mut focus_line = 0;
    for (i, option) in question.options.iter().enumerate() {
        let focused = !custom_mode && session.focus == i;
        if focused {
            focus_line = lines.len();
        }
        let mark = match (question.multi_select, draft.is_checked(i)) {
            (true, true) => "[x]",
            (true, false) => "[ ]",
            (false, true) => "(•)",
            (false, false) => "( )",
        };
        let pointer = if focused { "› " } else { "  " };
        let label_style = if focused {
            Style::new().reversed()
        } else {
            Style::new()
        };
        let head = format!("{pointer}{mark} {}. ", i + 1);
        let pieces = wrap(&option.label, columns.saturating_sub(width(&head)));
        for (n, piece) in pieces.into_iter().enumerate() {
            let lead = if n == 0 {
                head.clone()
            } else {
                " ".repeat(width(&head))
            };
            lines.push(Line::from(vec![
                Span::raw(lead),
                Span::styled(piece, label_style),
            ]));
        }
        if let Some(description) = &option.description {
            push_wrapped(&mut lines, description, columns, INDENT, Style::new().dim());
        }
    }
    // The Other line (or the answer box of an optionless question).
    let other_label = if question.options.is_empty() {
        t.your_answer
    } else {
        t.other
    };
    let other_focused = custom_mode || session.focus == question.options.len();
    if other_focused {
        focus_line = lines.len();
    }
    let pointer = if other_focused && !question.options.is_empty() {
        "› "
    } else {
        "  "
    };
    let head = format!("{pointer}{other_label}");
    let text_columns = columns.saturating_sub(width(&head)).max(1);
    let text_lines = wrap_chars(draft.custom(), text_columns);
    let first_text_line = lines.len();
    let text_style = if custom_mode {
        Style::new().underlined()
    } else {
        Style::new()
    };
    for (n, piece) in text_lines.iter().enumerate() {
        let lead = if n == 0 {
            head.clone()
        } else {
            " ".repeat(width(&head))
        };
        lines.push(Line::from(vec![
            Span::raw(lead),
            Span::styled(piece.clone(), text_style),
        ]));
    }
    if draft.custom_overrides_choice() {
        lines.push(Line::from(format!("{INDENT}{}", t.overrides).italic()));
    }
    push_problems(&mut lines, session, &question.id, columns, "  ");
    if let Err(reason) = draft.status() {
        if reason != Reason::Unanswered {
            push_wrapped(
                &mut lines,
                &format!("{}{}", t.not_ready, t.reason(&reason)),
                columns,
                "  ",
                Style::new().yellow(),
            );
        }
    }
    if custom_mode {
        let before = &draft.custom()[..session.editor.cursor.min(draft.custom().len())];
        let (line, column) = cursor_at(before, text_columns);
        focus_line = first_text_line + line;
        let offset = scrolled(frame, main, lines, focus_line);
        let y = (first_text_line + line).saturating_sub(usize::from(offset));
        if y < usize::from(main.height) {
            let x = main
                .x
                .saturating_add(u16::try_from(width(&head) + column).unwrap_or(u16::MAX));
            let y = main.y.saturating_add(u16::try_from(y).unwrap_or(u16::MAX));
            frame.set_cursor_position(Position::new(x.min(main.right().saturating_sub(1)), y));
        }
    } else {
        scrolled(frame, main, lines, focus_line);
    }
    if let (Some(side), Some(option)) = (preview_area, question.options.get(session.focus)) {
        let mut preview_lines = Vec::new();
        let inner_columns = usize::from(side.width.saturating_sub(2));
        push_wrapped(
            &mut preview_lines,
            option.preview.as_deref().unwrap_or(""),
            inner_columns,
            "",
            Style::new(),
        );
        let block = Block::new()
            .borders(Borders::ALL)
            .title(format!(" {}: {} ", t.preview, option.label));
        frame.render_widget(Paragraph::new(preview_lines).block(block), side);
    }
}

/// Wraps editable text between characters only, so the wrapping of any
/// prefix is a prefix of the wrapping and the cursor can be placed exactly.
fn wrap_chars(text: &str, columns: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    let mut used = 0;
    for c in text.chars() {
        if c == '\n' {
            lines.push(String::new());
            used = 0;
            continue;
        }
        let w = char_width(c);
        if used + w > columns {
            lines.push(String::new());
            used = 0;
        }
        if let Some(line) = lines.last_mut() {
            line.push(c);
        }
        used += w;
    }
    lines
}

/// The line and column where the cursor after `before` sits.
fn cursor_at(before: &str, columns: usize) -> (usize, usize) {
    let lines = wrap_chars(before, columns);
    let line = lines.len() - 1;
    let column = lines.last().map_or(0, |l| width(l));
    if column >= columns {
        (line + 1, 0)
    } else {
        (line, column)
    }
}

fn review(session: &Session, t: &Words, frame: &mut Frame, area: Rect) {
    let columns = usize::from(area.width);
    let blockers = session.batch.blockers();
    let mut lines = vec![title_line(session, t, t.review.to_owned()), Line::from("")];
    for (i, draft) in session.batch.drafts().iter().enumerate() {
        let question = draft.question();
        let name = question
            .header
            .clone()
            .unwrap_or_else(|| (t.question_n)(i + 1));
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

fn decline(session: &Session, t: &Words, frame: &mut Frame, area: Rect) {
    let columns = usize::from(area.width);
    let mut lines = vec![title_line(session, t, t.decline.to_owned()), Line::from("")];
    push_wrapped(
        &mut lines,
        t.decline_question,
        columns,
        "",
        Style::new().bold(),
    );
    lines.push(Line::from(""));
    let head = t.reason_optional;
    let text_columns = columns.saturating_sub(width(head)).max(1);
    let first = lines.len();
    for (n, piece) in wrap_chars(&session.reason, text_columns)
        .into_iter()
        .enumerate()
    {
        let lead = if n == 0 {
            head.to_owned()
        } else {
            " ".repeat(width(head))
        };
        lines.push(Line::from(vec![Span::raw(lead), piece.underlined()]));
    }
    let before = &session.reason[..session.reason_editor.cursor.min(session.reason.len())];
    let (line, column) = cursor_at(before, text_columns);
    frame.render_widget(Paragraph::new(lines), area);
    let x = area
        .x
        .saturating_add(u16::try_from(width(head) + column).unwrap_or(u16::MAX));
    let y = area
        .y
        .saturating_add(u16::try_from(first + line).unwrap_or(u16::MAX));
    if y < area.bottom() {
        frame.set_cursor_position(Position::new(x.min(area.right().saturating_sub(1)), y));
    }
}

fn queue(model: &Model, t: &Words, frame: &mut Frame, area: Rect) {
    let columns = usize::from(area.width);
    let mut lines = vec![
        Line::from(vec![
            "askdesk ".bold(),
            (t.waiting)(model.queue.len()).into(),
        ]),
        Line::from(""),
    ];
    if model.queue.is_empty() && !model.busy {
        push_wrapped(&mut lines, t.empty_queue, columns, "", Style::new().dim());
    }
    let mut focus_line = 0;
    for (i, ask) in model.queue.iter().enumerate() {
        let focused = i == model.queue_focus;
        if focused {
            focus_line = lines.len();
        }
        let title = ask.title.clone().unwrap_or_else(|| t.untitled.to_owned());
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
            short_time(&ask.created_at)
        );
        push_wrapped(&mut lines, &meta, columns, "    ", Style::new().dim());
    }
    scrolled(frame, area, lines, focus_line);
}

fn outcome(ask: &Ask, t: &Words, frame: &mut Frame, area: Rect) {
    let columns = usize::from(area.width);
    let title = ask.title.clone().unwrap_or_else(|| t.untitled.to_owned());
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
        for (i, question) in ask.request.questions.iter().enumerate() {
            let name = question
                .header
                .clone()
                .unwrap_or_else(|| (t.question_n)(i + 1));
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

/// `2026-11-30T11:20:00.000Z` as `2026-11-30 11:20 UTC`.
fn short_time(rfc3339: &str) -> String {
    match (rfc3339.get(..10), rfc3339.get(11..16)) {
        (Some(day), Some(time)) => format!("{day} {time} UTC"),
        _ => rfc3339.to_owned(),
    }
}

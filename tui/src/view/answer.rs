//! The answering screen (one question, its options and Other text) and the
//! decline screen.

use super::{
    push_defaults_line, push_headed, push_item, push_problems, push_wrapped, scrolled, title_line,
    INDENT,
};
use crate::{
    i18n::Words,
    session::{Mode, Session},
    text::{cursor_at, width, wrap, wrap_chars},
};
use interaction::{QuestionDraft, QuestionOption, Reason};
use ratatui::{
    layout::{Constraint, Layout, Position, Rect},
    style::{Modifier, Style, Stylize},
    text::{Line, Span},
    widgets::{Block, Borders, Paragraph},
    Frame,
};

pub(super) fn answer(session: &Session, t: &Words, now: i64, frame: &mut Frame, area: Rect) {
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
    push_defaults_line(&mut lines, session, t, now, columns);
    push_context(&mut lines, session, columns);
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
    let custom_mode = session.mode() == Mode::Custom;
    let mut focus_line = push_options(&mut lines, session, draft, columns);
    push_expects(&mut lines, question, t, columns);
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
    push_headed(&mut lines, &head, text_lines.iter().cloned(), text_style);
    if draft.custom_overrides_choice() {
        lines.push(Line::from(format!("{INDENT}{}", t.overrides).italic()));
    }
    push_problems(&mut lines, session, &question.id, columns, "  ");
    push_status(&mut lines, session, draft, t, columns);
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
        render_preview(frame, side, option, t);
    }
}

/// The question's options, one a line (or more, wrapped) with its mark and
/// description; the line the focus is on, if it is on an option.
/// How many lines of what the agent was doing each question's screen
/// shows above it.
const CONTEXT_LINES: usize = 6;

/// What the agent was doing when it asked, dimmed and marked as its words,
/// cut to [`CONTEXT_LINES`].
fn push_context(lines: &mut Vec<Line<'static>>, session: &Session, columns: usize) {
    let Some(context) = session.request.context() else {
        return;
    };
    let pieces = crate::text::wrap(context, columns.saturating_sub(2));
    let cut = pieces.len() > CONTEXT_LINES;
    let shown = pieces
        .into_iter()
        .take(CONTEXT_LINES)
        .chain(cut.then(|| "…".to_owned()));
    for piece in shown {
        lines.push(Line::from(vec![
            Span::raw("│ "),
            Span::styled(piece, Style::new().add_modifier(Modifier::DIM)),
        ]));
    }
    lines.push(Line::from(""));
}

fn push_options(
    lines: &mut Vec<Line<'static>>,
    session: &Session,
    draft: &QuestionDraft,
    columns: usize,
) -> usize {
    let question = draft.question();
    let custom_mode = session.mode() == Mode::Custom;
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
        push_headed(lines, &head, pieces, label_style);
        if let Some(description) = &option.description {
            push_wrapped(lines, description, columns, INDENT, Style::new().dim());
        }
    }
    focus_line
}

/// What a typed question expects: its format and bounds.
fn push_expects(
    lines: &mut Vec<Line<'static>>,
    question: &interaction::Question,
    t: &Words,
    columns: usize,
) {
    if let Some(format) = question.format() {
        let bound = |b: &Option<interaction::Scalar>| b.as_ref().map(interaction::Scalar::text);
        let (least, most) = (bound(&question.minimum), bound(&question.maximum));
        push_wrapped(
            lines,
            &(t.expects)(format, least.as_deref(), most.as_deref()),
            columns,
            "",
            Style::new().dim(),
        );
    }
}

/// Why the draft cannot be sent yet (once there is something in it), and
/// the agent's default answer for this question.
fn push_status(
    lines: &mut Vec<Line<'static>>,
    session: &Session,
    draft: &QuestionDraft,
    t: &Words,
    columns: usize,
) {
    if let Err(reason) = draft.status() {
        if reason != Reason::Unanswered {
            push_wrapped(
                lines,
                &format!("{}{}", t.not_ready, t.reason(&reason)),
                columns,
                "  ",
                Style::new().yellow(),
            );
        }
    }
    if let Some(item) = session.default_for(&draft.question().id) {
        lines.push(Line::from(""));
        push_wrapped(lines, t.default_is, columns, "  ", Style::new().dim());
        push_item(lines, item, t, columns);
    }
}

/// The focused option's preview, in a box of its own: its bidirectional
/// controls shown as their code points, so that a command reads in the
/// order it runs.
fn render_preview(frame: &mut Frame, side: Rect, option: &QuestionOption, t: &Words) {
    let mut preview_lines = Vec::new();
    let inner_columns = usize::from(side.width.saturating_sub(2));
    let preview = option.preview.as_deref().unwrap_or("");
    push_wrapped(
        &mut preview_lines,
        &interaction::with_visible_controls(preview),
        inner_columns,
        "",
        Style::new(),
    );
    let block = Block::new()
        .borders(Borders::ALL)
        .title(format!(" {}: {} ", t.preview, option.label));
    frame.render_widget(Paragraph::new(preview_lines).block(block), side);
}

pub(super) fn decline(session: &Session, t: &Words, frame: &mut Frame, area: Rect) {
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

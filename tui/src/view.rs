//! What the screen shows for a [`Model`]: a pure function of the model and
//! the frame's size. [`answer`] draws the answering and declining screens,
//! [`lists`] the queue, the review and an ask's outcome.

mod answer;
mod lists;

use crate::{
    i18n::{Speak, Words},
    model::{Model, Screen},
    session::{Mode, Session},
    text::{width, wrap},
};
use interaction::{AnswerItem, Question};
use ratatui::{
    layout::{Constraint, Layout, Rect},
    style::{Style, Stylize},
    text::{Line, Span},
    widgets::Paragraph,
    Frame,
};

const INDENT: &str = "      ";

/// Draws the model.
pub fn view(model: &Model, frame: &mut Frame) {
    let t = model.lang.t();
    let hints = match &model.screen {
        Screen::Queue => t.hints_queue,
        Screen::Answer(s) if s.mode() == Mode::Custom => {
            if s.option_count() == 0 {
                t.hints_typing_free
            } else {
                t.hints_typing_other
            }
        }
        Screen::Answer(_) => t.hints_options,
        Screen::Review(_) => t.hints_review,
        Screen::Decline(_) => t.hints_decline,
        Screen::Outcome(_) => t.hints_outcome,
    };
    let hint_lines = wrap(hints, usize::from(frame.area().width));
    let footer_height = u16::try_from(hint_lines.len() + 1).unwrap_or(u16::MAX);
    let [body, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(footer_height)])
        .areas(frame.area());
    match &model.screen {
        Screen::Queue => lists::queue(model, t, frame, body),
        Screen::Answer(session) => answer::answer(session, t, model.now, frame, body),
        Screen::Review(session) => lists::review(session, t, model.now, frame, body),
        Screen::Decline(session) => answer::decline(session, t, frame, body),
        Screen::Outcome(ask) => lists::outcome(ask, t, frame, body),
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
/// Pushes `pieces` (the lines of one wrapped text) after `head` on the
/// first line and under it, hanging, on the others.
fn push_headed(
    lines: &mut Vec<Line<'static>>,
    head: &str,
    pieces: impl IntoIterator<Item = String>,
    style: Style,
) {
    for (n, piece) in pieces.into_iter().enumerate() {
        let lead = if n == 0 {
            head.to_owned()
        } else {
            " ".repeat(width(head))
        };
        lines.push(Line::from(vec![
            Span::raw(lead),
            Span::styled(piece, style),
        ]));
    }
}

/// A question's name: its header, or its number.
fn question_name(question: &Question, index: usize, t: &Words) -> String {
    question
        .header
        .clone()
        .unwrap_or_else(|| (t.question_n)(index + 1))
}

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

/// Pushes when the agent's default answers apply and the time left at
/// `now`, if the session has defaults.
fn push_defaults_line(
    lines: &mut Vec<Line<'static>>,
    session: &Session,
    t: &Words,
    now: i64,
    columns: usize,
) {
    if let Some((at, _)) = &session.defaults {
        let text = (t.defaults_by)(&at.short(), &time_left(at.ms() - now));
        push_wrapped(lines, &text, columns, "", Style::new().yellow());
        lines.push(Line::from(""));
    }
}

/// `ms` as a countdown: `4:05`, or `2:04:05` from an hour up; a part of
/// a second counts as a whole one, so it reads `0:00` only when time is up.
pub fn time_left(ms: i64) -> String {
    let seconds = ms.max(0).saturating_add(999) / 1000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds % 3600 / 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
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

/// An ask's title as the terminal shows it. A terminal isolates nothing,
/// so the title's bidirectional controls are shown as their code points
/// ([`interaction::with_visible_controls`]), not followed.
fn shown_title(title: Option<&str>, t: &Words) -> String {
    title.map_or_else(
        || t.untitled.to_owned(),
        |title| interaction::with_visible_controls(title).into_owned(),
    )
}

fn title_line(session: &Session, t: &Words, right: String) -> Line<'static> {
    let title = shown_title(session.title.as_deref(), t);
    Line::from(vec![
        "askdesk ".bold(),
        Span::raw(title),
        Span::raw("  "),
        right.dim(),
    ])
}

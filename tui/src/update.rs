//! How keys and replies change the [`Model`]: the Elm shape's `update`. All
//! rules about answers come from the `interaction` crate's drafts; nothing
//! here restates one.

use crate::{
    i18n::Speak,
    model::{status_word, Command, Exit, Link, Message, Model, Screen},
    session::{Mode, Session},
    text::Editor,
};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use interaction::Ask;

/// The screen after a key, and what the loop should do.
type Step = (Screen, Option<Command>);

fn ctrl(key: &KeyEvent, c: char) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char(c)
}

/// Applies `message` to `model`, returning what the loop should do next.
pub fn update(model: &mut Model, message: Message) -> Option<Command> {
    match message {
        Message::Key(key) if key.kind != KeyEventKind::Release => {
            if ctrl(&key, 'c') {
                return Some(Command::Exit(Exit::Interrupted));
            }
            let screen = std::mem::replace(&mut model.screen, Screen::Queue);
            let (screen, command) = match screen {
                Screen::Queue => queue_key(model, key),
                Screen::Answer(session) => answer_key(session, key),
                Screen::Review(session) => review_key(model, session, key),
                Screen::Decline(session) => decline_key(model, session, key),
                Screen::Outcome(ask) => outcome_key(model, ask, key),
            };
            model.screen = screen;
            command
        }
        Message::Key(_) => None,
        Message::Queue(Ok(list)) => {
            if let Link::Connected(queue) = &mut model.link {
                queue.asks = list.asks;
                queue.version = list.version;
                queue.focus = queue.focus.min(queue.asks.len().saturating_sub(1));
            }
            model.busy = false;
            if matches!(model.screen, Screen::Queue) {
                model.notice = None;
            }
            None
        }
        Message::Queue(Err(e)) | Message::Opened(Err(e)) => {
            model.busy = false;
            model.notice = Some(e.to_string());
            None
        }
        Message::Opened(Ok(ask)) => {
            model.busy = false;
            open(model, ask);
            None
        }
        Message::Sent(result) => {
            model.busy = false;
            sent(model, result);
            None
        }
        Message::Tick(now) => {
            model.now = now;
            None
        }
    }
}

fn open(model: &mut Model, ask: Ask) {
    if ask.status.is_finished() {
        model.screen = Screen::Outcome(Box::new(ask));
        return;
    }
    // The ask's request was validated when it was decoded.
    let defaults = ask.expires_at.zip(ask.default_answers);
    let session =
        Session::new(Some(ask.id), ask.title, ask.agent, ask.request).with_defaults(defaults);
    model.screen = Screen::Answer(session);
    model.notice = None;
}

fn sent(model: &mut Model, result: Result<Ask, client::Error>) {
    match result {
        Ok(ask) => {
            model.notice = None;
            model.screen = Screen::Outcome(Box::new(ask));
        }
        Err(client::Error::Finished { ask, .. }) => {
            let t = model.lang.t();
            model.notice = Some((t.ended_not_sent)(status_word(t, ask.status)));
            model.screen = Screen::Outcome(ask);
        }
        Err(client::Error::Invalid { problems, .. }) => {
            model.notice = Some((model.lang.t().server_refused)(problems.len()));
            model.screen = match std::mem::replace(&mut model.screen, Screen::Queue) {
                Screen::Answer(mut session)
                | Screen::Review(mut session)
                | Screen::Decline(mut session) => {
                    session.problems = problems;
                    Screen::Review(session)
                }
                other => other,
            };
        }
        Err(e) => model.notice = Some(e.to_string()),
    }
}

fn queue_key(model: &mut Model, key: KeyEvent) -> Step {
    let Link::Connected(queue) = &mut model.link else {
        return (Screen::Queue, None);
    };
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => queue.focus = queue.focus.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => {
            queue.focus = (queue.focus + 1).min(queue.asks.len().saturating_sub(1));
        }
        KeyCode::Enter => {
            if let Some(ask) = queue.asks.get(queue.focus) {
                let id = ask.id.clone();
                model.busy = true;
                return (Screen::Queue, Some(Command::Open(id)));
            }
        }
        KeyCode::Char('r') => {
            model.busy = true;
            return (Screen::Queue, Some(Command::Refresh));
        }
        KeyCode::Char('q') | KeyCode::Esc => {
            return (Screen::Queue, Some(Command::Exit(Exit::Quit)))
        }
        _ => {}
    }
    (Screen::Queue, None)
}

fn answer_key(mut session: Session, key: KeyEvent) -> Step {
    if ctrl(&key, 's') {
        return (Screen::Review(session), None);
    }
    match key.code {
        KeyCode::Tab => {
            session.go_to(session.current + 1);
            (Screen::Answer(session), None)
        }
        KeyCode::BackTab => {
            session.go_to(session.current.saturating_sub(1));
            (Screen::Answer(session), None)
        }
        _ if session.mode() == Mode::Custom => custom_key(session, key),
        _ => option_key(session, key),
    }
}

/// Keys in option mode: move, check, jump, and leave the question.
fn option_key(mut session: Session, key: KeyEvent) -> Step {
    let others = session.option_count();
    let multi = session.draft().is_some_and(|d| d.question().multi_select);
    let choose = |session: &mut Session, index: usize| {
        if let Some(draft) = session.draft_mut() {
            if multi {
                draft.toggle(index);
            } else {
                draft.pick(index);
            }
        }
    };
    let enter_custom = |session: &mut Session| {
        session.focus = others;
        session.set_mode(Mode::Custom);
        session.editor = Editor::at_end(session.draft().map_or("", |d| d.custom()));
    };
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => session.focus = session.focus.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => session.focus = (session.focus + 1).min(others),
        KeyCode::Char(' ') if session.focus < others => {
            let focus = session.focus;
            choose(&mut session, focus);
        }
        KeyCode::Char(' ' | 'o') => enter_custom(&mut session),
        KeyCode::Char(d @ '1'..='9') => {
            let index = (d as usize) - ('1' as usize);
            if index < others {
                session.focus = index;
                choose(&mut session, index);
            }
        }
        KeyCode::Enter if session.focus == others => enter_custom(&mut session),
        KeyCode::Enter => {
            if session.current + 1 < session.len() {
                session.go_to(session.current + 1);
            } else {
                return (Screen::Review(session), None);
            }
        }
        KeyCode::Right | KeyCode::Char('l') => session.go_to(session.current + 1),
        KeyCode::Left | KeyCode::Char('h') => session.go_to(session.current.saturating_sub(1)),
        KeyCode::Esc => return (Screen::Decline(session), None),
        _ => {}
    }
    (Screen::Answer(session), None)
}

/// Keys in custom mode: edit the Other text; Esc leaves it (keeping it).
fn custom_key(mut session: Session, key: KeyEvent) -> Step {
    match key.code {
        KeyCode::Esc => {
            if session.option_count() == 0 {
                // Nothing to go back to on this question: Esc asks to decline.
                return (Screen::Decline(session), None);
            }
            session.set_mode(Mode::Options);
        }
        KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
            session.edit(|e, t| e.insert(t, c));
        }
        KeyCode::Enter => session.edit(|e, t| e.insert(t, '\n')),
        KeyCode::Backspace => session.edit(|e, t| e.backspace(t)),
        KeyCode::Delete => session.edit(|e, t| e.delete(t)),
        KeyCode::Left => session.edit(|e, t| e.left(t)),
        KeyCode::Right => session.edit(|e, t| e.right(t)),
        KeyCode::Home => session.edit(|e, t| e.home(t)),
        KeyCode::End => session.edit(|e, t| e.end(t)),
        KeyCode::Up => session.edit(|e, t| e.vertical(t, true)),
        KeyCode::Down => session.edit(|e, t| e.vertical(t, false)),
        _ => {}
    }
    (Screen::Answer(session), None)
}

fn review_key(model: &mut Model, mut session: Session, key: KeyEvent) -> Step {
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => {
            session.review_scroll = session.review_scroll.saturating_sub(1)
        }
        KeyCode::Down | KeyCode::Char('j') => {
            session.review_scroll = session.review_scroll.saturating_add(1)
        }
        KeyCode::PageUp => session.review_scroll = session.review_scroll.saturating_sub(10),
        KeyCode::PageDown => session.review_scroll = session.review_scroll.saturating_add(10),
        KeyCode::Enter | KeyCode::Char('s') => {
            let command = submit(model, &mut session);
            return (Screen::Review(session), command);
        }
        KeyCode::Esc | KeyCode::Backspace | KeyCode::Char('e') => {
            let first_blocked = session.batch.blockers().first().map(|b| b.index);
            session.go_to(first_blocked.unwrap_or(session.current));
            model.notice = None;
            return (Screen::Answer(session), None);
        }
        _ => {}
    }
    (Screen::Review(session), None)
}

/// Submits from the review: to stdout in keyless mode (once the validator
/// takes the answers), to the server otherwise.
fn submit(model: &mut Model, session: &mut Session) -> Option<Command> {
    let blockers = session.batch.blockers();
    if let Some(first) = blockers.first() {
        model.notice = Some((model.lang.t().go_back_to_them)(blockers.len()));
        session.go_to(first.index);
        return None;
    }
    let answers = session.batch.answers();
    match &session.id {
        None => match session.request.validate_answers(answers) {
            Ok(valid) => Some(Command::Exit(Exit::Answered(valid.into_answers()))),
            Err(problems) => {
                session.problems = problems.0;
                model.notice = Some(model.lang.t().refused_locally.to_owned());
                None
            }
        },
        Some(id) => {
            model.busy = true;
            Some(Command::Submit {
                id: id.clone(),
                answers,
            })
        }
    }
}

fn decline_key(model: &mut Model, mut session: Session, key: KeyEvent) -> Step {
    let mut editor = session.reason_editor.clone();
    match key.code {
        KeyCode::Esc => return (Screen::Answer(session), None),
        KeyCode::Enter => {
            let reason = Some(session.reason.trim().to_owned()).filter(|r| !r.is_empty());
            let command = match &session.id {
                None => Command::Exit(Exit::Declined(reason)),
                Some(id) => {
                    model.busy = true;
                    Command::Decline {
                        id: id.clone(),
                        reason,
                    }
                }
            };
            return (Screen::Decline(session), Some(command));
        }
        KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
            editor.insert(&mut session.reason, c);
        }
        KeyCode::Backspace => editor.backspace(&mut session.reason),
        KeyCode::Delete => editor.delete(&mut session.reason),
        KeyCode::Left => editor.left(&session.reason),
        KeyCode::Right => editor.right(&session.reason),
        _ => {}
    }
    session.reason_editor = editor;
    (Screen::Decline(session), None)
}

fn outcome_key(model: &mut Model, ask: Box<Ask>, key: KeyEvent) -> Step {
    match key.code {
        KeyCode::Enter | KeyCode::Esc | KeyCode::Char('q') => {
            model.busy = true;
            (Screen::Queue, Some(Command::Refresh))
        }
        _ => (Screen::Outcome(ask), None),
    }
}

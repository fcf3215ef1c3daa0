//! The terminal UI's state and how keys and replies change it (the Elm
//! shape: [`Model`], [`Message`], [`update`]). All rules about answers come
//! from the `interaction` crate's drafts; nothing here restates one.

use crate::{
    i18n::{Lang, Speak, Words},
    text::Editor,
};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use interaction::{
    Answers, Ask, AskList, AskStatus, AskSummary, BatchDraft, Mode, Problem, QuestionDraft,
    ValidRequest,
};

/// What the screen shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The pending asks of a server (connected mode).
    Queue,
    /// One question of the ask being answered.
    Answer,
    /// Every answer, before submitting.
    Review,
    /// "Decline this ask?", with a reason.
    Decline,
    /// How an ask ended (connected mode).
    Outcome,
}

/// How the program ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// Keyless mode: the human answered; these are the validated answers.
    Answered(Answers),
    /// Keyless mode: the human declined.
    Declined(Option<String>),
    /// The human pressed Ctrl-C.
    Interrupted,
    /// Connected mode: the human left the queue (`q`).
    Quit,
}

/// Something for `main` to do: the I/O that `update` never does itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Fetch the ask with this id.
    Open(String),
    /// Send the answers of ask `id`.
    Submit {
        /// The ask.
        id: String,
        /// The answers.
        answers: Answers,
    },
    /// Decline ask `id`.
    Decline {
        /// The ask.
        id: String,
        /// The human's reason.
        reason: Option<String>,
    },
    /// Re-read the queue now.
    Refresh,
    /// End the program.
    Exit(Exit),
}

/// Something that happened.
#[derive(Debug, Clone)]
pub enum Message {
    /// A key was pressed.
    Key(KeyEvent),
    /// The queue was read.
    Queue(Result<AskList, String>),
    /// An ask was fetched.
    Opened(Result<Ask, String>),
    /// An answer or decline was sent: the ask as it ended, or why not.
    Sent(Result<Ask, Refusal>),
}

/// Why the server did not take an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The answers broke the validator's rules.
    Invalid(Vec<Problem>),
    /// The ask had already ended, as shown.
    Finished(Box<Ask>),
    /// Anything else, for a person to read.
    Failed(String),
}

/// The ask being answered.
#[derive(Debug, Clone)]
pub struct Session {
    /// The ask's id on the server; `None` in keyless mode.
    pub id: Option<String>,
    /// What the ask is about.
    pub title: Option<String>,
    /// Who asked.
    pub agent: Option<String>,
    /// The questions.
    pub request: ValidRequest,
    /// The answers in progress.
    pub batch: BatchDraft,
    /// The question on screen.
    pub current: usize,
    /// The focused line of the question: an option, or (at
    /// `options.len()`) the Other line.
    pub focus: usize,
    /// The cursor in the current question's Other text.
    pub editor: Editor,
    /// The decline reason being typed.
    pub reason: String,
    /// The cursor in the decline reason.
    pub reason_editor: Editor,
    /// Problems the server reported for the last submission.
    pub problems: Vec<Problem>,
    /// How far the review screen is scrolled, in lines.
    pub review_scroll: u16,
}

impl Session {
    /// A fresh session over a validated request.
    pub fn new(
        id: Option<String>,
        title: Option<String>,
        agent: Option<String>,
        request: ValidRequest,
    ) -> Self {
        let batch = BatchDraft::new(&request);
        let mut session = Self {
            id,
            title,
            agent,
            request,
            batch,
            current: 0,
            focus: 0,
            editor: Editor::default(),
            reason: String::new(),
            reason_editor: Editor::default(),
            problems: Vec::new(),
            review_scroll: 0,
        };
        session.arrive();
        session
    }

    /// The draft on screen.
    pub fn draft(&self) -> Option<&QuestionDraft> {
        self.batch.draft(self.current)
    }

    fn draft_mut(&mut self) -> Option<&mut QuestionDraft> {
        self.batch.draft_mut(self.current)
    }

    /// The number of options of the question on screen (the Other line's index).
    pub fn option_count(&self) -> usize {
        self.draft().map_or(0, |d| d.question().options.len())
    }

    /// The question count.
    pub fn len(&self) -> usize {
        self.batch.drafts().len()
    }

    /// Whether the request has no questions (never, once validated).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Puts focus and cursor where they belong on arriving at a question.
    fn arrive(&mut self) {
        let custom_mode = self.draft().is_some_and(|d| d.mode() == Mode::Custom);
        self.focus = if custom_mode { self.option_count() } else { 0 };
        self.editor = Editor::at_end(self.draft().map_or("", |d| d.custom()));
    }

    fn go_to(&mut self, index: usize) {
        if index < self.len() {
            self.current = index;
            self.arrive();
        }
    }

    fn edit(&mut self, f: impl FnOnce(&mut Editor, &mut String)) {
        let mut editor = self.editor.clone();
        if let Some(draft) = self.draft_mut() {
            let mut text = draft.custom().to_owned();
            f(&mut editor, &mut text);
            draft.set_custom(text);
        }
        self.editor = editor;
    }
}

/// The whole state of the terminal UI.
#[derive(Debug, Clone)]
pub struct Model {
    /// What is on screen.
    pub screen: Screen,
    /// Connected to a server (queue, submit over HTTP) or keyless.
    pub connected: bool,
    /// The server's pending asks.
    pub queue: Vec<AskSummary>,
    /// The queue's version, for the next long poll.
    pub queue_version: u64,
    /// The focused ask of the queue.
    pub queue_focus: usize,
    /// The ask being answered.
    pub session: Option<Session>,
    /// The ask that just ended, to show.
    pub outcome: Option<Ask>,
    /// Whether a request to the server is under way.
    pub busy: bool,
    /// A line for the status bar: an error, or what just happened.
    pub notice: Option<String>,
    /// The language of askdesk's own words.
    pub lang: Lang,
}

impl Model {
    /// Keyless mode: answer `request` with no server.
    pub fn keyless(request: ValidRequest, title: Option<String>) -> Self {
        Self {
            screen: Screen::Answer,
            connected: false,
            queue: Vec::new(),
            queue_version: 0,
            queue_focus: 0,
            session: Some(Session::new(None, title, None, request)),
            outcome: None,
            busy: false,
            notice: None,
            lang: Lang::default(),
        }
    }

    /// The same model speaking `lang`.
    pub fn with_lang(mut self, lang: Lang) -> Self {
        self.lang = lang;
        self
    }

    /// Connected mode: start at the (not yet loaded) queue.
    pub fn connected() -> Self {
        Self {
            screen: Screen::Queue,
            connected: true,
            queue: Vec::new(),
            queue_version: 0,
            queue_focus: 0,
            session: None,
            outcome: None,
            busy: true,
            notice: None,
            lang: Lang::default(),
        }
    }
}

fn ctrl(key: &KeyEvent, c: char) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char(c)
}

/// Applies `message` to `model`, returning what `main` should do next.
pub fn update(model: &mut Model, message: Message) -> Option<Command> {
    match message {
        Message::Key(key) if key.kind != KeyEventKind::Release => {
            if ctrl(&key, 'c') {
                return Some(Command::Exit(Exit::Interrupted));
            }
            match model.screen {
                Screen::Queue => queue_key(model, key),
                Screen::Answer => answer_key(model, key),
                Screen::Review => review_key(model, key),
                Screen::Decline => decline_key(model, key),
                Screen::Outcome => outcome_key(model, key),
            }
        }
        Message::Key(_) => None,
        Message::Queue(Ok(list)) => {
            model.queue = list.asks;
            model.queue_version = list.version;
            model.queue_focus = model.queue_focus.min(model.queue.len().saturating_sub(1));
            model.busy = false;
            if model.screen == Screen::Queue {
                model.notice = None;
            }
            None
        }
        Message::Queue(Err(e)) => {
            model.busy = false;
            model.notice = Some(e);
            None
        }
        Message::Opened(Ok(ask)) => {
            model.busy = false;
            open(model, ask);
            None
        }
        Message::Opened(Err(e)) => {
            model.busy = false;
            model.notice = Some(e);
            None
        }
        Message::Sent(result) => {
            model.busy = false;
            sent(model, result);
            None
        }
    }
}

fn open(model: &mut Model, ask: Ask) {
    if ask.status.is_finished() {
        model.outcome = Some(ask);
        model.screen = Screen::Outcome;
        return;
    }
    match ValidRequest::new(ask.request.clone()) {
        Ok(request) => {
            model.session = Some(Session::new(Some(ask.id), ask.title, ask.agent, request));
            model.screen = Screen::Answer;
            model.notice = None;
        }
        Err(problems) => {
            model.notice = Some(format!("{}: {problems}", model.lang.t().invalid_questions))
        }
    }
}

fn sent(model: &mut Model, result: Result<Ask, Refusal>) {
    match result {
        Ok(ask) => {
            model.notice = None;
            model.outcome = Some(ask);
            model.session = None;
            model.screen = Screen::Outcome;
        }
        Err(Refusal::Finished(ask)) => {
            let t = model.lang.t();
            model.notice = Some((t.ended_not_sent)(status_word(t, ask.status)));
            model.outcome = Some(*ask);
            model.session = None;
            model.screen = Screen::Outcome;
        }
        Err(Refusal::Invalid(problems)) => {
            model.notice = Some((model.lang.t().server_refused)(problems.len()));
            if let Some(session) = &mut model.session {
                session.problems = problems;
            }
            model.screen = Screen::Review;
        }
        Err(Refusal::Failed(e)) => model.notice = Some(e),
    }
}

fn queue_key(model: &mut Model, key: KeyEvent) -> Option<Command> {
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => model.queue_focus = model.queue_focus.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => {
            model.queue_focus = (model.queue_focus + 1).min(model.queue.len().saturating_sub(1));
        }
        KeyCode::Enter => {
            if let Some(ask) = model.queue.get(model.queue_focus) {
                model.busy = true;
                return Some(Command::Open(ask.id.clone()));
            }
        }
        KeyCode::Char('r') => {
            model.busy = true;
            return Some(Command::Refresh);
        }
        KeyCode::Char('q') | KeyCode::Esc => return Some(Command::Exit(Exit::Quit)),
        _ => {}
    }
    None
}

fn answer_key(model: &mut Model, key: KeyEvent) -> Option<Command> {
    let Some(session) = &mut model.session else {
        return None;
    };
    if ctrl(&key, 's') {
        model.screen = Screen::Review;
        return None;
    }
    match key.code {
        KeyCode::Tab => {
            session.go_to(session.current + 1);
            return None;
        }
        KeyCode::BackTab => {
            session.go_to(session.current.saturating_sub(1));
            return None;
        }
        _ => {}
    }
    let custom = session.draft().is_some_and(|d| d.mode() == Mode::Custom);
    if custom {
        custom_key(model, key)
    } else {
        option_key(model, key)
    }
}

/// Keys in option mode: move, check, jump, and leave the question.
fn option_key(model: &mut Model, key: KeyEvent) -> Option<Command> {
    let session = model.session.as_mut()?;
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
        if let Some(draft) = session.draft_mut() {
            draft.set_mode(Mode::Custom);
        }
        session.editor = Editor::at_end(session.draft().map_or("", |d| d.custom()));
    };
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => session.focus = session.focus.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => session.focus = (session.focus + 1).min(others),
        KeyCode::Char(' ') if session.focus < others => choose(session, session.focus),
        KeyCode::Char(' ' | 'o') => enter_custom(session),
        KeyCode::Char(d @ '1'..='9') => {
            let index = (d as usize) - ('1' as usize);
            if index < others {
                session.focus = index;
                choose(session, index);
            }
        }
        KeyCode::Enter if session.focus == others => enter_custom(session),
        KeyCode::Enter => {
            if session.current + 1 < session.len() {
                session.go_to(session.current + 1);
            } else {
                model.screen = Screen::Review;
            }
        }
        KeyCode::Right | KeyCode::Char('l') => session.go_to(session.current + 1),
        KeyCode::Left | KeyCode::Char('h') => session.go_to(session.current.saturating_sub(1)),
        KeyCode::Esc => model.screen = Screen::Decline,
        _ => {}
    }
    None
}

/// Keys in custom mode: edit the Other text; Esc leaves it (keeping it).
fn custom_key(model: &mut Model, key: KeyEvent) -> Option<Command> {
    let session = model.session.as_mut()?;
    match key.code {
        KeyCode::Esc => {
            let optionless = session.option_count() == 0;
            if optionless {
                // Nothing to go back to on this question: Esc asks to decline.
                model.screen = Screen::Decline;
            } else if let Some(draft) = session.draft_mut() {
                draft.set_mode(Mode::Options);
            }
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
    None
}

fn review_key(model: &mut Model, key: KeyEvent) -> Option<Command> {
    let session = model.session.as_mut()?;
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
            let blockers = session.batch.blockers();
            if let Some(first) = blockers.first() {
                model.notice = Some((model.lang.t().go_back_to_them)(blockers.len()));
                let index = first.index;
                session.go_to(index);
                return None;
            }
            let answers = session.batch.answers();
            match &session.id {
                None => match session.request.validate_answers(&answers) {
                    Ok(valid) => return Some(Command::Exit(Exit::Answered(valid.to_answers()))),
                    Err(problems) => {
                        session.problems = problems.0;
                        model.notice = Some(model.lang.t().refused_locally.to_owned());
                    }
                },
                Some(id) => {
                    model.busy = true;
                    return Some(Command::Submit {
                        id: id.clone(),
                        answers,
                    });
                }
            }
        }
        KeyCode::Esc | KeyCode::Backspace | KeyCode::Char('e') => {
            let first_blocked = session.batch.blockers().first().map(|b| b.index);
            session.go_to(first_blocked.unwrap_or(session.current));
            model.screen = Screen::Answer;
            model.notice = None;
        }
        _ => {}
    }
    None
}

fn decline_key(model: &mut Model, key: KeyEvent) -> Option<Command> {
    let session = model.session.as_mut()?;
    let mut editor = session.reason_editor.clone();
    match key.code {
        KeyCode::Esc => model.screen = Screen::Answer,
        KeyCode::Enter => {
            let reason = Some(session.reason.trim().to_owned()).filter(|r| !r.is_empty());
            return Some(match &session.id {
                None => Command::Exit(Exit::Declined(reason)),
                Some(id) => {
                    model.busy = true;
                    Command::Decline {
                        id: id.clone(),
                        reason,
                    }
                }
            });
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
    None
}

fn outcome_key(model: &mut Model, key: KeyEvent) -> Option<Command> {
    match key.code {
        KeyCode::Enter | KeyCode::Esc | KeyCode::Char('q') => {
            model.outcome = None;
            model.screen = Screen::Queue;
            model.busy = true;
            Some(Command::Refresh)
        }
        _ => None,
    }
}

/// The status of an ask as a word for people.
pub fn status_word(t: &Words, status: AskStatus) -> &'static str {
    match status {
        AskStatus::Pending => t.status_waiting,
        AskStatus::Answered => t.status_answered,
        AskStatus::Declined => t.status_declined,
        AskStatus::Cancelled => t.status_cancelled,
        AskStatus::Expired => t.status_expired,
    }
}

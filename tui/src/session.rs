//! The ask being answered: its drafts (the `interaction` crate's, which hold
//! every rule), the question on screen, and where the keys go.

use crate::text::Editor;
use interaction::{AnswerItem, BatchDraft, Problem, QuestionDraft, Timestamp, ValidRequest};

/// Where a question's keys go: its option list, or its Other text. Only the
/// terminal UI has modes; a draft keeps options and text side by side
/// whatever the mode, so switching never loses either.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Moving between options and checking them.
    #[default]
    Options,
    /// Typing the Other text.
    Custom,
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
    /// Each question's mode, kept while the human moves between questions.
    modes: Vec<Mode>,
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
    /// When the agent's default answers apply and what they are, if it
    /// gave any: shown, counting down, while the human answers.
    pub defaults: Option<(Timestamp, Vec<AnswerItem>)>,
}

impl Session {
    /// A fresh session over a validated request; optionless questions
    /// start (and stay) in custom mode.
    pub fn new(
        id: Option<String>,
        title: Option<String>,
        agent: Option<String>,
        request: ValidRequest,
    ) -> Self {
        let batch = BatchDraft::new(&request);
        let modes = batch
            .drafts()
            .iter()
            .map(|d| {
                if d.question().options.is_empty() {
                    Mode::Custom
                } else {
                    Mode::Options
                }
            })
            .collect();
        let mut session = Self {
            id,
            title,
            agent,
            request,
            batch,
            modes,
            current: 0,
            focus: 0,
            editor: Editor::default(),
            reason: String::new(),
            reason_editor: Editor::default(),
            problems: Vec::new(),
            review_scroll: 0,
            defaults: None,
        };
        session.arrive();
        session
    }

    /// The same session showing the agent's default answers and when they
    /// apply.
    pub fn with_defaults(mut self, defaults: Option<(Timestamp, Vec<AnswerItem>)>) -> Self {
        self.defaults = defaults;
        self
    }

    /// The agent's default answer to question `id`, if it gave defaults.
    pub fn default_for(&self, id: &str) -> Option<&AnswerItem> {
        let (_, items) = self.defaults.as_ref()?;
        items.iter().find(|item| item.id == id)
    }

    /// The draft on screen.
    pub fn draft(&self) -> Option<&QuestionDraft> {
        self.batch.draft(self.current)
    }

    pub(crate) fn draft_mut(&mut self) -> Option<&mut QuestionDraft> {
        self.batch.draft_mut(self.current)
    }

    /// The mode of the question on screen.
    pub fn mode(&self) -> Mode {
        self.modes.get(self.current).copied().unwrap_or_default()
    }

    /// Switches the mode of the question on screen; an optionless question
    /// stays in custom mode.
    pub fn set_mode(&mut self, mode: Mode) {
        let has_options = self.option_count() > 0;
        if let Some(current) = self.modes.get_mut(self.current) {
            if has_options {
                *current = mode;
            }
        }
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
        self.focus = if self.mode() == Mode::Custom {
            self.option_count()
        } else {
            0
        };
        self.editor = Editor::at_end(self.draft().map_or("", |d| d.custom()));
    }

    /// Shows question `index`, if there is one.
    pub(crate) fn go_to(&mut self, index: usize) {
        if index < self.len() {
            self.current = index;
            self.arrive();
        }
    }

    /// Edits the current question's Other text at the cursor.
    pub(crate) fn edit(&mut self, f: impl FnOnce(&mut Editor, &mut String)) {
        let mut editor = self.editor.clone();
        if let Some(draft) = self.draft_mut() {
            let mut text = draft.custom().to_owned();
            f(&mut editor, &mut text);
            draft.set_custom(text);
        }
        self.editor = editor;
    }
}

//! The terminal UI's state in the Elm shape: the [`Model`], the
//! [`Message`]s that change it and the [`Command`]s of I/O a change asks
//! for. What is on screen is one [`Screen`] that carries its own data, so
//! no screen can show an ask that is not there.

use crate::{i18n::Words, session::Session};
use crossterm::event::KeyEvent;
use interaction::{Answers, Ask, AskList, AskStatus, AskSummary, ValidRequest};

pub use crate::i18n::Lang;

/// What the screen shows.
#[derive(Debug, Clone)]
pub enum Screen {
    /// The pending asks of a server (connected mode).
    Queue,
    /// One question of the ask being answered.
    Answer(Session),
    /// Every answer, before submitting.
    Review(Session),
    /// "Decline this ask?", with a reason.
    Decline(Session),
    /// How an ask ended (connected mode).
    Outcome(Box<Ask>),
}

impl Screen {
    /// The ask being answered, on the screens that have one.
    pub fn session(&self) -> Option<&Session> {
        match self {
            Self::Answer(session) | Self::Review(session) | Self::Decline(session) => Some(session),
            Self::Queue | Self::Outcome(_) => None,
        }
    }
}

/// Where the answers go.
#[derive(Debug, Clone)]
pub enum Link {
    /// A request file answered with no server: the answers go to stdout.
    Keyless,
    /// A server's queue, answered through its HTTP API.
    Connected(Queue),
}

/// A server's pending asks, as last read.
#[derive(Debug, Clone, Default)]
pub struct Queue {
    /// The asks, newest first.
    pub asks: Vec<AskSummary>,
    /// The list's version, for the next long poll.
    pub version: u64,
    /// The focused ask.
    pub focus: usize,
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

/// Something for the terminal loop to do: the I/O that `update` never does
/// itself.
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
#[derive(Debug)]
pub enum Message {
    /// A key was pressed.
    Key(KeyEvent),
    /// The queue was read.
    Queue(Result<AskList, client::Error>),
    /// An ask was fetched.
    Opened(Result<Ask, client::Error>),
    /// An answer or decline was sent: the ask as it ended, or why not.
    Sent(Result<Ask, client::Error>),
    /// The clock, in milliseconds since the Unix epoch, for countdowns.
    Tick(i64),
}

/// The whole state of the terminal UI.
#[derive(Debug, Clone)]
pub struct Model {
    /// Keyless, or connected to a server's queue.
    pub link: Link,
    /// What is on screen.
    pub screen: Screen,
    /// Whether a request to the server is under way.
    pub busy: bool,
    /// A line for the status bar: an error, or what just happened.
    pub notice: Option<String>,
    /// The language of askdesk's own words.
    pub lang: Lang,
    /// Now, as the last [`Message::Tick`] said, in milliseconds since the
    /// Unix epoch.
    pub now: i64,
}

impl Model {
    /// Keyless mode: answer `request` with no server.
    pub fn keyless(request: ValidRequest, title: Option<String>) -> Self {
        Self {
            link: Link::Keyless,
            screen: Screen::Answer(Session::new(None, title, None, request)),
            busy: false,
            notice: None,
            lang: Lang::default(),
            now: 0,
        }
    }

    /// Connected mode: start at the (not yet loaded) queue.
    pub fn connected() -> Self {
        Self {
            link: Link::Connected(Queue::default()),
            screen: Screen::Queue,
            busy: true,
            notice: None,
            lang: Lang::default(),
            now: 0,
        }
    }

    /// The same model speaking `lang`.
    pub fn with_lang(mut self, lang: Lang) -> Self {
        self.lang = lang;
        self
    }

    /// The ask being answered, if a screen shows one.
    pub fn session(&self) -> Option<&Session> {
        self.screen.session()
    }

    /// The server's queue, in connected mode.
    pub fn queue(&self) -> Option<&Queue> {
        match &self.link {
            Link::Connected(queue) => Some(queue),
            Link::Keyless => None,
        }
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

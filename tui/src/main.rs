//! `askdesk-tui`: the terminal owner. Parses the command line, sets the
//! terminal up (and always restores it, even on panic), and runs the
//! message loop around `tui::model::update` and `tui::view::view`.

use clap::{Parser, Subcommand};
use crossterm::{
    event::{self, Event},
    execute,
    terminal::{disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen},
};
use ratatui::{backend::CrosstermBackend, Terminal};
use std::{
    io::{self, Read},
    process::ExitCode,
    sync::mpsc,
    thread,
    time::Duration,
};
use tui::{
    client::Client,
    model::{update, Command, Exit, Message, Model},
    view::view,
};

/// Answer askdesk asks in a terminal.
///
/// Without a subcommand, connects to a server and shows its pending asks.
/// `askdesk-tui answer FILE` answers a request file with no server and
/// prints the answers as JSON on stdout (the screen is drawn on stderr).
#[derive(Parser)]
#[command(name = "askdesk-tui", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Mode>,
    /// The askdesk server.
    #[arg(
        long,
        env = "ASKDESK_URL",
        default_value = "http://127.0.0.1:3000",
        global = true
    )]
    url: String,
    /// The server's token, when it has one.
    #[arg(long, env = "ASKDESK_TOKEN", hide_env_values = true, global = true)]
    token: Option<String>,
    /// The language of askdesk-tui's own words: en or zh. Default: from the
    /// locale (LC_ALL, LC_MESSAGES, LANG).
    #[arg(long, env = "ASKDESK_LANG", global = true)]
    lang: Option<String>,
}

#[derive(Subcommand)]
enum Mode {
    /// Answer a request file (or `-` for stdin) with no server. Exit codes:
    /// 0 answered (answers JSON on stdout), 3 declined, 130 interrupted,
    /// 1 the request is invalid.
    Answer {
        /// The request JSON: `{"questions": [...], "title": "..."}`.
        file: String,
    },
}

/// When `main` began, for the first-frame benchmark.
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// How long the first frame took (benchmark mode only).
static FIRST_FRAME: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();

const DECLINED: u8 = 3;
const INTERRUPTED: u8 = 130;

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    STARTED.get_or_init(|| started);
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("askdesk-tui: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    let lang = match cli.lang.as_deref() {
        Some(code) => {
            tui::i18n::Lang::parse(code).ok_or_else(|| format!("--lang {code:?}: use en or zh"))?
        }
        None => tui::i18n::Lang::from_locale(|name| std::env::var(name).ok()),
    };
    let (model, client) = match cli.command {
        Some(Mode::Answer { file }) => {
            let json = if file == "-" {
                let mut json = String::new();
                io::stdin()
                    .read_to_string(&mut json)
                    .map_err(|e| format!("cannot read stdin: {e}"))?;
                json
            } else {
                std::fs::read_to_string(&file).map_err(|e| format!("cannot read {file}: {e}"))?
            };
            let (request, title) = tui::read_request(&json).map_err(|e| e.to_string())?;
            (Model::keyless(request, title), None)
        }
        None => (Model::connected(), Some(Client::new(&cli.url, cli.token)?)),
    };
    let model = model.with_lang(lang);
    let exit = with_terminal(|terminal| event_loop(terminal, model, client.as_ref()))
        .map_err(|e| format!("terminal error: {e}"))?;
    if let Some(elapsed) = FIRST_FRAME.get() {
        eprintln!("first frame {} µs after main started", elapsed.as_micros());
    }
    Ok(match exit {
        Exit::Answered(answers) => {
            let json = serde_json::to_string(&answers).map_err(|e| e.to_string())?;
            println!("{json}");
            ExitCode::SUCCESS
        }
        Exit::Declined(reason) => {
            println!(
                "{}",
                serde_json::json!({"status": "declined", "reason": reason})
            );
            ExitCode::from(DECLINED)
        }
        Exit::Interrupted => ExitCode::from(INTERRUPTED),
        Exit::Quit => ExitCode::SUCCESS,
    })
}

type Backend = CrosstermBackend<io::Stderr>;

fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(io::stderr(), LeaveAlternateScreen, crossterm::cursor::Show);
}

/// Runs `body` on a raw-mode alternate screen drawn on stderr (stdout is
/// for the answers), restoring the terminal however `body` ends.
fn with_terminal<T>(body: impl FnOnce(&mut Terminal<Backend>) -> io::Result<T>) -> io::Result<T> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    enable_raw_mode()?;
    execute!(io::stderr(), EnterAlternateScreen)?;
    let result = Terminal::new(CrosstermBackend::new(io::stderr())).and_then(|mut t| body(&mut t));
    restore();
    result
}

fn event_loop(
    terminal: &mut Terminal<Backend>,
    mut model: Model,
    client: Option<&Client>,
) -> io::Result<Exit> {
    let (tx, rx) = mpsc::channel::<Message>();
    if let Some(client) = client {
        watch_queue(client.clone(), tx.clone());
    }
    let first_frame_exit = std::env::var_os("ASKDESK_TUI_EXIT_AFTER_FIRST_FRAME").is_some();
    loop {
        terminal.draw(|frame| view(&model, frame))?;
        if first_frame_exit {
            if let Some(started) = STARTED.get() {
                FIRST_FRAME.get_or_init(|| started.elapsed());
            }
            return Ok(Exit::Quit);
        }
        let mut messages = Vec::new();
        if event::poll(Duration::from_millis(100))? {
            if let Event::Key(key) = event::read()? {
                messages.push(Message::Key(key));
            }
        }
        messages.extend(rx.try_iter());
        for message in messages {
            match update(&mut model, message) {
                Some(Command::Exit(exit)) => return Ok(exit),
                Some(command) => {
                    if let Some(client) = client {
                        execute_command(client.clone(), command, tx.clone());
                    }
                }
                None => {}
            }
        }
    }
}

/// Keeps the queue current: long-polls the server's list for changes.
fn watch_queue(client: Client, tx: mpsc::Sender<Message>) {
    thread::spawn(move || {
        let mut after = None;
        loop {
            let result = client.pending(after, 25);
            let failed = result.is_err();
            if let Ok(list) = &result {
                after = Some(list.version);
            }
            if tx.send(Message::Queue(result)).is_err() {
                return;
            }
            if failed {
                thread::sleep(Duration::from_secs(2));
            }
        }
    });
}

/// Does a command's I/O off the UI thread; the reply comes back as a message.
fn execute_command(client: Client, command: Command, tx: mpsc::Sender<Message>) {
    thread::spawn(move || {
        let message = match command {
            Command::Open(id) => Message::Opened(client.ask(&id)),
            Command::Submit { id, answers } => Message::Sent(client.answer(&id, &answers)),
            Command::Decline { id, reason } => Message::Sent(client.decline(&id, reason)),
            Command::Refresh => Message::Queue(client.pending(None, 0)),
            Command::Exit(_) => return,
        };
        let _ = tx.send(message);
    });
}

//! The terminal owner: sets the terminal up (and always restores it, even
//! on panic), runs the message loop around [`update`] and [`view`], and
//! turns how it ended into output and an exit code.
//!
//! The loop blocks its thread; the `askdesk` binary runs it with
//! `spawn_blocking`, and the I/O it asks for runs as tasks on the runtime
//! (see [`net`](crate::net)).

use crate::{
    args::{AnswerArgs, TuiArgs},
    model::{Command, Exit, Message, Model},
    net,
    update::update,
    view::view,
};
use client::Client;
use crossterm::{
    event::{self, Event},
    execute,
    terminal::{disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen},
};
use interaction::Declined;
use ratatui::{backend::CrosstermBackend, Terminal};
use std::{
    io::{self, Read},
    process::ExitCode,
    sync::mpsc,
    time::{Duration, Instant},
};
use tokio::runtime::Handle;

/// The exit code of a declined request file.
pub const DECLINED: u8 = 3;
/// The exit code after Ctrl-C.
pub const INTERRUPTED: u8 = 130;

/// With this variable set, the program leaves right after its first frame
/// and says how long that took (for `bench/tui.sh`).
const FIRST_FRAME_ENV: &str = "ASKDESK_TUI_EXIT_AFTER_FIRST_FRAME";

/// `askdesk tui`: a server's queue, until the human leaves. `started` is
/// when the program began, for the first-frame benchmark.
pub fn queue(args: TuiArgs, runtime: Handle, started: Instant) -> Result<ExitCode, String> {
    let lang = args.lang.lang()?;
    let client = Client::builder(&args.url)
        .token(args.token)
        .via(Some(interaction::Via::Tui))
        .ca_cert(args.ca_cert)
        .build()
        .map_err(|e| format!("--url {}: {e}", args.url))?;
    let model = Model::connected().with_lang(lang);
    let exit = run(model, Some((runtime, client)), started)?;
    finish(exit)
}

/// `askdesk answer FILE`: a request file answered with no server; the
/// answers go to stdout.
pub fn answer(args: AnswerArgs, started: Instant) -> Result<ExitCode, String> {
    let lang = args.lang.lang()?;
    let json = if args.file == "-" {
        let mut json = String::new();
        io::stdin()
            .read_to_string(&mut json)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        json
    } else {
        std::fs::read_to_string(&args.file)
            .map_err(|e| format!("cannot read {}: {e}", args.file))?
    };
    let (request, title) = crate::read_request(&json).map_err(|e| e.to_string())?;
    let model = Model::keyless(request, title).with_lang(lang);
    let exit = run(model, None, started)?;
    finish(exit)
}

/// Prints what the program's caller reads, and picks the exit code.
fn finish(exit: Exit) -> Result<ExitCode, String> {
    Ok(match exit {
        Exit::Answered(answers) => {
            let json = serde_json::to_string(&answers).map_err(|e| e.to_string())?;
            println!("{json}");
            ExitCode::SUCCESS
        }
        Exit::Declined(reason) => {
            let json = serde_json::to_string(&Declined::new(reason)).map_err(|e| e.to_string())?;
            println!("{json}");
            ExitCode::from(DECLINED)
        }
        Exit::Interrupted => ExitCode::from(INTERRUPTED),
        Exit::Quit => ExitCode::SUCCESS,
    })
}

fn run(model: Model, server: Option<(Handle, Client)>, started: Instant) -> Result<Exit, String> {
    let first_frame_only = std::env::var_os(FIRST_FRAME_ENV).is_some();
    let (exit, first_frame) =
        with_terminal(|terminal| event_loop(terminal, model, server.as_ref(), first_frame_only))
            .map_err(|e| format!("terminal error: {e}"))?;
    if first_frame_only {
        let elapsed = first_frame.duration_since(started);
        eprintln!("first frame {} µs after main started", elapsed.as_micros());
    }
    Ok(exit)
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

/// The loop: draw, read a key or a reply, update. Returns how it ended and
/// when the first frame was drawn.
fn event_loop(
    terminal: &mut Terminal<Backend>,
    mut model: Model,
    server: Option<&(Handle, Client)>,
    first_frame_only: bool,
) -> io::Result<(Exit, Instant)> {
    let (tx, rx) = mpsc::channel::<Message>();
    if let Some((runtime, client)) = server {
        net::watch_queue(runtime, client.clone(), tx.clone());
    }
    let mut first_frame = None;
    loop {
        // The screen is redrawn at least every poll below, so countdowns tick.
        update(&mut model, Message::Tick(now_ms()));
        terminal.draw(|frame| view(&model, frame))?;
        let drawn = *first_frame.get_or_insert_with(Instant::now);
        if first_frame_only {
            return Ok((Exit::Quit, drawn));
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
                Some(Command::Exit(exit)) => return Ok((exit, drawn)),
                Some(command) => {
                    if let Some((runtime, client)) = server {
                        net::execute(runtime, client.clone(), command, tx.clone());
                    }
                }
                None => {}
            }
        }
    }
}

/// Now, in milliseconds since the Unix epoch, from the system's clock.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

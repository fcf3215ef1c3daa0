//! `askdesk doctor`: whether the agents set up with askdesk will reach
//! it. For each product and scope whose files hold askdesk's entries: the
//! files parse, each entry's program exists and is this askdesk, nothing
//! `askdesk setup` writes is missing, and each hook answers a harmless
//! test event; then whether the desk answers at its URL and takes the
//! token. One line per check, with the fix when it fails.
//!
//! A settings file may come with a cloned repository, so doctor runs no
//! command line it did not write: a hook is run only when its line is,
//! word for word, what `askdesk setup` writes for this binary
//! ([`setup::WrittenHook`]), and then as those words, without a shell.
//! A project's file is compared before any path in it is looked up.

mod probe;

use crate::cli::{
    config::DeskArgs,
    setup::{this_program, Folders, SetupError},
};
use setup::{
    Entry, Found, Hook, Options, Product, Program, Scope, SettingsFile, Verb, WrittenHook,
};
use std::{
    fmt, fs, io,
    path::{Path, PathBuf},
    process::ExitCode,
};

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Ok,
    Fail,
    /// Worth knowing; not a failure.
    Note,
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self {
            Mark::Ok => "ok",
            Mark::Fail => "FAIL",
            Mark::Note => "note",
        };
        // Padded, so that what each line says starts in one column.
        f.pad(word)
    }
}

/// The lines printed so far, and whether one failed.
#[derive(Debug, Default)]
struct Report {
    failed: bool,
}

impl Report {
    fn line(&mut self, mark: Mark, text: impl fmt::Display) {
        self.failed |= mark == Mark::Fail;
        println!("{mark:<4} {text}");
    }

    fn ok(&mut self, text: impl fmt::Display) {
        self.line(Mark::Ok, text);
    }

    fn fail(&mut self, text: impl fmt::Display, fix: impl fmt::Display) {
        self.line(Mark::Fail, format_args!("{text}. Fix: {fix}"));
    }
}

/// One settings file as read.
struct Read {
    /// Its place among the product's files.
    index: usize,
    path: PathBuf,
    text: String,
    found: Vec<Found>,
}

/// Runs `askdesk doctor`; exits 1 when a check failed.
pub async fn run(args: &DeskArgs) -> Result<ExitCode, SetupError> {
    let program = this_program()?;
    let mut report = Report::default();
    let mut set_up = false;
    for product in Product::ALL {
        for scope in [Scope::User, Scope::Project] {
            let files = read(&mut report, product, scope, &program)?;
            if files.iter().all(|read| read.found.is_empty()) {
                continue;
            }
            set_up = true;
            let fix = setup_command(product, scope);
            for read in &files {
                // What `askdesk setup` writes there, with the options the
                // person set it up with.
                let wanted = product
                    .files_with(scope, Options::of(&read.found))
                    .swap_remove(read.index);
                check_file(&mut report, read, &wanted, &program, scope, &fix).await;
            }
        }
    }
    if !set_up {
        report.fail(
            "no agent's settings here hold askdesk (neither the user's nor this folder's project files)",
            "askdesk setup claude-code (or codex, cursor, opencode)",
        );
    }
    probe::desk(&mut report, args).await;
    Ok(if report.failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The command that sets `product` up in `scope`.
fn setup_command(product: Product, scope: Scope) -> String {
    match scope {
        Scope::User => format!("askdesk setup {}", product.name()),
        Scope::Project => format!("askdesk setup {} --project", product.name()),
    }
}

/// `product`'s files in `scope` that exist, each with askdesk's entries
/// (none when it could not be read; that is reported).
fn read(
    report: &mut Report,
    product: Product,
    scope: Scope,
    program: &Program,
) -> Result<Vec<Read>, SetupError> {
    let folders = Folders::find(scope)?;
    let mut files = Vec::new();
    // Every hook askdesk may have put in, the opt-in ones too.
    let all = product.files_with(scope, Options { ask_on_stop: true });
    for (index, file) in all.iter().enumerate() {
        // Without a home folder there are no user files to look at.
        let Ok(path) = folders.path(file) else {
            continue;
        };
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            // Missing, it holds nothing: it is reported when the product
            // is set up in its other files.
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(e) => {
                report.fail(
                    format_args!("{}: cannot read it: {e}", path.display()),
                    "let your user read it",
                );
                continue;
            }
        };
        let found = match setup::inspect(file, &text, program) {
            Ok(found) => found,
            Err(e) => {
                report.fail(
                    format_args!("{}: {e}", path.display()),
                    format_args!(
                        "correct it by hand ({} and askdesk setup need it valid)",
                        product.title()
                    ),
                );
                Vec::new()
            }
        };
        files.push(Read {
            index,
            path,
            text,
            found,
        });
    }
    Ok(files)
}

/// One file of a product set up: what it holds, what it lacks.
async fn check_file(
    report: &mut Report,
    read: &Read,
    wanted: &SettingsFile,
    program: &Program,
    scope: Scope,
    fix: &str,
) {
    let path = read.path.display();
    let mut failed = Vec::new();
    for found in &read.found {
        let at = Place {
            path: &read.path,
            line: found.line,
        };
        let passed = match (found.entry, &found.command_line) {
            (Entry::Hook(hook), Some(line)) => {
                check_hook(report, &at, &hook, line, program, fix).await
            }
            _ => check_server(report, &at, found, program, scope, fix),
        };
        if !passed {
            failed.push(found.entry);
        }
    }
    let Ok(edit) = setup::edit(wanted, Some(&read.text), program, setup::Action::Add) else {
        return;
    };
    for change in edit.changes {
        let entry = change.entry();
        match change.verb() {
            Verb::Added => report.fail(format_args!("{path}: {entry} is missing"), fix),
            Verb::Updated if !failed.contains(&entry) => report.fail(
                format_args!("{path}: {entry} is not as askdesk setup writes it (its matcher, arguments or timeout)"),
                fix,
            ),
            Verb::Updated | Verb::Removed => {}
        }
    }
}

/// Where an entry is: its file, and its line when known.
struct Place<'a> {
    path: &'a Path,
    line: Option<usize>,
}

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        match self.line {
            Some(line) => write!(f, ", line {line}"),
            None => Ok(()),
        }
    }
}

/// Whether the hook whose command line is `line` is what setup writes
/// for this askdesk, and answers a test event. Nothing in the line is
/// looked up or run before it is known to be setup's own.
async fn check_hook(
    report: &mut Report,
    at: &Place<'_>,
    hook: &Hook,
    line: &str,
    program: &Program,
    fix: &str,
) -> bool {
    let entry = Entry::Hook(*hook);
    let written = match WrittenHook::check(line, program, hook) {
        Ok(written) => written,
        Err(why) => {
            report.fail(
                format_args!(
                    "{at}: {entry} differs from what askdesk setup writes; not run: {why}"
                ),
                fix,
            );
            return false;
        }
    };
    report.ok(format_args!("{at}: {entry} runs this askdesk"));
    match probe::hook(&written).await {
        Ok(()) => {
            report.ok(format_args!("{at}: {entry} answered a test event"));
            true
        }
        Err(why) => {
            report.fail(
                format_args!("{at}: {entry} failed a test event: {why}"),
                fix,
            );
            false
        }
    }
}

/// Whether the MCP server entry `found` runs this askdesk. doctor never
/// runs it; the product does, without a shell. Only in the user's own
/// files is a program other than setup's looked up, to say what it is.
fn check_server(
    report: &mut Report,
    at: &Place<'_>,
    found: &Found,
    program: &Program,
    scope: Scope,
    fix: &str,
) -> bool {
    let entry = found.entry;
    let Some(named) = &found.program else {
        report.fail(format_args!("{at}: {entry} names no command"), fix);
        return false;
    };
    if named == program.as_str() {
        report.ok(format_args!("{at}: {entry} runs this askdesk"));
        return true;
    }
    if scope == Scope::Project {
        report.fail(
            format_args!(
                "{at}: {entry} differs from what askdesk setup writes: it runs {named}, not this askdesk ({})",
                program.as_str()
            ),
            fix,
        );
        return false;
    }
    let Some(runs) = probe::resolve(named) else {
        report.fail(
            format_args!("{at}: {entry} runs {named}, which does not exist"),
            fix,
        );
        return false;
    };
    if !is_this(&runs, program) {
        report.fail(
            format_args!(
                "{at}: {entry} runs {}, not this askdesk ({})",
                runs.display(),
                program.as_str()
            ),
            fix,
        );
        return false;
    }
    report.ok(format_args!("{at}: {entry} runs this askdesk"));
    true
}

/// Whether `path` is this binary, through any links.
fn is_this(path: &Path, program: &Program) -> bool {
    fs::canonicalize(path).is_ok_and(|path| path == Path::new(program.as_str()))
}

//! `askdesk doctor`: whether the agents set up with askdesk will reach
//! it. For each product and scope whose files hold askdesk's entries: the
//! files parse, each entry's program exists and is this askdesk, nothing
//! `askdesk setup` writes is missing, and each hook answers a harmless
//! test event; then whether the desk answers at its URL and takes the
//! token. One line per check, with the fix when it fails.

mod probe;

use crate::cli::{
    config::DeskArgs,
    setup::{this_program, Folders, SetupError},
};
use setup::{Found, Options, Product, Program, Scope, SettingsFile, Verb};
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
                check_file(&mut report, read, &wanted, &program, &fix).await;
            }
        }
    }
    if !set_up {
        report.fail(
            "no agent's settings here hold askdesk (neither the user's nor this folder's project files)",
            "askdesk setup claude-code (or codex, or cursor)",
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
    fix: &str,
) {
    let path = read.path.display();
    let mut failed = Vec::new();
    for found in &read.found {
        if !check_entry(report, &path, found, program, fix).await {
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

/// Whether `found` runs this askdesk (and, a hook, answers a test event).
async fn check_entry(
    report: &mut Report,
    path: &impl fmt::Display,
    found: &Found,
    program: &Program,
    fix: &str,
) -> bool {
    let entry = found.entry;
    let Some(named) = &found.program else {
        report.fail(format_args!("{path}: {entry} names no command"), fix);
        return false;
    };
    let Some(runs) = probe::resolve(named) else {
        report.fail(
            format_args!("{path}: {entry} runs {named}, which does not exist"),
            fix,
        );
        return false;
    };
    if !is_this(&runs, program) {
        report.fail(
            format_args!(
                "{path}: {entry} runs {}, not this askdesk ({})",
                runs.display(),
                program.as_str()
            ),
            fix,
        );
        return false;
    }
    report.ok(format_args!("{path}: {entry} runs this askdesk"));
    let Some(line) = &found.command_line else {
        return true;
    };
    match probe::hook(line).await {
        Ok(()) => {
            report.ok(format_args!("{path}: {entry} answered a test event"));
            true
        }
        Err(why) => {
            report.fail(
                format_args!("{path}: {entry} failed a test event: {why}"),
                fix,
            );
            false
        }
    }
}

/// Whether `path` is this binary, through any links.
fn is_this(path: &Path, program: &Program) -> bool {
    fs::canonicalize(path).is_ok_and(|path| path == Path::new(program.as_str()))
}

//! `askdesk setup`: askdesk's MCP server, and its hooks, written into an
//! agent's own settings files with this binary's path. What goes where is
//! the `setup` crate's; this reads the files, writes them atomically, and
//! says what changed in each.

pub mod connector;

use crate::cli::config::SetupArgs;
use setup::{Action, Edit, EditError, Program, Root, Scope, SettingsFile};
use std::{
    collections::BTreeSet,
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
    process::ExitCode,
};

/// Why `askdesk setup` changed nothing, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("cannot tell where this askdesk binary is: {0}")]
    Exe(io::Error),
    #[error("this askdesk binary's path, {0:?}, is not UTF-8, which settings files cannot hold")]
    NotUtf8(PathBuf),
    #[error("this askdesk binary's path is not absolute: {0}")]
    Relative(#[from] setup::NotAbsolute),
    #[error("cannot find the home folder: HOME is not set")]
    NoHome,
    #[error("cannot tell the current directory: {0}")]
    NoProject(io::Error),
    #[error("cannot read {path}: {source}; no file was changed")]
    Read { path: PathBuf, source: io::Error },
    #[error("cannot read {path}, {source}; no file was changed")]
    Malformed { path: PathBuf, source: EditError },
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: io::Error },
    #[error(
        "--ask-on-stop is for claude-code only: {0} has no hook askdesk answers when it stops"
    )]
    NoStopHook(&'static str),
}

/// One file's edit, read and decided before anything is written.
struct Planned {
    /// The path as the product names it.
    path: PathBuf,
    /// Where it is written: the file a symbolic link points to, so the
    /// link stays.
    target: PathBuf,
    current: Option<String>,
    edit: Edit,
    note: Option<&'static str>,
}

/// Runs `askdesk setup`, printing on stdout what it changed in each file
/// (or, with `--dry-run`, the diff it would apply). Every file is read and
/// edited before the first is written, so an unreadable one stops them all.
pub fn run(args: &SetupArgs, product: setup::Product) -> Result<ExitCode, SetupError> {
    if args.ask_on_stop && product != setup::Product::ClaudeCode {
        return Err(SetupError::NoStopHook(product.title()));
    }
    let program = this_program()?;
    let scope = if args.project {
        Scope::Project
    } else {
        Scope::User
    };
    let action = if args.remove {
        Action::Remove
    } else {
        Action::Add
    };
    let folders = Folders::find(scope)?;
    // Taking askdesk out takes every hook it may have put in.
    let options = setup::Options {
        ask_on_stop: args.ask_on_stop || args.remove,
    };
    let mut planned = Vec::new();
    for file in product.files_with(scope, options) {
        planned.push(plan(&file, &folders, &program, action)?);
    }
    report(args, product, &planned)?;
    Ok(ExitCode::SUCCESS)
}

/// This binary, by the absolute path the agents will run.
pub(crate) fn this_program() -> Result<Program, SetupError> {
    let exe = std::env::current_exe()
        .and_then(fs::canonicalize)
        .map_err(SetupError::Exe)?;
    let path = exe
        .to_str()
        .ok_or_else(|| SetupError::NotUtf8(exe.clone()))?;
    Ok(Program::new(path)?)
}

/// Where settings files' paths start.
pub(crate) struct Folders {
    home: Option<PathBuf>,
    project: Option<PathBuf>,
}

impl Folders {
    /// The folders `scope`'s files need: the home folder for the user's,
    /// the current directory for the project's.
    pub(crate) fn find(scope: Scope) -> Result<Folders, SetupError> {
        Ok(match scope {
            Scope::User => Folders {
                // Missing only matters to a file that starts there.
                home: named_folder("HOME"),
                project: None,
            },
            Scope::Project => Folders {
                home: None,
                project: Some(std::env::current_dir().map_err(SetupError::NoProject)?),
            },
        })
    }

    pub(crate) fn path(&self, file: &SettingsFile) -> Result<PathBuf, SetupError> {
        let root = match file.root {
            Root::Home => self.home()?,
            // Claude Code's variable moves its folder and `.claude.json`
            // into the same place.
            Root::ClaudeGlobal => self.agents("CLAUDE_CONFIG_DIR", "")?,
            Root::ClaudeConfig => self.agents("CLAUDE_CONFIG_DIR", ".claude")?,
            // Codex's own variable moves its folder, config.toml with it.
            Root::CodexHome => self.agents("CODEX_HOME", ".codex")?,
            // OpenCode's folder is in the XDG config folder.
            Root::OpenCodeConfig => self.agents("XDG_CONFIG_HOME", ".config")?.join("opencode"),
            Root::Project => self
                .project
                .clone()
                .ok_or_else(|| SetupError::NoProject(io::ErrorKind::NotFound.into()))?,
        };
        Ok(root.join(file.path))
    }

    fn home(&self) -> Result<PathBuf, SetupError> {
        self.home.clone().ok_or(SetupError::NoHome)
    }

    /// An agent's folder: the one its variable `var` names, else
    /// `below_home` in the home folder (`""`: the home folder itself).
    fn agents(&self, var: &str, below_home: &str) -> Result<PathBuf, SetupError> {
        match named_folder(var) {
            Some(dir) => Ok(dir),
            None => Ok(self.home()?.join(below_home)),
        }
    }
}

/// The folder an environment variable names, when it is set and not empty.
fn named_folder(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
}

fn plan(
    file: &SettingsFile,
    folders: &Folders,
    program: &Program,
    action: Action,
) -> Result<Planned, SetupError> {
    let path = folders.path(file)?;
    let target = match fs::symlink_metadata(&path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(&path).unwrap_or(path.clone())
        }
        _ => path.clone(),
    };
    let current = match fs::read_to_string(&target) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(source) => return Err(SetupError::Read { path, source }),
    };
    let edit = setup::edit(file, current.as_deref(), program, action).map_err(|source| {
        SetupError::Malformed {
            path: path.clone(),
            source,
        }
    })?;
    Ok(Planned {
        path,
        target,
        current,
        edit,
        note: file.note,
    })
}

/// Writes what changed (or, on a dry run, prints its diff), a line per
/// change, then what the person should know.
fn report(
    args: &SetupArgs,
    product: setup::Product,
    planned: &[Planned],
) -> Result<(), SetupError> {
    let product = product.title();
    let changed = planned.iter().any(|p| !p.edit.changes.is_empty());
    if args.dry_run {
        for p in planned {
            let path = p.path.display().to_string();
            print!(
                "{}",
                setup::diff(&path, p.current.as_deref(), p.edit.text.as_deref())
            );
        }
        match (changed, args.remove) {
            (false, false) => {
                println!("Nothing would change: askdesk is set up for {product} already.")
            }
            (false, true) => println!("Nothing would change: askdesk is not set up for {product}."),
            (true, _) => println!("Dry run: nothing was written."),
        }
        return Ok(());
    }
    let mut notes = BTreeSet::new();
    for p in planned {
        let path = p.path.display();
        if p.edit.changes.is_empty() {
            let state = match (&p.current, args.remove) {
                (None, _) => "no such file",
                (Some(_), false) => "up to date",
                (Some(_), true) => "askdesk is not in it",
            };
            println!("{path}: {state}");
            continue;
        }
        write(p).map_err(|source| SetupError::Write {
            path: p.path.clone(),
            source,
        })?;
        for change in &p.edit.changes {
            println!("{path}: {change}");
        }
        match (&p.current, &p.edit.text) {
            (None, Some(_)) => println!("{path}: created"),
            (Some(_), None) => println!("{path}: deleted, nothing else was in it"),
            _ => {}
        }
        if !args.remove {
            notes.extend(p.note);
        }
    }
    match (changed, args.remove) {
        (false, false) => println!("Nothing changed: askdesk is set up for {product} already."),
        (false, true) => println!("Nothing changed: askdesk is not set up for {product}."),
        (true, _) => {
            for note in notes {
                println!("Note: {note}.");
            }
        }
    }
    Ok(())
}

/// Puts `p`'s new text in place atomically: a file beside it, renamed over
/// it, with the old file's permissions. A missing folder is created; a file
/// left with nothing in it is deleted.
fn write(p: &Planned) -> io::Result<()> {
    let Some(text) = &p.edit.text else {
        return fs::remove_file(&p.target);
    };
    let folder = p.target.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(folder)?;
    let name = p
        .target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let old = fs::metadata(&p.target).ok();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".askdesk-tmp");
    // A new file gets what the umask leaves of read and write for all, as
    // any file the person creates; not the temporary file's owner-only mode.
    #[cfg(unix)]
    if old.is_none() {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut file = builder.tempfile_in(folder)?;
    file.write_all(text.as_bytes())?;
    if let Some(old) = old {
        file.as_file().set_permissions(old.permissions())?;
    }
    file.as_file().sync_all()?;
    file.persist(&p.target).map_err(|e| e.error)?;
    Ok(())
}

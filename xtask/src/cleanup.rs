//! What this process started and must not leave behind (a throwaway
//! PostgreSQL, servers, a suite's process): each is stopped when its
//! guard is dropped, and on Ctrl-C, SIGTERM or SIGHUP, when no guard is
//! dropped, all of them are before the process ends. PostgreSQL matters
//! most: `pg_ctl` detaches it from the terminal, so a Ctrl-C never
//! reaches it.

use std::sync::{
    atomic::{AtomicU64, Ordering},
    Mutex, PoisonError,
};

use signal_hook::{
    consts::{SIGHUP, SIGINT, SIGTERM},
    iterator::Signals,
};

type Task = Box<dyn FnOnce() + Send>;

/// The tasks not run yet, in the order they were registered.
static TASKS: Mutex<Vec<(u64, Task)>> = Mutex::new(Vec::new());

/// Runs its task when dropped, or when a signal ends the process first.
#[must_use = "the task runs when the guard is dropped"]
pub struct Guard(u64);

impl Guard {
    pub fn new(task: impl FnOnce() + Send + 'static) -> Guard {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let id = NEXT.fetch_add(1, Ordering::SeqCst);
        tasks().push((id, Box::new(task)));
        Guard(id)
    }
}

impl Guard {
    /// Drops the task without running it: what it would stop has ended.
    pub fn disarm(self) {
        tasks().retain(|(id, _)| *id != self.0);
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let task = {
            let mut tasks = tasks();
            let at = tasks.iter().position(|(id, _)| *id == self.0);
            at.map(|at| tasks.remove(at).1)
        };
        if let Some(task) = task {
            task();
        }
    }
}

fn tasks() -> std::sync::MutexGuard<'static, Vec<(u64, Task)>> {
    TASKS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// From now on Ctrl-C, SIGTERM and SIGHUP run every task not run yet,
/// the latest first (as the guards would be dropped), and end the process
/// as the signal would have (128 + its number).
pub fn on_signals() -> std::io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let pending = std::mem::take(&mut *tasks());
            for (_, task) in pending.into_iter().rev() {
                task();
            }
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_guard_runs_its_task_once_when_dropped() {
        let runs = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&runs);
        let guard = Guard::new(move || {
            counted.fetch_add(1, Ordering::SeqCst);
        });
        let id = guard.0;
        assert_eq!(runs.load(Ordering::SeqCst), 0);
        assert!(tasks().iter().any(|(i, _)| *i == id), "registered");
        drop(guard);
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert!(tasks().iter().all(|(i, _)| *i != id), "run, and gone");

        let disarmed = Guard::new(|| panic!("a disarmed guard's task never runs"));
        let id = disarmed.0;
        disarmed.disarm();
        assert!(tasks().iter().all(|(i, _)| *i != id));
    }
}

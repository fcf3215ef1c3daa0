//! `cargo xtask test [SUITE…]`: every suite, or the named ones, in order.
//! Each runs in a process of its own (this program's `suite NAME`) whose
//! output goes to the console and to `target/test-logs/<suite>.log`, so
//! one failing never stops the rest; then the summary, from the suites'
//! JUnit reports ([`crate::summary`]).

use std::{
    fs,
    io::{Read, Write},
    process::Command,
    time::Instant,
};

use crate::{
    cleanup::Guard,
    junit, postgres,
    process::{at, step, terminate, Error, Result},
    settings::Settings,
    suites::{Report, Suite},
    summary::{self, Outcome},
    tally::Tally,
};

/// Runs the suites `names` names (every one for none); whether all passed.
pub fn test(settings: &Settings, names: &[String]) -> Result<bool> {
    let suites = Suite::parse_all(names)?;
    let logs = settings.logs();
    fs::create_dir_all(&logs).map_err(at(&logs))?;
    // One PostgreSQL for every suite that claims it, unless one is named.
    let cluster = match &settings.test_postgres {
        None if suites.iter().any(|s| s.needs_postgres()) => {
            Some(postgres::start(&settings.root, settings.durable_postgres)?)
        }
        _ => None,
    };
    let database = cluster
        .as_ref()
        .map(|c| c.url().to_owned())
        .or_else(|| settings.test_postgres.clone());
    let mut outcomes = Vec::new();
    for suite in suites {
        step(&format!("suite {}", suite.name()));
        let started = Instant::now();
        // A report of an earlier run is never counted as this one's.
        let _ = fs::remove_file(suite.junit(settings));
        let passed = in_own_process(settings, suite, database.as_deref())?;
        outcomes.push(Outcome {
            suite: suite.name(),
            passed,
            seconds: started.elapsed().as_secs(),
            tally: tally(settings, suite),
        });
    }
    step("summary");
    print!("{}", summary::render(&outcomes));
    Ok(outcomes.iter().all(|o| o.passed))
}

/// Runs `suite` as this program's `suite NAME`, its standard output and error
/// both teed to the console and its log; whether it passed.
fn in_own_process(settings: &Settings, suite: Suite, postgres: Option<&str>) -> Result<bool> {
    let log_path = settings.logs().join(format!("{}.log", suite.name()));
    let mut log = fs::File::create(&log_path).map_err(at(&log_path))?;
    let (mut output, writer) = std::io::pipe()?;
    let mut command = Command::new(std::env::current_exe()?);
    command
        .args(["suite", suite.name()])
        .stdout(writer.try_clone()?)
        .stderr(writer);
    if let Some(url) = postgres {
        command.env("ASKDESK_TEST_POSTGRES", url);
    }
    let mut child = command.spawn()?;
    // The command holds the pipe's writing end: dropped, the pipe ends
    // when the suite does.
    drop(command);
    let pid = child.id();
    let guard = Guard::new(move || terminate(pid));
    let mut buffer = [0; 8192];
    loop {
        let n = output.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        let mut console = std::io::stdout().lock();
        console.write_all(&buffer[..n])?;
        console.flush()?;
        log.write_all(&buffer[..n]).map_err(at(&log_path))?;
    }
    let status = child.wait()?;
    guard.disarm();
    Ok(status.success())
}

/// The counts of `suite`'s tests from its report, if it made one.
fn tally(settings: &Settings, suite: Suite) -> Option<Tally> {
    match suite.report() {
        Report::None => None,
        Report::Console => {
            let log = settings.logs().join(format!("{}.log", suite.name()));
            fs::read_to_string(log)
                .ok()
                .map(|text| Tally::of_libtest_console(&text))
        }
        Report::Junit => {
            let text = fs::read_to_string(suite.junit(settings)).ok()?;
            let mut sum = Tally::default();
            for document in junit::documents(&text) {
                match junit::tally(&document) {
                    Ok(tally) => sum.add(tally),
                    Err(why) => eprintln!("{}: a JUnit report does not parse: {why}", suite.name()),
                }
            }
            Some(sum)
        }
    }
}

/// `cargo xtask suite NAME`: one suite, here (what `test` runs for each).
pub fn one(settings: &Settings, name: Option<&str>) -> Result {
    let name = name.ok_or_else(|| Error::new("usage: cargo xtask suite NAME"))?;
    Suite::parse(name)?.run(settings)
}

//! The checks that run something: a hook that is setup's own fed a test
//! event, and the desk asked who the token is.

use super::Report;
use crate::cli::config::DeskArgs;
use agents::detached::loopback_addr;
use setup::WrittenHook;
use std::{path::PathBuf, process::Stdio, time::Duration};
use tokio::{io::AsyncWriteExt, process::Command};

/// How long a hook may take to answer the test event: it reads it and
/// leaves it to the agent, asking no one.
const HOOK_TIME: Duration = Duration::from_secs(30);

/// An event no hook of askdesk's answers: the hook says so on stderr and
/// leaves it to the agent, touching no desk.
const TEST_EVENT: &str = r#"{"hook_event_name":"AskdeskDoctor","session_id":"askdesk-doctor"}"#;

/// The file `program` names: itself when it has a slash, else the first
/// match on `PATH`, as the shell finds it. Only for the user's own files:
/// a project's paths are not followed.
pub(super) fn resolve(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program)).filter(|path| path.is_file());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Runs a hook setup wrote, as its words and without a shell (the agent's
/// shell would make the same words of its line), with the test event on
/// stdin: it must exit 0 printing nothing.
pub(super) async fn hook(hook: &WrittenHook) -> Result<(), String> {
    let mut child = Command::new(hook.program())
        .args(hook.args())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("it cannot be run: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A program that does not read stdin is caught by its output.
        let _ = stdin.write_all(TEST_EVENT.as_bytes()).await;
    }
    let output = tokio::time::timeout(HOOK_TIME, child.wait_with_output())
        .await
        .map_err(|_| format!("no answer in {} s", HOOK_TIME.as_secs()))?
        .map_err(|e| format!("cannot wait for it: {e}"))?;
    let said = String::from_utf8_lossy(&output.stderr);
    let said = said.lines().next().unwrap_or_default().trim();
    if !output.status.success() {
        return Err(format!("it exited with {} ({said})", output.status));
    }
    if !output.stdout.is_empty() {
        return Err("it printed a decision for an event it should leave alone".to_owned());
    }
    if !said.starts_with("askdesk hook:") {
        return Err(format!("it is not askdesk's hook (it said {said:?})"));
    }
    Ok(())
}

/// Whether the desk answers at `args.url` and takes the token, as the
/// hooks and `askdesk mcp` will use them.
pub(super) async fn desk(report: &mut Report, args: &DeskArgs) {
    let url = &args.url;
    let client = match client::Client::builder(url)
        .token(args.serve.token.clone())
        .ca_cert(args.ca_cert.clone())
        .build()
    {
        Ok(client) => client,
        Err(e) => {
            report.fail(
                format_args!("the desk's URL {url}: {e}"),
                "set ASKDESK_URL (or --url) to askdesk's address",
            );
            return;
        }
    };
    if !client.is_up().await {
        match loopback_addr(url) {
            Ok(_) => report.line(
                super::Mark::Note,
                format_args!("nothing answers at {url} yet: the first hook or askdesk mcp starts a desk there"),
            ),
            Err(_) => report.fail(
                format_args!("nothing answers at {url}, and a desk can only be started on this machine"),
                "start askdesk there, or set ASKDESK_URL to where it serves",
            ),
        }
        return;
    }
    match client.me().await {
        Ok(me) if !me.role.asks() => report.fail(
            format_args!(
                "the desk at {url} takes the token, but it is {}'s, a person's, who may not put questions",
                me.name.as_deref().unwrap_or("someone")
            ),
            "askdesk people add NAME --role agent, and set ASKDESK_TOKEN to its token",
        ),
        Ok(me) => report.ok(format_args!(
            "the desk at {url} answers and takes the token ({})",
            match &me.name {
                Some(name) => format!("{name}, {}", me.role.as_str()),
                None => "every right".to_owned(),
            }
        )),
        Err(e) if e.status().is_some_and(|s| s.as_u16() == 401) => report.fail(
            format_args!("the desk at {url} refuses the token: {e}"),
            "set ASKDESK_TOKEN to the server's --token, or to a token of askdesk people add",
        ),
        Err(e) => report.fail(
            format_args!("the desk at {url} answers, but not as askdesk does: {e}"),
            "check ASKDESK_URL names askdesk",
        ),
    }
}

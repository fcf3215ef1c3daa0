//! `askdesk acp -- AGENT [ARGS…]`: an Agent Client Protocol proxy that an
//! editor (Zed, JetBrains) runs in the agent's place. It starts the
//! agent and passes every line both ways unchanged (ACP is
//! newline-delimited JSON-RPC over stdio); when the agent asks the editor
//! something the desk can ask ([`prompts`]: a permission prompt, a form),
//! it also puts that to the desk. The first answer wins:
//!
//! - the editor's: it goes to the agent, and the desk's ask is withdrawn;
//! - the desk's: it goes to the agent, the editor is told the request is
//!   over (`$/cancel_request`), and whatever the editor answers later is
//!   dropped, so the agent hears exactly one reply.
//!
//! An answer at the desk that is no reply (declined permission, an ask
//! withdrawn or expired) leaves the editor's dialog to answer. Without a
//! desk the proxy only passes lines on: the agent asks in the editor as
//! usual, and nothing waits on the desk.
//!
//! Requests' ids are the agent's own for what it asks and the editor's
//! for what it asks, and they overlap: only replies from the editor are
//! matched to the agent's pending requests.

pub mod prompts;

use crate::{
    backend::{Backend, BY_CLIENT_TOKEN},
    hook::Reach,
};
use prompts::Prompt;
use serde_json::{json, Value};
use std::{
    collections::HashMap,
    path::Path,
    process::Stdio,
    sync::{Arc, Mutex, PoisonError},
};
use tokio::{
    io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader},
    process::Command,
    sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender},
};

/// One of the agent's requests put to the desk too.
#[derive(Default)]
struct Pending {
    /// The desk's ask, once made, and the desk.
    ask: Option<(Backend, String)>,
    /// Whether a reply went to the agent (the first answer's).
    answered: bool,
}

/// What the proxy remembers between lines.
#[derive(Default)]
struct State {
    /// The agent's requests put to the desk, by their id's JSON.
    pending: HashMap<String, Pending>,
    /// The working folder of each `session/new` the editor sent, by its
    /// id's JSON, until the agent answers it.
    opening: HashMap<String, String>,
    /// Each session's working folder.
    folders: HashMap<String, String>,
}

/// The proxy between one editor and one agent.
struct Proxy<R> {
    desk: R,
    /// The agent's program's name, for the ask's agent.
    name: String,
    state: Mutex<State>,
    to_agent: UnboundedSender<Option<String>>,
    to_editor: UnboundedSender<Option<String>>,
}

/// Runs the agent `command` behind the proxy, the editor on this
/// process's stdin and stdout, until the agent ends: its exit code.
pub async fn run<R: Reach + Send + 'static>(desk: R, command: &[String]) -> Result<i32, String> {
    let (program, args) = command.split_first().ok_or(
        "askdesk acp needs the agent's command after --, e.g. askdesk acp -- claude-agent-acp",
    )?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let (Some(agent_in), Some(agent_out)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(format!("{program} has no stdin or stdout"));
    };
    let (to_agent, agent_lines) = unbounded_channel();
    let (to_editor, editor_lines) = unbounded_channel();
    tokio::spawn(write_lines(agent_in, agent_lines));
    let editor_writer = tokio::spawn(write_lines(tokio::io::stdout(), editor_lines));
    let name = Path::new(program)
        .file_name()
        .map_or_else(|| program.clone(), |n| n.to_string_lossy().into_owned());
    let proxy = Arc::new(Proxy {
        desk,
        name,
        state: Mutex::default(),
        to_agent,
        to_editor,
    });
    let from_editor = proxy.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(tokio::io::stdin()).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            from_editor.editor_line(line);
        }
        // The editor is gone: so is the agent's input.
        let _ = from_editor.to_agent.send(None);
    });
    let mut lines = BufReader::new(agent_out).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        proxy.clone().agent_line(line);
    }
    let _ = proxy.to_editor.send(None);
    let _ = editor_writer.await;
    let status = child.wait().await.map_err(|e| e.to_string())?;
    Ok(status.code().unwrap_or(1))
}

/// Writes each line it is sent, until `None` or every sender is gone.
async fn write_lines(
    mut out: impl AsyncWrite + Unpin,
    mut lines: UnboundedReceiver<Option<String>>,
) {
    while let Some(Some(line)) = lines.recv().await {
        let written = async {
            out.write_all(line.as_bytes()).await?;
            out.write_all(b"\n").await?;
            out.flush().await
        };
        if written.await.is_err() {
            break;
        }
    }
    let _ = out.shutdown().await;
}

/// A message's id, as the key its reply is matched by.
fn key(id: &Value) -> String {
    id.to_string()
}

impl<R: Reach + Send + 'static> Proxy<R> {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A line from the editor: on to the agent, unless it is a late reply
    /// to a request the desk answered first.
    fn editor_line(&self, line: String) {
        let message: Option<Value> = serde_json::from_str(&line).ok();
        if let Some(message) = &message {
            let id = message.get("id").filter(|id| !id.is_null());
            let is_reply = message.get("method").is_none();
            match (id, is_reply) {
                (Some(id), true) if !self.editor_answers(&key(id)) => return,
                (Some(id), false) if message["method"] == "session/new" => {
                    if let Some(cwd) = message["params"]["cwd"].as_str() {
                        self.state().opening.insert(key(id), cwd.to_owned());
                    }
                }
                _ => {}
            }
        }
        let _ = self.to_agent.send(Some(line));
    }

    /// The editor replies to the agent's request `key`: whether the reply
    /// goes on (it is the first), withdrawing the desk's ask if there is one.
    fn editor_answers(&self, key: &str) -> bool {
        let ask = {
            let Some(pending) = self.state().pending.remove(key) else {
                return true;
            };
            if pending.answered {
                return false;
            }
            pending.ask
        };
        if let Some(ask) = ask {
            withdraw(ask);
        }
        true
    }

    /// A line from the agent: on to the editor, and a prompt the desk can
    /// ask put to it too.
    fn agent_line(self: Arc<Self>, line: String) {
        let message: Option<Value> = serde_json::from_str(&line).ok();
        let _ = self.to_editor.send(Some(line));
        let Some(message) = message else {
            return;
        };
        let method = message["method"].as_str().unwrap_or_default().to_owned();
        let id = message.get("id").filter(|id| !id.is_null()).cloned();
        match (method.as_str(), id) {
            // A reply to the editor's `session/new`: the session's folder.
            ("", Some(id)) => {
                let mut state = self.state();
                if let Some(cwd) = state.opening.remove(&key(&id)) {
                    if let Some(session) = message["result"]["sessionId"].as_str() {
                        state.folders.insert(session.to_owned(), cwd);
                    }
                }
            }
            // The agent gives up on a request: so does the desk.
            ("$/cancel_request", None) => {
                let cancelled = key(&message["params"]["requestId"]);
                let ask = self.state().pending.remove(&cancelled).and_then(|p| p.ask);
                if let Some(ask) = ask {
                    withdraw(ask);
                }
            }
            (method, Some(id)) => match Prompt::of(method, &message["params"]) {
                Some(Ok(prompt)) => {
                    self.state().pending.insert(key(&id), Pending::default());
                    let agent = self.agent_name(&message["params"]);
                    tokio::spawn(self.put(id, prompt, agent));
                }
                Some(Err(why)) => eprintln!("askdesk acp: {method} stays in the editor: {why}"),
                None => {}
            },
            _ => {}
        }
    }

    /// Who asks: the agent's program, and its session's folder.
    fn agent_name(&self, params: &Value) -> String {
        let folder = params["sessionId"]
            .as_str()
            .and_then(|session| self.state().folders.get(session).cloned())
            .and_then(|cwd| {
                Path::new(&cwd)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
            });
        match folder {
            Some(folder) => format!("{} · {folder}", self.name),
            None => self.name.clone(),
        }
    }

    /// Puts `prompt` (the agent's request `id`) to the desk, and replies
    /// with the desk's answer if it is the first.
    async fn put(self: Arc<Self>, id: Value, prompt: Prompt, agent: String) {
        let key = key(&id);
        let backend = match self.desk.reach().await {
            Ok(backend) => backend,
            Err(why) => {
                eprintln!("askdesk acp: no desk ({why}); the editor asks as usual");
                self.state().pending.remove(&key);
                return;
            }
        };
        let created = match backend
            .create(prompt.ask(&agent), None, &BY_CLIENT_TOKEN)
            .await
        {
            Ok(created) => created,
            Err(e) => {
                eprintln!(
                    "askdesk acp: the desk refused the prompt ({e}); the editor asks as usual"
                );
                self.state().pending.remove(&key);
                return;
            }
        };
        // The editor may have answered meanwhile.
        let still = match self.state().pending.get_mut(&key) {
            Some(pending) => {
                pending.ask = Some((backend.clone(), created.id.clone()));
                true
            }
            None => false,
        };
        if !still {
            return withdraw((backend, created.id));
        }
        eprintln!("askdesk acp: also at {}", created.url);
        self.answer_from_desk(&backend, &created.id, id, &prompt)
            .await;
    }

    /// Waits for the desk's answer to ask `ask` and, if it is a reply and
    /// the first, sends it to the agent and tells the editor it is over.
    async fn answer_from_desk(&self, backend: &Backend, ask: &str, id: Value, prompt: &Prompt) {
        let Ok(ended) = backend.ended(ask, &BY_CLIENT_TOKEN).await else {
            return;
        };
        let Some(result) = prompt.result(&ended) else {
            return;
        };
        // The first answer: the editor's reply to come is dropped.
        match self.state().pending.get_mut(&key(&id)) {
            Some(pending) if !pending.answered => pending.answered = true,
            _ => return,
        }
        let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
        let _ = self.to_agent.send(Some(reply.to_string()));
        let over =
            json!({"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": id}});
        let _ = self.to_editor.send(Some(over.to_string()));
    }
}

/// Withdraws a desk's ask, in the background.
fn withdraw((backend, ask): (Backend, String)) {
    tokio::spawn(async move {
        let _ = backend.cancel(&ask, &BY_CLIENT_TOKEN).await;
    });
}

#[cfg(test)]
mod tests;

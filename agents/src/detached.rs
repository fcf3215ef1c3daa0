//! The desk `askdesk mcp` and `askdesk hook` start when none answers at
//! their URL: a server process of its own, detached from the client that
//! started it, so a second agent waiting through it and the page a person
//! has open keep working after the first client leaves. It serves until
//! `askdesk stop` (or a reboot).
//!
//! Its files sit in askdesk's data folder, named by port: `desk-<port>.log`
//! (its log, appended), `desk-<port>.pid`, and `desk-<port>.lock`, which a
//! starting client holds so that two clients racing start one server.

use crate::backend::Backend;
use anyhow::{anyhow, Context};
use http::Uri;
use std::{
    fs::OpenOptions,
    net::{SocketAddr, ToSocketAddrs},
    os::unix::process::CommandExt,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

/// How long a started server may take to answer.
const STARTUP: Duration = Duration::from_secs(30);
/// How long `askdesk stop` waits for the server to exit.
const STOPPING: Duration = Duration::from_secs(15);

/// Why no desk could be found or started: with its causes.
pub type StartError = anyhow::Error;

/// The `askdesk serve` flags and environment of a desk at an address.
pub type ServeCommand = (Vec<String>, Vec<(&'static str, String)>);

/// Where an agent's door (`askdesk mcp`, a hook) finds its desk, and how
/// it starts one there when nothing answers: the binary makes it of its
/// flags.
#[derive(Clone)]
pub struct Place {
    /// The desk's URL (`--url`).
    pub url: String,
    /// The token sent to it.
    pub token: Option<String>,
    /// The CA that signed its certificate, when no system-wide CA did.
    pub ca_cert: Option<PathBuf>,
    /// askdesk's data folder, where a started desk's files go; why there
    /// is none, when there is none.
    pub folder: Result<PathBuf, String>,
    /// The command line that serves a desk at an address, with the
    /// settings the door was given.
    pub serve: Arc<dyn Fn(SocketAddr) -> ServeCommand + Send + Sync>,
}

/// The desk at `place.url`, started there first when nothing answers and
/// the address is on this machine.
pub async fn find_desk(place: &Place) -> Result<Backend, StartError> {
    // Its answers come from the client's own form (elicitation).
    let remote = client::Client::builder(&place.url)
        .token(place.token.clone())
        .via(Some(interaction::Via::McpClient))
        .ca_cert(place.ca_cert.clone())
        .build()
        .with_context(|| format!("--url {}", place.url))?;
    if remote.is_up().await {
        tracing::info!(url = %place.url, "using the askdesk server there");
        return Ok(Backend::Remote(remote));
    }
    let addr = loopback_addr(&place.url)?;
    start(place, addr, &remote).await?;
    Ok(Backend::Remote(remote))
}

/// The hooks reach their desk as `askdesk mcp` does.
impl crate::hook::Reach for Place {
    async fn reach(&self) -> Result<Backend, String> {
        find_desk(self).await.map_err(|e| format!("{e:#}"))
    }
}

/// The files of the desk started for one port.
#[derive(Debug, Clone)]
pub struct Files {
    /// Held by the client starting the desk.
    pub lock: PathBuf,
    /// The server's stdout and stderr.
    pub log: PathBuf,
    /// The server's process id, written once it answers.
    pub pid: PathBuf,
}

impl Files {
    /// The files for a desk on `port`, in askdesk's data folder `folder`.
    pub fn for_port(folder: &Result<PathBuf, String>, port: u16) -> Result<Self, StartError> {
        let folder = folder.clone().map_err(|why| anyhow!(why))?;
        std::fs::create_dir_all(&folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
        let file = |ext: &str| folder.join(format!("desk-{port}.{ext}"));
        Ok(Self {
            lock: file("lock"),
            log: file("log"),
            pid: file("pid"),
        })
    }
}

/// Starts a detached server on `addr` as `place` serves one, and returns
/// once it answers `probe`. When another client started one while this
/// one waited for the start lock, that one is used instead.
pub async fn start(
    place: &Place,
    addr: SocketAddr,
    probe: &client::Client,
) -> Result<Files, StartError> {
    let files = Files::for_port(&place.folder, addr.port())?;
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&files.lock)
        .with_context(|| format!("cannot open {}", files.lock.display()))?;
    // Blocks until a client starting a desk on this port has finished.
    let lock = tokio::task::spawn_blocking(move || lock.lock().map(|()| lock))
        .await
        .context("waiting for the start lock failed")?
        .with_context(|| format!("cannot lock {}", files.lock.display()))?;
    if probe.is_up().await {
        return Ok(files);
    }
    let log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&files.log)
        .with_context(|| format!("cannot open {}", files.log.display()))?;
    let (flags, env) = (place.serve)(addr);
    let exe = std::env::current_exe().context("cannot find the askdesk binary to start")?;
    let mut child = Command::new(exe)
        .arg("serve")
        .args(flags)
        .envs(env)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        // Its own process group: a Ctrl-C in the client's terminal does
        // not reach it.
        .process_group(0)
        .spawn()
        .context("cannot start an askdesk server")?;
    let deadline = Instant::now() + STARTUP;
    while !probe.is_up().await {
        if let Some(status) = child.try_wait()? {
            return Err(anyhow!(
                "the askdesk server started on {addr} exited ({status}); its log, {}, ends:\n{}",
                files.log.display(),
                tail(&files.log)
            ));
        }
        if Instant::now() > deadline {
            return Err(anyhow!(
                "the askdesk server started on {addr} did not answer within {} s; see {}",
                STARTUP.as_secs(),
                files.log.display()
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    std::fs::write(&files.pid, format!("{}\n", child.id()))
        .with_context(|| format!("cannot write {}", files.pid.display()))?;
    tracing::info!(
        pid = child.id(),
        log = %files.log.display(),
        "started an askdesk server on http://{addr}; it keeps serving until `askdesk stop`"
    );
    drop(lock);
    Ok(files)
}

/// `askdesk stop`: ends the desk started for `url`, whose files are in
/// `folder`. Returns what it did, or why the desk would not stop.
pub fn stop(url: &str, folder: &Result<PathBuf, String>) -> Result<String, StartError> {
    let addr = loopback_addr(url).map_err(|_| {
        anyhow!(
            "askdesk stop stops a desk on this machine, at an http:// address on 127.0.0.1 \
             or localhost; {url} is not one"
        )
    })?;
    let files = Files::for_port(folder, addr.port())?;
    let none = || format!("no askdesk started by `askdesk mcp` serves at {url}");
    let Some(pid) = std::fs::read_to_string(&files.pid)
        .ok()
        .and_then(|text| text.trim().parse::<u32>().ok())
    else {
        return Ok(none());
    };
    if !is_desk(pid, addr.port()) {
        // Stopped already (a reboot, a kill): the file is stale.
        let _ = std::fs::remove_file(&files.pid);
        return Ok(none());
    }
    let sent = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .context("cannot run kill")?;
    if !sent.success() {
        return Err(anyhow!("kill -TERM {pid} failed ({sent})"));
    }
    let deadline = Instant::now() + STOPPING;
    while is_running(pid) {
        if Instant::now() > deadline {
            return Err(anyhow!(
                "the askdesk at {} (pid {pid}) is still running {} s after it was asked to \
                 stop; see {}",
                url,
                STOPPING.as_secs(),
                files.log.display()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_file(&files.pid);
    Ok(format!("stopped the askdesk at {url} (pid {pid})"))
}

/// Whether `pid` is the desk started for `port`, not a process that
/// reused the number.
fn is_desk(pid: u32, port: u16) -> bool {
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return false;
    };
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    let suffix = format!(":{port}");
    is_running(pid)
        && args.iter().any(|a| *a == b"serve")
        && args
            .iter()
            .any(|a| a.starts_with(b"--addr=") && a.ends_with(suffix.as_bytes()))
}

/// Whether `pid` is alive: present, and not a zombie waiting for its
/// parent to read its exit.
fn is_running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command name, which is in parentheses.
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

/// The last lines of a log, for an error message.
fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(5)..].join("\n")
}

/// The socket address of `url`, which must be on this machine: askdesk
/// starts its own server only where nobody else can reach it.
pub fn loopback_addr(url: &str) -> Result<SocketAddr, StartError> {
    let uri: Uri = url
        .parse()
        .with_context(|| format!("ASKDESK_URL {url:?} is not a URL"))?;
    // A server of our own speaks plain HTTP: it cannot stand in for https.
    if uri.scheme_str() == Some("https") {
        return Err(anyhow!(
            "nothing answers at {url}, and askdesk cannot start a server of its own there \
             (it would speak http, not https); start askdesk there or fix ASKDESK_URL"
        ));
    }
    let host = uri.host().unwrap_or_default().trim_matches(['[', ']']);
    let port = uri.port_u16().unwrap_or(80);
    let addr = (host, port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut addrs| addrs.find(|a| a.ip().is_loopback()))
        .ok_or_else(|| {
            anyhow!(
                "nothing answers at {url}, and askdesk only starts a server of its own on this \
                 machine (127.0.0.1 or localhost); start askdesk there or fix ASKDESK_URL"
            )
        })?;
    Ok(addr)
}

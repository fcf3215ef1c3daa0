//! A server a suite or the watch starts: `askdesk --addr 127.0.0.1:0`
//! lets the kernel pick a free port, and the server says which on its
//! standard output ("askdesk is serving on URL"), which is read here.

use std::{
    fs,
    io::{BufRead, BufReader, Write},
    net::TcpListener,
    path::Path,
    process::{Child, Command, Stdio},
    sync::mpsc,
    time::Duration,
};

use crate::{
    cleanup::Guard,
    process::{at, shown, stop, terminate, Error, Result},
};

/// How long a server may take to say where it serves.
const START: Duration = Duration::from_secs(10);

/// The URL in the line a server prints once it serves, if `line` is it.
pub fn serving_url(line: &str) -> Option<&str> {
    let url = line.strip_prefix("askdesk is serving on ")?;
    (url.starts_with("http:") && !url.contains(' ')).then_some(url)
}

/// A loopback port free now (the kernel's pick), for a server or a host
/// page told of it before it starts.
pub fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// A running server, stopped (SIGTERM, then waited for) when dropped.
pub struct Server {
    child: Child,
    url: String,
    stop: Option<Guard>,
}

/// Where a server's standard output goes besides being read for its URL.
pub enum Output {
    /// Nowhere: read and dropped.
    Dropped,
    /// This process's standard output too (the watch's server).
    Shown,
}

impl Server {
    /// Starts `command` and waits until it says where it serves. Its
    /// standard error goes to `log` (shown when it does not start), or to
    /// this process's own when there is none.
    pub fn start(command: &mut Command, output: Output, log: Option<&Path>) -> Result<Server> {
        command.stdout(Stdio::piped());
        if let Some(log) = log {
            command.stderr(fs::File::create(log).map_err(at(log))?);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Error::new(format!("{}: {e}", shown(command))))?;
        let pid = child.id();
        let stop_guard = Guard::new(move || terminate(pid));
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take();
        std::thread::spawn(move || {
            let Some(stdout) = stdout else { return };
            // Read to the end, so the server never blocks on a full pipe.
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            while matches!(reader.read_until(b'\n', &mut line), Ok(n) if n > 0) {
                let text = String::from_utf8_lossy(&line);
                if matches!(output, Output::Shown) {
                    let mut out = std::io::stdout().lock();
                    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
                }
                if let Some(url) = serving_url(text.trim_end_matches(['\n', '\r'])) {
                    let _ = tx.send(url.to_owned());
                }
                line.clear();
            }
        });
        match rx.recv_timeout(START) {
            Ok(url) => Ok(Server {
                child,
                url,
                stop: Some(stop_guard),
            }),
            Err(_) => {
                stop(&mut child);
                stop_guard.disarm();
                if let Some(log) = log {
                    eprint!("{}", fs::read_to_string(log).unwrap_or_default());
                }
                Err(Error::new(format!(
                    "the server did not start: {}",
                    shown(command)
                )))
            }
        }
    }

    /// Where it serves: `http://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        stop(&mut self.child);
        if let Some(guard) = self.stop.take() {
            guard.disarm();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_serving_line_names_the_url() {
        assert_eq!(
            serving_url("askdesk is serving on http://127.0.0.1:41234"),
            Some("http://127.0.0.1:41234")
        );
        assert_eq!(
            serving_url("askdesk is serving on https://x"),
            None,
            "never TLS here"
        );
        assert_eq!(serving_url("askdesk is serving on http://a b"), None);
        assert_eq!(
            serving_url("  askdesk is serving on http://a"),
            None,
            "the whole line"
        );
        assert_eq!(serving_url("listening"), None);
    }

    #[test]
    fn a_server_that_says_where_it_serves_is_started_and_one_that_exits_is_not() {
        let server = Server::start(
            Command::new("sh").args([
                "-c",
                "echo starting; echo 'askdesk is serving on http://127.0.0.1:9'; exec sleep 30",
            ]),
            Output::Dropped,
            None,
        )
        .expect("started");
        assert_eq!(server.url(), "http://127.0.0.1:9");
        drop(server);

        let failed = Server::start(
            Command::new("sh").args(["-c", "echo no; exit 3"]),
            Output::Dropped,
            None,
        );
        assert!(failed.is_err());
        assert!(free_port().expect("a port") > 0);
    }
}

//! The built binary in a real terminal: tmux runs `askdesk tui` and
//! `askdesk answer`, sends keys and reads the screen. Needs tmux and the
//! debug build of askdesk (or `ASKDESK_BIN`), which `scripts/dev.sh test
//! tui` provides:
//!   cargo build -p server && cargo test -p tui --test tui -- --ignored

use std::{
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `askdesk` binary: `ASKDESK_BIN`, or the debug build.
fn askdesk() -> PathBuf {
    std::env::var("ASKDESK_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("target/debug/askdesk"))
}

/// A tmux session of its own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(name: &str, command: &str) -> Self {
        let socket = format!("askdesk-test-{name}-{}", std::process::id());
        // Options first, in the same server start: a program that exits
        // keeps its pane (and its last screen) for the test to read, and
        // Escape is not held back waiting for a sequence after it.
        let status = Command::new("tmux")
            .args([
                "-L",
                &socket,
                "start-server",
                ";",
                "set-option",
                "-g",
                "remain-on-exit",
                "on",
                ";",
                "set-option",
                "-g",
                "escape-time",
                "0",
                ";",
                "new-session",
                "-d",
                "-x",
                "80",
                "-y",
                "24",
                // The tests read English words.
                "-e",
                "ASKDESK_LANG=en",
                command,
            ])
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux could not start");
        Self { socket }
    }

    fn keys(&self, keys: &[&str]) {
        for key in keys {
            let status = Command::new("tmux")
                .args(["-L", &self.socket, "send-keys", key])
                .status()
                .expect("tmux send-keys");
            assert!(status.success());
        }
    }

    fn type_text(&self, text: &str) {
        let status = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys", "-l", text])
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }

    fn screen(&self) -> String {
        let output = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p"])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Waits until the screen shows `text`.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "never showed {text:?}:\n{screen}"
            );
            thread::sleep(Duration::from_millis(30));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

fn wait_for_file(path: &Path) -> String {
    let start = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            if text.contains("EXIT=") {
                return text;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the program did not finish"
        );
        thread::sleep(Duration::from_millis(30));
    }
}

/// Runs keyless mode on the five-question file with stdout to a file, and
/// returns the tmux session and that file.
fn keyless(name: &str) -> (Tmux, PathBuf, tempfile_dir::Dir) {
    let dir = tempfile_dir::Dir::new(name);
    let out = dir.path.join("out");
    let request = root().join("tui/tests/five-questions.json");
    let command = format!(
        "{} answer {} > {}; echo EXIT=$? >> {}",
        askdesk().display(),
        request.display(),
        out.display(),
        out.display()
    );
    let tmux = Tmux::start(name, &command);
    tmux.wait_for("Question 1 of 5");
    (tmux, out, dir)
}

/// Types `text` as the Other answer of the question shown (`o`), then goes
/// back to option mode (Escape), and returns once the program has read
/// every key. Each step waits for its own screen: keys that reach the
/// program in one read with Escape are taken as Alt+key (crossterm reads
/// Escape and then Up, `\x1b\x1b[A`, as Escape, `[` and `A`), and the
/// option mode's hint is on the screen before `o` is read too.
fn other_text_then_back_to_options(tmux: &Tmux, text: &str) {
    tmux.keys(&["o"]);
    tmux.wait_for("Esc back to options");
    tmux.type_text(text);
    tmux.wait_for(&format!("Other: {text}"));
    tmux.keys(&["Escape"]);
    tmux.wait_for("↑↓ move");
}

/// Answers questions 2 to 5 of the five-question file, from question 2.
fn answer_the_rest(tmux: &Tmux) {
    tmux.keys(&["Tab", "1", "Tab", "2", "Tab", "3", "Tab"]);
    tmux.wait_for("Question 5 of 5");
    tmux.type_text("ok 好");
}

const COMBINED: &str =
    r#"{"id":"features","selected":["Auth","Logging"],"custom":"Rate limiting"}"#;

#[test]
#[ignore = "needs tmux: scripts/dev.sh test tui"]
fn keyless_custom_text_first_then_labels_submitted_from_option_mode() {
    let (tmux, out, _dir) = keyless("first");
    other_text_then_back_to_options(&tmux, "Rate limiting");
    tmux.keys(&["Up", "Up", "Up"]);
    tmux.wait_for("› [ ] 1. Auth");
    tmux.keys(&["Space", "Down", "Space"]);
    tmux.wait_for("[x] 2. Logging");
    answer_the_rest(&tmux);
    // Back to question 1, in option mode, and submit from there.
    tmux.keys(&["BTab", "BTab", "BTab", "BTab"]);
    tmux.wait_for("Question 1 of 5");
    tmux.keys(&["C-s"]);
    tmux.wait_for("Press Enter to submit");
    tmux.keys(&["Enter"]);
    let output = wait_for_file(&out);
    assert!(output.contains(COMBINED), "{output}");
    assert!(
        output.contains(r#"{"id":"q4","selected":["4"]}"#),
        "{output}"
    );
    assert!(output.contains(r#""custom":"ok 好""#), "{output}");
    assert!(output.contains("EXIT=0"), "{output}");
}

#[test]
#[ignore = "needs tmux: scripts/dev.sh test tui"]
fn keyless_labels_first_then_custom_text_submitted_from_custom_mode() {
    let (tmux, out, _dir) = keyless("second");
    tmux.keys(&["1", "2", "Down", "Down"]);
    tmux.wait_for("› Other:");
    tmux.keys(&["Enter"]);
    tmux.type_text("Rate limiting");
    answer_the_rest(&tmux);
    tmux.keys(&["BTab", "BTab", "BTab", "BTab"]);
    let screen = tmux.wait_for("Other: Rate limiting");
    assert!(
        screen.contains("[x] 1. Auth") && screen.contains("[x] 2. Logging"),
        "{screen}"
    );
    tmux.keys(&["C-s"]);
    tmux.wait_for("Press Enter to submit");
    tmux.keys(&["Enter"]);
    let output = wait_for_file(&out);
    assert!(output.contains(COMBINED), "{output}");
    assert!(output.contains("EXIT=0"), "{output}");
}

#[test]
#[ignore = "needs tmux: scripts/dev.sh test tui"]
fn keyless_decline_and_interrupt_have_their_exit_codes_and_restore_the_terminal() {
    let (tmux, out, _dir) = keyless("decline");
    tmux.keys(&["Escape"]);
    tmux.wait_for("Decline this ask?");
    tmux.type_text("Not now");
    tmux.keys(&["Enter"]);
    let output = wait_for_file(&out);
    assert!(
        output.contains(r#"{"reason":"Not now","status":"declined"}"#),
        "{output}"
    );
    assert!(output.contains("EXIT=3"), "{output}");

    let (tmux, out, _dir) = keyless("interrupt");
    tmux.keys(&["C-c"]);
    let output = wait_for_file(&out);
    assert!(output.contains("EXIT=130"), "{output}");
    // Back on the normal screen: the UI is gone.
    let start = Instant::now();
    while tmux.screen().contains("Question 1 of 5") {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the alternate screen was not left"
        );
        thread::sleep(Duration::from_millis(30));
    }
}

/// A real askdesk server on a free port, stopped when dropped.
struct Server {
    child: std::process::Child,
    url: String,
    _dir: tempfile_dir::Dir,
}

impl Server {
    fn start() -> Self {
        let dir = tempfile_dir::Dir::new("server");
        let mut child = Command::new(askdesk())
            .args([
                "--addr",
                "127.0.0.1:0",
                "--database",
                &dir.path.join("asks.db").to_string_lossy(),
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("askdesk starts (build it first: cargo build -p server)");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("announcement");
        let url = line.trim().rsplit(' ').next().expect("url").to_owned();
        Self {
            child,
            url,
            _dir: dir,
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<&str>) -> serde_json::Value {
        let mut args = vec!["-s", "-X", method, "-H", "content-type: application/json"];
        if let Some(body) = body {
            args.extend(["-d", body]);
        }
        let url = format!("{}{path}", self.url);
        args.push(&url);
        let output = Command::new("curl").args(&args).output().expect("curl");
        serde_json::from_slice(&output.stdout).expect("JSON reply")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
#[ignore = "needs tmux and askdesk: scripts/dev.sh test tui"]
fn connected_mode_shows_new_asks_live_and_answers_through_the_api() {
    let server = Server::start();
    let tmux = Tmux::start(
        "connected",
        &format!("{} tui --url {}", askdesk().display(), server.url),
    );
    tmux.wait_for("No questions are waiting");
    // The file is in the lenient shape; the API takes the strict one.
    let file = std::fs::read_to_string(root().join("tui/tests/five-questions.json")).expect("file");
    let (request, title) = tui::read_request(&file).expect("valid file");
    let body = serde_json::json!({"title": title, "questions": request.questions()}).to_string();
    let created = server.call("POST", "/api/v1/asks", Some(&body));
    let id = created["id"].as_str().expect("id").to_owned();
    // The queue updates without a key press.
    tmux.wait_for("Release plan");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Question 1 of 5");
    other_text_then_back_to_options(&tmux, "Rate limiting");
    tmux.keys(&["1", "2"]);
    tmux.wait_for("[x] 2. Logging");
    answer_the_rest(&tmux);
    tmux.keys(&["C-s"]);
    tmux.wait_for("Press Enter to submit");
    tmux.keys(&["Enter"]);
    tmux.wait_for("This ask is answered.");
    let ask = server.call("GET", &format!("/api/v1/asks/{id}"), None);
    assert_eq!(ask["status"], "answered");
    assert_eq!(
        ask["answers"][0],
        serde_json::json!({"id": "features", "selected": ["Auth", "Logging"], "custom": "Rate limiting"})
    );
    tmux.keys(&["Enter"]);
    tmux.wait_for("No questions are waiting");
}

/// A temporary folder, removed when dropped.
mod tempfile_dir {
    use std::path::PathBuf;

    pub struct Dir {
        pub path: PathBuf,
    }

    impl Dir {
        pub fn new(name: &str) -> Self {
            let path =
                std::env::temp_dir().join(format!("askdesk-tui-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).expect("temp dir");
            Self { path }
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

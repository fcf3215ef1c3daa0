//! What the agent last said, from its session's transcript
//! (`transcript_path`, one JSON object a line), shown above a hook's
//! questions. Only the end of the file is read, and only the last
//! assistant message is kept, cut to what a request's context may hold:
//! never the whole transcript. A missing or unreadable transcript is no
//! error; the questions go without it. Nor is a path that is not a
//! regular file: the agent's payload names it, and a FIFO there would hold
//! the hook, and the agent, for ever.

use serde_json::Value;
use std::{
    fs::{self, File, OpenOptions},
    io::{self, Read, Seek, SeekFrom},
    os::unix::fs::OpenOptionsExt,
    path::Path,
};

/// How much of the transcript's end is read.
const TAIL_BYTES: u64 = 256 * 1024;

/// The text of the last assistant message in the transcript at `path`,
/// cut to [`interaction::MAX_CONTEXT_CHARS`] (its end kept); none when
/// there is none, or the file cannot be read.
pub fn last_message(path: &Path) -> Option<String> {
    let tail = read_tail(path).ok()?;
    // The first line may be cut by the window; it is skipped by failing to
    // parse, as is anything else that is not JSON.
    let text = tail
        .lines()
        .rev()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find_map(|entry| assistant_text(&entry))?;
    // A terminal's escapes and the like would get the whole ask refused
    // (control characters are no text): shown as their code points, the
    // message still reaches the desk.
    let shown = interaction::with_visible_controls(text.trim());
    Some(cut(&shown, interaction::MAX_CONTEXT_CHARS))
}

fn read_tail(path: &Path) -> io::Result<String> {
    let mut file = open_regular(path)?;
    let length = file.metadata()?.len();
    file.seek(SeekFrom::Start(length.saturating_sub(TAIL_BYTES)))?;
    let mut bytes = Vec::new();
    file.take(TAIL_BYTES).read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The regular file at `path`, opened for reading; an error for anything
/// else. A FIFO's open waits for a writer and a device's may do anything,
/// so the path is looked at first and only a regular file is opened; the
/// open does not wait even so (the path may change in between), and what
/// it opened is looked at again. On a regular file O_NONBLOCK changes
/// nothing.
fn open_regular(path: &Path) -> io::Result<File> {
    let not_a_file = || io::Error::new(io::ErrorKind::InvalidInput, "not a regular file");
    if !fs::metadata(path)?.is_file() {
        return Err(not_a_file());
    }
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_a_file());
    }
    Ok(file)
}

/// The text of an assistant message entry: Claude Code's
/// (`{"type": "assistant", "message": {"role": "assistant", "content":
/// [{"type": "text", …}]}}`) or Codex's (`{"type": "response_item",
/// "payload": {"type": "message", "role": "assistant", "content":
/// [{"type": "output_text", …}]}}`); none for any other entry, or one
/// with no text (a tool call alone).
fn assistant_text(entry: &Value) -> Option<String> {
    let message = ["message", "payload"]
        .iter()
        .filter_map(|key| entry.get(key))
        .find(|m| m.get("role").and_then(Value::as_str) == Some("assistant"))?;
    let text: Vec<&str> = match message.get("content")? {
        Value::String(text) => vec![text.as_str()],
        Value::Array(parts) => parts
            .iter()
            .filter(|part| {
                matches!(
                    part.get("type").and_then(Value::as_str),
                    Some("text" | "output_text")
                )
            })
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect(),
        _ => Vec::new(),
    };
    let text = text.join("\n\n");
    (!text.trim().is_empty()).then_some(text)
}

/// `text` in at most `max` characters: its end, after `…`, when longer.
pub fn cut(text: &str, max: usize) -> String {
    let chars = text.chars().count();
    if chars <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().skip(chars - (max - 1)).collect();
    format!("…{kept}")
}

/// `text` in at most `max` characters: its start, then `…`, when longer.
pub fn head(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max - 1).collect();
    format!("{kept}…")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::io::Write;

    fn transcript(entries: &[Value]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().expect("file");
        for entry in entries {
            writeln!(file, "{entry}").expect("write");
        }
        file
    }

    fn claude(role: &str, content: Value) -> Value {
        json!({"type": role, "message": {"role": role, "content": content}})
    }

    #[test]
    fn control_characters_in_the_message_are_shown_as_code_points_so_the_ask_is_taken() {
        let file = transcript(&[claude(
            "assistant",
            json!([{"type": "text", "text": "Built \u{1b}[32mgreen\u{1b}[0m, \u{85}done\u{202e}."}]),
        )]);
        let text = last_message(file.path()).expect("a message");
        assert_eq!(
            text,
            "Built ⟨U+001B⟩[32mgreen⟨U+001B⟩[0m, ⟨U+0085⟩done⟨U+202E⟩."
        );
        let request: interaction::Request = serde_json::from_value(json!({
            "questions": [{"id": "go", "question": "Go on?"}],
            "context": text,
        }))
        .expect("a request");
        assert!(interaction::ValidRequest::new(request).is_ok());
    }

    #[test]
    fn the_last_assistant_text_of_claude_code_skipping_tool_calls_and_the_user() {
        let file = transcript(&[
            claude("assistant", json!([{"type": "text", "text": "Earlier."}])),
            claude(
                "assistant",
                json!([{"type": "text", "text": "I moved the tests."},
                       {"type": "text", "text": "Which database?"}]),
            ),
            claude(
                "assistant",
                json!([{"type": "tool_use", "name": "AskUserQuestion"}]),
            ),
            claude("user", json!("the person's prompt")),
        ]);
        assert_eq!(
            last_message(file.path()).as_deref(),
            Some("I moved the tests.\n\nWhich database?")
        );
    }

    #[test]
    fn codex_rollouts_are_read_too() {
        let file = transcript(&[json!({"type": "response_item", "payload": {
            "type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": "Ready to push."}]}})]);
        assert_eq!(last_message(file.path()).as_deref(), Some("Ready to push."));
    }

    #[test]
    fn missing_unreadable_or_empty_transcripts_give_nothing() {
        assert_eq!(last_message(Path::new("/nonexistent/askdesk.jsonl")), None);
        let mut garbage = tempfile::NamedTempFile::new().expect("file");
        garbage.write_all(b"not json\n\xff\xfe\n").expect("write");
        assert_eq!(last_message(garbage.path()), None);
        assert_eq!(last_message(transcript(&[]).path()), None);
    }

    #[test]
    fn a_fifo_a_folder_or_a_device_is_no_transcript_and_nothing_waits() {
        let dir = tempfile::tempdir().expect("a folder");
        let fifo = dir.path().join("transcript.jsonl");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success(), "mkfifo");
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(&fifo, &link).expect("a link");
        let paths = [fifo, link, dir.path().to_owned(), "/dev/null".into()];
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for path in &paths {
                // A send fails only once the test gave up waiting.
                let _ = tx.send((path.clone(), last_message(path)));
            }
        });
        for _ in 0..4 {
            let (path, message) = rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .expect("reading the transcript returns at once");
            assert_eq!(message, None, "{}", path.display());
        }
    }

    #[test]
    fn only_the_end_of_a_long_transcript_is_read_and_a_long_message_keeps_its_end() {
        let filler = claude("user", json!("x".repeat(1_000)));
        let mut entries = vec![claude("assistant", json!("too far back"))];
        entries.extend(std::iter::repeat_n(filler, 400));
        assert_eq!(last_message(transcript(&entries).path()), None);

        let long = format!("{}the end?", "a".repeat(10_000));
        let file = transcript(&[claude("assistant", json!([{"type": "text", "text": long}]))]);
        let kept = last_message(file.path()).expect("kept");
        assert_eq!(kept.chars().count(), interaction::MAX_CONTEXT_CHARS);
        assert!(
            kept.starts_with('…') && kept.ends_with("the end?"),
            "{kept}"
        );
    }
}

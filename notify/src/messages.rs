//! What a notification says: the ask as text, its title, and the message
//! each channel takes (Slack's Block Kit, ntfy's JSON publishing). Web
//! Push's ([`webpush`](super::webpush)) uses the same title and text.

use super::{NTFY_ACTIONS, SLACK_ACTIONS};
use desk::Desk;

/// Text for Slack's mrkdwn: `&`, `<` and `>` escaped, as Slack asks.
fn slack_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A button's text: Slack takes at most 75 characters.
fn slack_button_text(text: &str) -> String {
    if text.chars().count() <= 75 {
        text.to_owned()
    } else {
        text.chars().take(74).chain(['…']).collect()
    }
}

/// A Block Kit message: who asks and about what, each question with its
/// options, an "Answer" button that opens the ask, and, with a signing
/// secret, a button per option while a one-question single-select ask
/// waits (its value carries the option's action token).
pub(super) fn slack_message(
    desk: &Desk,
    notice: desk::Notice,
    ask: &interaction::Ask,
    buttons: bool,
) -> serde_json::Value {
    let title = ask_title(notice, ask);
    let mut blocks = vec![serde_json::json!({
        "type": "header",
        "text": {"type": "plain_text", "text": title.chars().take(150).collect::<String>()},
    })];
    if ask.status != interaction::AskStatus::Pending {
        blocks.push(serde_json::json!({
            "type": "section",
            "text": {"type": "mrkdwn", "text": slack_escape(&ended_text(ask))},
        }));
    }
    if let Some(context) = context_excerpt(ask) {
        let quoted: Vec<String> = context
            .lines()
            .map(|line| format!("> {}", isolated(&slack_escape(line))))
            .collect();
        blocks.push(serde_json::json!({
            "type": "section",
            "text": {"type": "mrkdwn", "text": quoted.join("\n")},
        }));
    }
    for question in ask.request.questions() {
        let mut text = match &question.header {
            Some(header) => format!(
                "*{}*: {}",
                isolated(&slack_escape(header)),
                isolated(&slack_escape(&question.question))
            ),
            None => format!("*{}*", isolated(&slack_escape(&question.question))),
        };
        for option in &question.options {
            text.push_str(&format!("\n• {}", isolated(&slack_escape(&option.label))));
            if let Some(description) = &option.description {
                text.push_str(&format!(" — {}", isolated(&slack_escape(description))));
            }
            if let Some(excerpt) = option.preview.as_deref().and_then(preview_excerpt) {
                text.push_str(&format!("\n```{}```", slack_escape(&excerpt)));
            }
        }
        blocks.push(serde_json::json!({
            "type": "section",
            "text": {"type": "mrkdwn", "text": text.chars().take(3000).collect::<String>()},
        }));
    }
    let mut elements = Vec::new();
    if buttons {
        for (i, (label, token)) in desk
            .actions(ask, SLACK_ACTIONS, interaction::Via::Slack)
            .into_iter()
            .enumerate()
        {
            elements.push(serde_json::json!({
                "type": "button",
                "action_id": format!("askdesk_answer_{i}"),
                "text": {"type": "plain_text", "text": slack_button_text(&label)},
                "value": serde_json::json!({"ask": ask.id, "label": label, "token": token}).to_string(),
            }));
        }
    }
    elements.push(serde_json::json!({
        "type": "button",
        "action_id": "askdesk_open",
        "text": {"type": "plain_text", "text": if ask.status == interaction::AskStatus::Pending { "Answer" } else { "Open" }},
        "url": ask.url,
    }));
    blocks.push(serde_json::json!({"type": "actions", "elements": elements}));
    serde_json::json!({"text": title, "blocks": blocks})
}

/// The ask as a person reads it in a notification: each question with
/// its options, or how it ended.
fn ask_text(ask: &interaction::Ask) -> String {
    use std::fmt::Write;
    let mut text = String::new();
    if ask.status != interaction::AskStatus::Pending {
        let _ = writeln!(text, "{}", ended_text(ask));
    }
    if let Some(context) = context_excerpt(ask) {
        for line in context.lines() {
            let _ = writeln!(text, "> {}", isolated(line));
        }
        let _ = writeln!(text);
    }
    for question in ask.request.questions() {
        match &question.header {
            Some(header) => {
                let (header, question) = (isolated(header), isolated(&question.question));
                let _ = writeln!(text, "{header}: {question}");
            }
            None => {
                let _ = writeln!(text, "{}", isolated(&question.question));
            }
        }
        for option in &question.options {
            match &option.description {
                Some(description) => {
                    let (label, description) = (isolated(&option.label), isolated(description));
                    let _ = writeln!(text, "  • {label} — {description}");
                }
                None => {
                    let _ = writeln!(text, "  • {}", isolated(&option.label));
                }
            }
            if let Some(excerpt) = option.preview.as_deref().and_then(preview_excerpt) {
                for line in excerpt.lines() {
                    let _ = writeln!(text, "      {line}");
                }
            }
        }
    }
    text.trim_end().to_owned()
}

/// How many lines of an option's preview a notification carries, and how
/// long each may be: enough to see the command or the start of a diff.
const PREVIEW_LINES: usize = 6;
const PREVIEW_LINE_CHARS: usize = 120;
/// How many lines of what the agent was doing a notification starts with.
const CONTEXT_LINES: usize = 3;

/// The first lines of an option's preview (a command, a diff), each cut
/// to a width a phone shows, with `…` where anything was left out; `None`
/// for a blank preview.
fn preview_excerpt(preview: &str) -> Option<String> {
    excerpt(preview, PREVIEW_LINES)
}

/// The first lines of what the agent was doing when it asked, as
/// [`preview_excerpt`] cuts a preview.
pub(crate) fn context_excerpt(ask: &interaction::Ask) -> Option<String> {
    excerpt(ask.request.context()?, CONTEXT_LINES)
}

/// The first `max_lines` lines of `text`, each cut to a phone's width.
fn excerpt(text: &str, max_lines: usize) -> Option<String> {
    let preview = text.trim_matches(['\n', '\r']);
    if preview.trim().is_empty() {
        return None;
    }
    let mut lines: Vec<String> = preview
        .lines()
        .take(max_lines)
        .map(|line| {
            if line.chars().count() > PREVIEW_LINE_CHARS {
                let cut: String = line.chars().take(PREVIEW_LINE_CHARS - 1).collect();
                format!("{cut}…")
            } else {
                line.to_owned()
            }
        })
        .collect();
    if preview.lines().count() > max_lines {
        lines.push("…".to_owned());
    }
    Some(lines.join("\n"))
}

/// How a finished ask ended, in a line.
pub(crate) fn ended_text(ask: &interaction::Ask) -> String {
    use interaction::AskStatus;
    match ask.status {
        AskStatus::Answered => {
            let chosen: Vec<String> = ask
                .answers
                .iter()
                .flatten()
                .flat_map(|a| a.selected.iter().cloned().chain(a.custom.clone()))
                .collect();
            format!("Answered: {}", chosen.join(", "))
        }
        AskStatus::Declined => match &ask.decline_reason {
            Some(reason) => format!("Declined: {reason}"),
            None => "Declined".to_owned(),
        },
        AskStatus::Cancelled => "Withdrawn by the agent".to_owned(),
        AskStatus::Expired if ask.defaulted => {
            "Expired unanswered; the agent's default answers apply".to_owned()
        }
        AskStatus::Expired => "Expired unanswered".to_owned(),
        AskStatus::Pending => "Waiting".to_owned(),
    }
}

/// An agent's text set apart from the words around it (Unicode's first
/// strong isolate … pop directional isolate): a right-to-left override in
/// it reorders nothing but itself, as `<bdi>` does on the pages.
pub(crate) fn isolated(text: &str) -> String {
    format!("\u{2068}{text}\u{2069}")
}

/// The notification's title: who asks, and about what.
pub(crate) fn ask_title(notice: desk::Notice, ask: &interaction::Ask) -> String {
    let agent = isolated(ask.agent.as_deref().unwrap_or("An agent"));
    let about = isolated(ask.title.as_deref().unwrap_or("a question"));
    match notice {
        desk::Notice::Created => format!("{agent} asks: {about}"),
        desk::Notice::Reminder => format!("Still waiting — {agent} asks: {about}"),
        desk::Notice::Finished => format!("{agent}: {about}"),
    }
}

/// ntfy's JSON publishing: the topic, the ask as text, a click that opens
/// it, and, while it waits with one single-select question of at most
/// three options, a button per option that answers it
/// (`POST /api/v1/actions/{id}` with the option's action token).
pub(super) fn ntfy_message(
    desk: &Desk,
    topic: &str,
    notice: desk::Notice,
    ask: &interaction::Ask,
) -> serde_json::Value {
    let actions: Vec<serde_json::Value> = desk
        .actions(ask, NTFY_ACTIONS, interaction::Via::Ntfy)
        .into_iter()
        .map(|(label, token)| {
            serde_json::json!({
                "action": "http",
                "label": label,
                "url": format!("{}/api/v1/actions/{}", desk.public_url(), ask.id),
                "method": "POST",
                "headers": {"Content-Type": "application/json"},
                "body": serde_json::json!({"label": label, "token": token}).to_string(),
                "clear": true,
            })
        })
        .collect();
    let priority = match notice {
        desk::Notice::Created | desk::Notice::Reminder => 4,
        desk::Notice::Finished => 2,
    };
    serde_json::json!({
        "topic": topic,
        "title": ask_title(notice, ask),
        "message": ask_text(ask),
        "click": ask.url,
        "priority": priority,
        "tags": [if notice == desk::Notice::Finished { "white_check_mark" } else { "question" }],
        "actions": actions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_shows_its_first_lines_cut_to_a_phones_width() {
        assert_eq!(preview_excerpt("\n  \n"), None);
        assert_eq!(
            preview_excerpt("rm -rf build").as_deref(),
            Some("rm -rf build")
        );
        let diff = (1..=9)
            .map(|n| format!("+line {n}"))
            .collect::<Vec<_>>()
            .join("\n");
        let excerpt = preview_excerpt(&diff).expect("excerpt");
        assert_eq!(excerpt.lines().count(), PREVIEW_LINES + 1);
        assert!(excerpt.ends_with("+line 6\n…"), "{excerpt}");
        let long = "x".repeat(500);
        let cut = preview_excerpt(&long).expect("excerpt");
        assert_eq!(cut.chars().count(), PREVIEW_LINE_CHARS);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn a_notification_starts_with_the_first_lines_of_what_the_agent_was_doing() {
        let ask: interaction::Ask = serde_json::from_value(serde_json::json!({
            "id": "0123456789abcdef0123456789abcdef", "url": "http://127.0.0.1:3000/asks/x",
            "status": "pending", "title": null, "agent": null,
            "request": {"context": "I moved the tests.\nThey pass.\nThe build is slow.\nShould I cache?",
                "questions": [{"id": "q", "question": "Go?"}]},
            "createdAt": "2026-12-03T14:05:00.000Z", "expiresAt": null, "finishedAt": null,
            "answeredBy": null, "via": null, "answers": null, "declineReason": null, "projection": null
        }))
        .expect("an ask");
        assert_eq!(
            ask_text(&ask),
            "> \u{2068}I moved the tests.\u{2069}\n> \u{2068}They pass.\u{2069}\n> \u{2068}The build is \
             slow.\u{2069}\n> \u{2068}…\u{2069}\n\n\u{2068}Go?\u{2069}"
        );
    }

    #[test]
    fn ntfy_text_carries_the_previews_first_lines() {
        let ask: interaction::Ask = serde_json::from_value(serde_json::json!({
            "id": "0123456789abcdef0123456789abcdef", "url": "http://127.0.0.1:3000/asks/x",
            "status": "pending", "title": null, "agent": "Claude Code · askdesk",
            "request": {"questions": [{"id": "p", "question": "Run this command?", "options": [
                {"label": "Allow once", "preview": "cargo build --release\n&& rm -rf target/tmp"},
                {"label": "Deny"}]}]},
            "createdAt": "2026-12-03T14:05:00.000Z", "expiresAt": null, "finishedAt": null,
            "answeredBy": null, "via": null, "answers": null, "declineReason": null, "projection": null
        }))
        .expect("an ask");
        let text = ask_text(&ask);
        assert!(
            text.contains(
                "  • \u{2068}Allow once\u{2069}\n      cargo build --release\n      && rm -rf \
                 target/tmp\n  • \u{2068}Deny\u{2069}"
            ),
            "{text}"
        );
    }

    /// An agent's right-to-left override ends with its own text: the
    /// title's words around it stay in their order.
    #[test]
    fn agent_text_is_isolated_from_the_words_around_it() {
        let ask: interaction::Ask = serde_json::from_value(serde_json::json!({
            "id": "0123456789abcdef0123456789abcdef", "url": "http://127.0.0.1:3000/asks/x",
            "status": "pending", "title": "Deploy\u{202e}now", "agent": "bot\u{202e}",
            "request": {"questions": [{"id": "p", "question": "Go?"}]},
            "createdAt": "2026-12-03T14:05:00.000Z", "expiresAt": null, "finishedAt": null,
            "answeredBy": null, "via": null, "answers": null, "declineReason": null, "projection": null
        }))
        .expect("an ask");
        assert_eq!(
            ask_title(desk::Notice::Created, &ask),
            "\u{2068}bot\u{202e}\u{2069} asks: \u{2068}Deploy\u{202e}now\u{2069}"
        );
        assert_eq!(ask_text(&ask), "\u{2068}Go?\u{2069}");
    }
}

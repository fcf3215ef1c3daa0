//! The terminal UI's I/O with a server, as tasks on the tokio runtime: each
//! reply comes back to the loop as a [`Message`].

use crate::model::{Command, Message};
use client::{Client, ListQuery};
use interaction::Decline;
use std::{sync::mpsc::Sender, time::Duration};
use tokio::runtime::Handle;

/// How long one long poll of the queue waits for a change.
const QUEUE_WAIT: Duration = Duration::from_secs(25);
/// How long to wait before polling again after a failure.
const RETRY_AFTER: Duration = Duration::from_secs(2);

/// Keeps the queue current: long-polls the server's list for changes
/// until the loop stops listening.
pub fn watch_queue(runtime: &Handle, client: Client, tx: Sender<Message>) {
    runtime.spawn(async move {
        let mut after = None;
        loop {
            let query = match after {
                Some(version) => ListQuery::pending().changed_after(version, QUEUE_WAIT),
                None => ListQuery::pending(),
            };
            let result = client.list_all(query).await;
            let failed = result.is_err();
            if let Ok(list) = &result {
                after = Some(list.version);
            }
            if tx.send(Message::Queue(result)).is_err() {
                return;
            }
            if failed {
                tokio::time::sleep(RETRY_AFTER).await;
            }
        }
    });
}

/// Does a command's I/O off the UI thread; the reply comes back as a message.
pub fn execute(runtime: &Handle, client: Client, command: Command, tx: Sender<Message>) {
    runtime.spawn(async move {
        let message = match command {
            Command::Open(id) => Message::Opened(client.get(&id).await),
            Command::Submit { id, answers } => Message::Sent(client.answer(&id, &answers).await),
            Command::Decline { id, reason } => {
                Message::Sent(client.decline(&id, &Decline { reason }).await)
            }
            Command::Refresh => Message::Queue(client.list_all(ListQuery::pending()).await),
            Command::Exit(_) => return,
        };
        let _ = tx.send(message);
    });
}

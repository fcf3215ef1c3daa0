-- Messages from the person at the desk into an agent's running session:
-- an ask names the session that reads them (`session`, NULL for an agent
-- that reads none), and each message is numbered in the order written.
ALTER TABLE asks ADD COLUMN session TEXT;
CREATE TABLE messages (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    session TEXT NOT NULL,
    ask_id  TEXT NOT NULL,
    text    TEXT NOT NULL,
    sender  TEXT,
    at      INTEGER NOT NULL
);
CREATE INDEX messages_by_session ON messages (session, seq);
CREATE INDEX messages_by_ask ON messages (ask_id);

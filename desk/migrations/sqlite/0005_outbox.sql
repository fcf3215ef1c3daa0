-- The outbox: every notification owed (to a webhook, ntfy, Slack…) is a
-- row written in the transaction that creates or finishes its ask, so a
-- crash loses none. A worker claims rows that are due (moving `due_at`
-- past its lease, so a crashed worker's claim comes back), delivers them
-- and records the outcome. `id` is the delivery id receivers de-duplicate
-- on; it never changes between attempts.
CREATE TABLE deliveries (
    id           TEXT PRIMARY KEY NOT NULL,
    ask_id       TEXT NOT NULL,
    channel      TEXT NOT NULL,
    event        TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    due_at       INTEGER NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT,
    last_at      INTEGER,
    delivered_at INTEGER,
    failed_at    INTEGER
);
CREATE INDEX deliveries_due ON deliveries (due_at)
    WHERE delivered_at IS NULL AND failed_at IS NULL;
CREATE INDEX deliveries_ask ON deliveries (ask_id);

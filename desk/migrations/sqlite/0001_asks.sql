-- One row per ask. `request`, `answers` are the JSON of the interaction
-- crate's types; times are milliseconds since the Unix epoch, UTC.
CREATE TABLE asks (
    id             TEXT PRIMARY KEY NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('pending', 'answered', 'declined', 'cancelled', 'expired')),
    title          TEXT,
    agent          TEXT,
    request        TEXT NOT NULL,
    question_count INTEGER NOT NULL,
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER,
    finished_at    INTEGER,
    answers        TEXT,
    decline_reason TEXT,
    -- Leaving `pending` sets `finished_at`, and only answered asks have answers.
    CHECK ((status = 'pending') = (finished_at IS NULL)),
    CHECK ((status = 'answered') = (answers IS NOT NULL))
);

CREATE INDEX asks_by_status_and_age ON asks (status, created_at DESC);
CREATE INDEX asks_pending_expiry ON asks (expires_at) WHERE status = 'pending';

-- One row per ask, as in SQLite (`request`, `answers` and `projection` are
-- the JSON of the interaction crate's types; times are milliseconds since
-- the Unix epoch, UTC). `seq` orders asks made in the same millisecond.
CREATE TABLE asks (
    seq            BIGSERIAL NOT NULL UNIQUE,
    id             TEXT PRIMARY KEY NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('pending', 'answered', 'declined', 'cancelled', 'expired')),
    title          TEXT,
    agent          TEXT,
    request        TEXT NOT NULL,
    question_count BIGINT NOT NULL,
    created_at     BIGINT NOT NULL,
    expires_at     BIGINT,
    finished_at    BIGINT,
    answers        TEXT,
    decline_reason TEXT,
    projection     TEXT,
    -- Leaving `pending` sets `finished_at`, and only answered asks have answers.
    CHECK ((status = 'pending') = (finished_at IS NULL)),
    CHECK ((status = 'answered') = (answers IS NOT NULL))
);

CREATE INDEX asks_by_status_and_age ON asks (status, created_at DESC, seq DESC);
CREATE INDEX asks_by_age ON asks (created_at DESC, seq DESC);
CREATE INDEX asks_pending_expiry ON asks (expires_at) WHERE status = 'pending';

-- Retention (`--keep-finished`): asks finished long ago are removed in
-- batches, oldest first, found by when they finished; and how many were
-- removed so far, for the log and the history page.
CREATE INDEX asks_by_finish ON asks (finished_at, id) WHERE finished_at IS NOT NULL;

CREATE TABLE retention (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    removed BIGINT NOT NULL,
    last_at BIGINT
);
INSERT INTO retention (id, removed, last_at) VALUES (1, 0, NULL);

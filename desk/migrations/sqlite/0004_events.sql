-- Every ask created or finished is an event, numbered by the database in
-- the transaction that makes the change: a stream resumes by number across
-- restarts. `event_log` holds the last number given (`seq`) and the last
-- one pruned (`pruned`); a stream resuming before `pruned` has missed
-- events that are gone, and is told to re-read the asks.
CREATE TABLE event_log (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    seq    INTEGER NOT NULL,
    pruned INTEGER NOT NULL
);
INSERT INTO event_log (id, seq, pruned) VALUES (1, 0, 0);

-- The ask's status after the event; the rest of its summary never changes
-- and is read from `asks`.
CREATE TABLE events (
    seq    INTEGER PRIMARY KEY NOT NULL,
    ask_id TEXT NOT NULL,
    status TEXT NOT NULL,
    at     INTEGER NOT NULL
);

-- Every ask created or finished is an event, numbered by the database in
-- the transaction that makes the change: a stream resumes by number on any
-- instance and across restarts. `event_log` holds the last number given
-- (`seq`) and the last one pruned (`pruned`). Taking a number updates its
-- one row, which stays locked until the transaction ends: numbers commit
-- in order, so a reader that has seen n never later finds an n-1.
CREATE TABLE event_log (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    seq    BIGINT NOT NULL,
    pruned BIGINT NOT NULL
);
INSERT INTO event_log (id, seq, pruned) VALUES (1, 0, 0);

-- The ask's status after the event; the rest of its summary never changes
-- and is read from `asks`.
CREATE TABLE events (
    seq    BIGINT PRIMARY KEY NOT NULL,
    ask_id TEXT NOT NULL,
    status TEXT NOT NULL,
    at     BIGINT NOT NULL
);

-- Instances now hear of new events, not of changed rows: NOTIFY
-- askdesk_events with the schema's name when events commit, and each
-- instance reads the events after the last one it has.
DROP TRIGGER asks_notify ON asks;
DROP FUNCTION askdesk_notify_ask();

CREATE FUNCTION askdesk_notify_event() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('askdesk_events', current_schema());
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER events_notify AFTER INSERT ON events
  FOR EACH STATEMENT EXECUTE FUNCTION askdesk_notify_event();

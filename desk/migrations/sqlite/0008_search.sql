-- What a history search looks in: the title, the agent, and each
-- question's header and text, in lower case, kept beside the ask. Asks
-- stored before are filled from their request here.
ALTER TABLE asks ADD COLUMN search TEXT NOT NULL DEFAULT '';
UPDATE asks SET search = lower(
    coalesce(title, '') || char(10) || coalesce(agent, '') || char(10) ||
    coalesce((SELECT group_concat(
                 coalesce(json_extract(q.value, '$.header'), '') || char(10) ||
                 coalesce(json_extract(q.value, '$.question'), ''), char(10))
              FROM json_each(asks.request, '$.questions') AS q), ''));
-- (Every SQLite index ends with the rowid, the tie-breaker.)
CREATE INDEX asks_by_age ON asks (created_at DESC);

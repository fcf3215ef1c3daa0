-- Each ask belongs to the credential that made it. `asked_by` is the
-- agent's or admin's name (NULL for a caller with every right: an open
-- desk, the shared token); `asker_known` is 0 for asks made before this
-- was recorded, which only callers with every right act on as their asker.
ALTER TABLE asks ADD COLUMN asked_by TEXT;
ALTER TABLE asks ADD COLUMN asker_known BIGINT NOT NULL DEFAULT 0;
-- Idempotency keys are the creator's own: the same key from two agents
-- makes two asks. `key_scope` is the creator's name, '' for a caller with
-- every right (and for keys stored before).
ALTER TABLE asks ADD COLUMN key_scope TEXT NOT NULL DEFAULT '';
DROP INDEX asks_by_idempotency_key;
CREATE UNIQUE INDEX asks_by_idempotency_key ON asks (key_scope, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
-- An agent's session belongs to the agent that first named it ('' for a
-- caller with every right); another agent's ask may not name it.
CREATE TABLE session_owners (
    session    TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
-- Each MCP session (by the SHA-256 of its id) belongs to the credential
-- that opened it; another credential's requests naming it are refused.
CREATE TABLE mcp_session_holders (
    session_digest TEXT PRIMARY KEY,
    holder         TEXT NOT NULL,
    created_at     BIGINT NOT NULL
);
CREATE INDEX mcp_session_holders_by_age ON mcp_session_holders (created_at);

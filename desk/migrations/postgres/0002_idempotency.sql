-- Creating an ask with an idempotency key stores the key and a digest of
-- the ask's content: the same key again gives the same ask, with other
-- content it is refused.
ALTER TABLE asks ADD COLUMN idempotency_key TEXT;
ALTER TABLE asks ADD COLUMN fingerprint TEXT;
CREATE UNIQUE INDEX asks_by_idempotency_key ON asks (idempotency_key) WHERE idempotency_key IS NOT NULL;

-- People with their own tokens, and their roles. A token is kept only as
-- its SHA-256 digest (tokens are 160 random bits, so no slow hash is
-- needed to keep them from being guessed back).
CREATE TABLE people (
    name         TEXT PRIMARY KEY NOT NULL,
    role         TEXT NOT NULL,
    token_digest TEXT NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL
);

-- Signed-in browsers: a digest of the cookie, whose it is (a person, or
-- the shared token's holder, named by a digest of that token) and until
-- when. Removing a person removes their sessions with them.
CREATE TABLE sessions (
    digest     TEXT PRIMARY KEY NOT NULL,
    person     TEXT REFERENCES people (name) ON DELETE CASCADE,
    admin_tag  TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);

-- Who finished an ask and through which surface; whom it is for (a JSON
-- array of names, NULL when for anyone).
ALTER TABLE asks ADD COLUMN finished_by TEXT;
ALTER TABLE asks ADD COLUMN finished_via TEXT;
ALTER TABLE asks ADD COLUMN recipients TEXT;

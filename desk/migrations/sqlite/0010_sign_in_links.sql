-- One-time sign-in links, as the desk's phone page makes them: a digest of
-- the link's secret, whose sign-in it gives (a person, or the shared
-- token's holder by its tag, as in sessions), until when, and when it was
-- used. A used or expired link is kept a while so that opening it again
-- can say why it no longer works. Removing a person removes their links.
CREATE TABLE sign_in_links (
    digest     TEXT PRIMARY KEY NOT NULL,
    person     TEXT REFERENCES people (name) ON DELETE CASCADE,
    admin_tag  TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
);
CREATE INDEX sign_in_links_by_expiry ON sign_in_links (expires_at);

-- How each session was opened: `token` (the sign-in form) or `link` (a
-- one-time sign-in link); sessions from before were all opened by token.
ALTER TABLE sessions ADD COLUMN opened TEXT NOT NULL DEFAULT 'token';

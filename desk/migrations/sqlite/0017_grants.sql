-- askdesk as the OAuth authorization server of its own MCP endpoint.
-- Secrets (codes, tokens) are kept only as SHA-256 digests; times are ms
-- since the epoch.
--
-- Clients registered by RFC 7591 (clients known by a metadata document
-- are fetched, not stored). `redirect_uris` is a JSON array.
CREATE TABLE oauth_clients (
    client_id        TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    redirect_uris    TEXT NOT NULL,
    application_type TEXT NOT NULL,
    created_at       INTEGER NOT NULL
);
-- What a signed-in person allowed, until the code is exchanged: each
-- code is taken once (`used`), and names the grant it opened so a second
-- use revokes that grant.
CREATE TABLE oauth_codes (
    digest       TEXT PRIMARY KEY,
    owner        TEXT NOT NULL,
    client_id    TEXT NOT NULL,
    client_name  TEXT NOT NULL,
    verified     INTEGER NOT NULL,
    redirect_uri TEXT NOT NULL,
    challenge    TEXT NOT NULL,
    scope        TEXT NOT NULL,
    resource     TEXT NOT NULL,
    expires_at   INTEGER NOT NULL,
    used         INTEGER NOT NULL DEFAULT 0,
    grant_id     TEXT
);
CREATE INDEX oauth_codes_by_age ON oauth_codes (expires_at);
-- A client connected for a person: its tokens act as the agent `agent`,
-- a person of the desk with the agent role, owned by `owner`.
CREATE TABLE oauth_grants (
    id          TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    agent       TEXT NOT NULL,
    client_id   TEXT NOT NULL,
    client_name TEXT NOT NULL,
    verified    INTEGER NOT NULL,
    scope       TEXT NOT NULL,
    resource    TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE INDEX oauth_grants_by_owner ON oauth_grants (owner);
-- A grant's tokens: `access` or `refresh`. A refresh token is used once
-- (`used`); a used one presented again revokes its grant.
CREATE TABLE oauth_tokens (
    digest     TEXT PRIMARY KEY,
    grant_id   TEXT NOT NULL,
    kind       TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX oauth_tokens_by_grant ON oauth_tokens (grant_id);

-- Keys the server makes on first start and every instance shares (the
-- action-token key; the Web Push VAPID key): whichever instance comes
-- first writes one, the others read it.
CREATE TABLE server_keys (
    name  TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

-- Action tokens used: a notification's button answers once. A digest of
-- the token, never the token.
CREATE TABLE action_uses (
    token  TEXT PRIMARY KEY NOT NULL,
    ask_id TEXT NOT NULL,
    at     BIGINT NOT NULL
);

-- Browsers that asked to be told of asks (Web Push): where their push
-- service takes messages, and the keys messages are encrypted to.
CREATE TABLE push_subscriptions (
    endpoint   TEXT PRIMARY KEY NOT NULL,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

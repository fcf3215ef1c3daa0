-- Agents whose clients relay the answers people give inside the agent's
-- host (its own form, askdesk's form there), and, on an ask answered so,
-- the agent that carried the answer: no person is named for it.
ALTER TABLE people ADD COLUMN relays_answers INTEGER NOT NULL DEFAULT 0;
ALTER TABLE asks ADD COLUMN relayed_by TEXT;

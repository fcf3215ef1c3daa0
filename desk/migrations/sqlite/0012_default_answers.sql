-- Default answers (`defaultAnswers`): what the agent goes on with if
-- nobody answers before its ask expires, as the JSON of the interaction
-- crate's answer items. They are kept apart from `answers`, which only a
-- person's answer fills: an expired ask that has them applied them. Only
-- an ask with a timeout may have them.
ALTER TABLE asks ADD COLUMN default_answers TEXT
    CHECK (default_answers IS NULL OR expires_at IS NOT NULL);

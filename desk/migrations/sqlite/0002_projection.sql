-- What the agent reads of a finished ask, made once when it finished (the
-- JSON of interaction's ToolOutput). Asks finished before this column
-- existed have none; the desk makes theirs when it reads them.
ALTER TABLE asks ADD COLUMN projection TEXT;

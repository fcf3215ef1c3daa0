-- What a history search looks in: the title, the agent, and each
-- question's header and text, in lower case, kept beside the ask. Asks
-- stored before are filled from their request here.
ALTER TABLE asks ADD COLUMN search TEXT NOT NULL DEFAULT '';
UPDATE asks SET search = lower(
    coalesce(title, '') || chr(10) || coalesce(agent, '') || chr(10) ||
    coalesce((SELECT string_agg(
                 coalesce(q ->> 'header', '') || chr(10) || coalesce(q ->> 'question', ''),
                 chr(10))
              FROM jsonb_array_elements(request::jsonb -> 'questions') AS q), ''));

-- Every instance on this database hears of every ask created or changed,
-- when the change commits: NOTIFY askdesk_asks with '<schema> <writer's
-- application_name> <id>'. A listener keeps its own schema's changes and
-- skips its own (each instance names its connections askdesk-<instance>).
CREATE FUNCTION askdesk_notify_ask() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('askdesk_asks',
    current_schema() || ' ' || current_setting('application_name') || ' ' || NEW.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER asks_notify AFTER INSERT OR UPDATE ON asks
  FOR EACH ROW EXECUTE FUNCTION askdesk_notify_ask();

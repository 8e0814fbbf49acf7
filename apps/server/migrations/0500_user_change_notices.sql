-- Every process keeps a cache of what each account reads most (src/db/user-reads.ts). Any change
-- to a row those reads come from announces the account's id on one channel; NOTIFY is delivered
-- after the change commits and only if it does, to every listening process. Triggers, not the
-- application, announce: no write path (a job, a bot, a sibling's charge, hand-written SQL) can
-- forget to. Identical announcements in one transaction are delivered once.
CREATE FUNCTION announce_user_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- users rows are the account itself; the other tables name it in user_id
  column_name text := TG_ARGV[0];
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('portal_user_changed', to_jsonb(OLD) ->> column_name);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('portal_user_changed', to_jsonb(NEW) ->> column_name);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_announce_change AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION announce_user_change('id');
CREATE TRIGGER two_factor_authenticators_announce_change
  AFTER INSERT OR UPDATE OR DELETE ON two_factor_authenticators
  FOR EACH ROW EXECUTE FUNCTION announce_user_change('user_id');
CREATE TRIGGER sessions_announce_change AFTER INSERT OR UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION announce_user_change('user_id');
CREATE TRIGGER services_announce_change AFTER INSERT OR UPDATE OR DELETE ON services
  FOR EACH ROW EXECUTE FUNCTION announce_user_change('user_id');
CREATE TRIGGER ledger_entries_announce_change AFTER INSERT OR UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION announce_user_change('user_id');
CREATE TRIGGER payments_announce_change AFTER INSERT OR UPDATE OR DELETE ON payments
  FOR EACH ROW EXECUTE FUNCTION announce_user_change('user_id');

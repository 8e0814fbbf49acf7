-- The devices list remembers each account's site sign-ins with their grants' expiry
-- (modules/oidc/site-sign-ins.ts, db/user-reads.ts): a change of either announces the account, as
-- migration 0500 does for the portal's own sessions. A grant names its account in its payload
-- (`accountId`, as the library writes it: modules/oidc/adapter.ts); the library writes a grant
-- at each authorization and deletes it on a revocation, and the portal deletes it on each end of
-- a sign-in (`revokeGrants`). The other kinds of oidc_models (tokens, codes, the library's
-- sessions) are no part of the list: their writes announce nothing.
CREATE TRIGGER oidc_site_sign_ins_announce_change
  AFTER INSERT OR UPDATE OR DELETE ON oidc_site_sign_ins
  FOR EACH ROW EXECUTE FUNCTION announce_user_change('user_id');

CREATE FUNCTION announce_grant_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('portal_user_changed', OLD.payload ->> 'accountId');
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('portal_user_changed', NEW.payload ->> 'accountId');
  END IF;
  RETURN NULL;
END
$$;

-- Only the kind is tested for the other rows, not the function called (a token is written at
-- every refresh). An upsert never changes a row's kind: it is part of the key.
CREATE TRIGGER oidc_grants_announce_change AFTER INSERT OR UPDATE ON oidc_models
  FOR EACH ROW WHEN (NEW.kind = 'Grant') EXECUTE FUNCTION announce_grant_change();
CREATE TRIGGER oidc_grants_announce_removal AFTER DELETE ON oidc_models
  FOR EACH ROW WHEN (OLD.kind = 'Grant') EXECUTE FUNCTION announce_grant_change();

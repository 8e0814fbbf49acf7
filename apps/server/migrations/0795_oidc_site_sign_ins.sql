-- A site's sign-in through the provider is a device of the person (modules/oidc/site-sign-ins.ts):
-- one row per grant, naming the portal session it came from, so that ending that session ends
-- the grant, and the devices list shows the site beside the portal's own sessions.
CREATE TABLE oidc_site_sign_ins (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  grant_id text NOT NULL UNIQUE,
  client_id text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  portal_session_id uuid NOT NULL,
  -- The library's session (its `uid`, stable for its life) and the client's `sid` in it.
  provider_session_uid text NOT NULL,
  sid text NOT NULL,
  user_agent text NOT NULL DEFAULT '',
  ip_address text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX oidc_site_sign_ins_portal_session ON oidc_site_sign_ins (portal_session_id)
  WHERE ended_at IS NULL;
CREATE INDEX oidc_site_sign_ins_user ON oidc_site_sign_ins (user_id) WHERE ended_at IS NULL;
CREATE INDEX oidc_site_sign_ins_session_uid ON oidc_site_sign_ins (provider_session_uid);

-- The outbox delivers a second kind of item with the same claims, lease and retries as letters
-- (adapters/mail.ts): a back-channel logout of a site (modules/oidc/backchannel.ts). Its
-- `payload` says what to deliver; the letter columns stay empty for it.
ALTER TABLE mail_outbox ADD COLUMN kind text NOT NULL DEFAULT 'letter';
ALTER TABLE mail_outbox ADD COLUMN payload jsonb;

-- Sign-in alerts, «Это был не я» and the security checkup (docs/decisions/0029).

-- The owner's switch for the alert letter after a sign-in from a new device (on unless turned
-- off), and whether the account's password is one of the common ones (the password itself is
-- never kept: the flag is computed when a password is set and at each password sign-in).
ALTER TABLE users
  ADD COLUMN sign_in_alerts_by_email boolean NOT NULL DEFAULT true,
  ADD COLUMN is_password_common boolean NOT NULL DEFAULT false;

-- The «Это был не я» links that took effect: one row per sign-in event, so a link acts once
-- however many times (and however concurrently) it is opened. The link itself is signed and
-- carries its expiry; nothing about an unused link is stored.
CREATE TABLE not_me_uses (
  security_event_id uuid PRIMARY KEY REFERENCES security_events(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  used_at timestamptz NOT NULL
);

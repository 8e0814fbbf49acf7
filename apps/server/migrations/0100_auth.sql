-- Identity core: one-time codes, login throttling, SSO hand-off codes, the mail outbox.

-- One live code per (purpose, subject); a new code replaces the old one in place, so the row also
-- carries the resend countdown and the hourly cap.
CREATE TABLE one_time_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- 'registration', 'password-reset', 'email-change', ... (free text, owned by the caller)
  purpose text NOT NULL,
  -- what the code is bound to: a user id, or an e-mail key before an account exists
  subject text NOT NULL,
  -- the account, when there is one: deleting the user deletes its codes
  user_id uuid REFERENCES users(id) ON DELETE CASCADE,
  -- HMAC-SHA256(SECRET_KEY, purpose:subject:code), hex; the code itself is never stored
  code_hash text NOT NULL,
  -- caller's data travelling with the code (e.g. the new address of an e-mail change)
  payload jsonb,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  sent_at timestamptz NOT NULL,
  -- sends of the current run of codes: 1 = first (next in 60 s), more = resends (next in 30 s)
  send_count integer NOT NULL DEFAULT 1,
  hour_started_at timestamptz NOT NULL,
  hour_sends integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT one_time_codes_purpose_subject_key UNIQUE (purpose, subject)
);

-- Consecutive failed logins per account ('user:<id>') or per unknown login ('login:<key>'),
-- in the database so that every server process counts the same failures.
CREATE TABLE login_throttles (
  subject text PRIMARY KEY,
  failures integer NOT NULL DEFAULT 0,
  last_failure_at timestamptz NOT NULL,
  locked_until timestamptz
);

-- Single-use codes that carry a signed-in user to an allow-listed sibling site.
CREATE TABLE hand_off_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- SHA-256 of the code, hex
  code_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  origin text NOT NULL,
  expires_at timestamptz NOT NULL,
  redeemed_at timestamptz,
  -- the session the redemption issued: revoked if the code is presented again
  session_id uuid REFERENCES sessions(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Letters are written here in the same transaction as the change that causes them and delivered
-- after commit. Without SMTP this table is also the dev mailbox shown at /dev/mail.
CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- order of writing, for "newest first" among letters of the same instant
  seq bigint GENERATED ALWAYS AS IDENTITY,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  -- pending → sending → sent; failed after the last retry
  status text NOT NULL DEFAULT 'pending'
    CONSTRAINT mail_outbox_status_check CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- a claimed letter whose lease ran out (crashed process) is picked up again
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE status IN ('pending', 'sending');
CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at DESC, seq DESC);

-- The account's security log (modules/security-log): what happened to the account's security,
-- kept for a year (the housekeeping purge deletes older rows).

CREATE TABLE security_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The order of events recorded at one instant (a recovery code spent, then the sign-in).
  seq bigint GENERATED ALWAYS AS IDENTITY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- SECURITY_EVENT_KINDS in packages/contracts/src/security-log.ts
  kind text NOT NULL,
  occurred_at timestamptz NOT NULL,
  -- The browser's user agent as sent (the web app describes it as the devices page does).
  user_agent text NOT NULL DEFAULT '',
  ip_address text NOT NULL DEFAULT '',
  details jsonb NOT NULL DEFAULT '{}',
  -- Failed sign-ins are one row per account and UTC day (`day` set), counted by one upsert.
  count integer NOT NULL DEFAULT 1,
  day date
);

-- The log's page, newest first (keyset paging over occurred_at, seq).
CREATE INDEX security_events_user_idx ON security_events (user_id, occurred_at DESC, seq DESC);
-- The day's failed sign-ins: the target of the counting upsert.
CREATE UNIQUE INDEX security_events_daily_idx ON security_events (user_id, kind, day)
  WHERE day IS NOT NULL;
-- The purge of rows older than a year.
CREATE INDEX security_events_occurred_idx ON security_events (occurred_at);

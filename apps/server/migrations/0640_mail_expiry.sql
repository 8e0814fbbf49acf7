-- A letter may matter only until a moment: a one-time code's letter is useless once the code has
-- expired. Past it the sender marks the letter 'expired' instead of sending it (adapters/mail.ts).
-- NULL: the letter matters until the sender gives it up ('failed').
ALTER TABLE mail_outbox ADD COLUMN expires_at timestamptz;
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_status_check;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_status_check
  CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'expired'));
-- The operator's counts (mailOutboxStats) read only the letters not sent: a few among many.
CREATE INDEX mail_outbox_unsent_idx ON mail_outbox (status, created_at) WHERE status <> 'sent';

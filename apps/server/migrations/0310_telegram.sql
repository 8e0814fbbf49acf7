-- One-time tokens of the t.me/<bot>?start=<token> links. Only a hash is kept; a token
-- lives 15 minutes and links one Telegram account once.
CREATE TABLE telegram_link_tokens (
  -- SHA-256 of the token, hex
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX telegram_link_tokens_user_id_idx ON telegram_link_tokens (user_id);

-- Account security: the sign-out-everywhere step that follows a password reset.

-- After a reset, `logout-all` may be called with { email, code } instead of a token:
-- accepted once, within minutes of that reset. One row per account, replaced by the next reset.
CREATE TABLE password_reset_logout_grants (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  -- HMAC-SHA256 of the reset code under a key derived from SECRET_KEY, hex
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

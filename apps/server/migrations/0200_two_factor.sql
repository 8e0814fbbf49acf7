-- Authenticator-app two-factor: one TOTP secret per account and its recovery codes.

CREATE TABLE two_factor_authenticators (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  -- AES-256-GCM of the Base32 secret under a key derived from SECRET_KEY, bound to user_id
  secret_sealed text NOT NULL,
  -- null while pending: 2fa/enable wrote it, 2fa/verify has not accepted a code yet
  enabled_at timestamptz,
  -- the highest TOTP time step accepted so far; it and every earlier step are refused (RFC 6238 §5.2)
  last_used_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE two_factor_recovery_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- HMAC-SHA256 of the normalised code under a key derived from SECRET_KEY, hex
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT two_factor_recovery_codes_user_hash_key UNIQUE (user_id, code_hash)
);

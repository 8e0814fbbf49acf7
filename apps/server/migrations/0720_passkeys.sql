-- Passkeys (modules/passkeys): WebAuthn credentials of an account, and the challenges the server
-- handed out for them.

CREATE TABLE passkeys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- The credential's id as the browser names it (base64url); one credential, one account.
  credential_id text NOT NULL UNIQUE,
  -- The COSE public key (base64url); the private key never leaves the authenticator.
  public_key text NOT NULL,
  -- The authenticator's signature counter; a use that does not raise it is refused (0 stays 0).
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  is_backup_eligible boolean NOT NULL DEFAULT false,
  is_backed_up boolean NOT NULL DEFAULT false,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);

CREATE INDEX passkeys_user_idx ON passkeys (user_id, created_at);

-- One row per challenge handed out; a verification deletes it in one statement (DELETE …
-- RETURNING), so a challenge is used at most once however many answers arrive at the same time.
CREATE TABLE passkey_challenges (
  challenge text PRIMARY KEY,
  -- 'registration' | 'sign_in' | 'second_factor'
  purpose text NOT NULL,
  -- The account it was made for; NULL for a sign-in by a discoverable passkey.
  user_id uuid REFERENCES users(id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);

-- The housekeeping purge of challenges never answered.
CREATE INDEX passkey_challenges_expires_idx ON passkey_challenges (expires_at);

-- A session that has just proved its owner (the current password, an authenticator code or a
-- code mailed to the confirmed address) may change the account's factors for a short while
-- (modules/auth/recent-proof.ts). NULL: never proved; a token alone is not enough.
ALTER TABLE sessions ADD COLUMN proven_at timestamptz;

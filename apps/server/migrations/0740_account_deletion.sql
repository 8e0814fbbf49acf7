-- Deleting an account (modules/account-data, docs/decisions/0030-export-and-deletion.md).
-- An erased account keeps its users row as a tombstone, so the money records that name it
-- (payments, ledger entries, services) keep their foreign keys; its personal data is gone and
-- its unique keys no longer name anyone.
ALTER TABLE users ADD COLUMN status text NOT NULL DEFAULT 'active'
  CONSTRAINT users_status_check CHECK (status IN ('active', 'deleted'));
ALTER TABLE users ADD COLUMN deleted_at timestamptz;

-- A deletion the owner asked for: erased by the housekeeping job once due_at has passed, unless
-- cancelled first (by the letter's link, the profile's button or any sign-in).
CREATE TABLE account_deletions (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  requested_at timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  -- SHA-256 of the cancel link's token, hex; the link works once, while the deletion waits
  token_hash text NOT NULL UNIQUE,
  -- set when cancelled: the row then only remembers to tell the owner once, after a sign-in
  cancelled_at timestamptz,
  -- 'sign_in', 'letter', 'profile'
  cancelled_by text,
  CONSTRAINT account_deletions_cancelled_by_check
    CHECK (cancelled_by IS NULL OR cancelled_by IN ('sign_in', 'letter', 'profile'))
);
-- The job's scan of what is due.
CREATE INDEX account_deletions_due_idx ON account_deletions (due_at) WHERE cancelled_at IS NULL;

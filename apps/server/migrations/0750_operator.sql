-- The operator's tools (modules/operator, `npm run admin`): blocked accounts, corrections of a
-- balance, and the record of what support did.

-- A blocked account cannot sign in by any way; its sessions are ended when it is blocked. Owned by
-- modules/accounts like the rest of the row; apart from any deletion status on purpose.
ALTER TABLE users ADD COLUMN blocked_at timestamptz;
ALTER TABLE users ADD COLUMN blocked_reason text;

-- A correction of a balance by support (`admin credit` / `admin debit`), shown as «Корректировка».
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
  CHECK (kind IN ('topUp', 'refund', 'purchase', 'renewal', 'cashback', 'adjustment', 'correction'));

-- Every action of the operator's tool: who, what, on which account, why. No foreign key to users:
-- the record outlives the account it names.
CREATE TABLE operator_actions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  at timestamptz NOT NULL DEFAULT now(),
  operator text NOT NULL CHECK (operator <> ''),
  command text NOT NULL,
  account_id uuid,
  details jsonb NOT NULL DEFAULT '{}',
  reason text
);
CREATE INDEX operator_actions_account_idx ON operator_actions (account_id, at DESC, seq DESC);

-- Nothing may edit or remove the record: refused in the database, whoever asks (a trigger, not a
-- REVOKE, so that the embedded database, which has one role, refuses too).
CREATE FUNCTION operator_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_actions is append-only';
END;
$$;
CREATE TRIGGER operator_actions_append_only
  BEFORE UPDATE OR DELETE ON operator_actions
  FOR EACH ROW EXECUTE FUNCTION operator_actions_append_only();
CREATE TRIGGER operator_actions_no_truncate
  BEFORE TRUNCATE ON operator_actions
  FOR EACH STATEMENT EXECUTE FUNCTION operator_actions_append_only();

-- Wallet: an append-only ledger beside the balances of users, and top-up payments.

-- Every change of users.balance_kopecks / users.balance_points is one row here, written in the
-- same transaction as the balance, so per user and currency the sum of amounts is the balance.
CREATE TABLE ledger_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  currency text NOT NULL CHECK (currency IN ('rub', 'points')),
  -- signed: kopecks for rub, whole points for points
  amount bigint NOT NULL CHECK (amount <> 0),
  kind text NOT NULL CHECK (kind IN ('topUp', 'refund', 'purchase', 'renewal', 'cashback', 'adjustment')),
  description text NOT NULL,
  -- what caused it: a payment id, a service id, an order id
  reference text,
  -- one outside event changes a balance at most once
  idempotency_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_user_history_idx ON ledger_entries (user_id, created_at DESC, id DESC);

-- Append-only: rows are never edited, and only disappear with their user (account deletion).
CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
    RETURN OLD; -- the ON DELETE CASCADE of users
  END IF;
  RAISE EXCEPTION 'ledger_entries is append-only';
END;
$$;
CREATE TRIGGER ledger_entries_append_only
  BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();

-- A top-up: created pending, moved forward only by signed provider notifications or GetState.
CREATE TABLE payments (
  -- sent to the provider as OrderId
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  method text NOT NULL CHECK (method IN ('card', 'sbp')),
  amount_kopecks bigint NOT NULL CHECK (amount_kopecks > 0),
  -- 'tbank' or 'sandbox': which provider's terminal and password this payment belongs to
  provider text NOT NULL,
  -- the provider's status (NEW, CONFIRMED, REFUNDED, ...) or INIT_FAILED when Init never succeeded
  status text NOT NULL DEFAULT 'NEW',
  provider_payment_id text,
  -- where the browser goes to pay: PaymentURL (card) or the GetQr payload (SBP)
  redirect_url text,
  -- the caller's Idempotency-Key header; cleared when Init fails so a retry may start afresh
  idempotency_key text,
  credited_at timestamptz,
  refunded_kopecks bigint NOT NULL DEFAULT 0 CHECK (refunded_kopecks >= 0),
  -- refunded money the user had already spent: recorded, never taken below zero
  refund_shortfall_kopecks bigint NOT NULL DEFAULT 0 CHECK (refund_shortfall_kopecks >= 0),
  checked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT payments_refund_within_amount CHECK (refunded_kopecks <= amount_kopecks)
);
CREATE UNIQUE INDEX payments_idempotency_key_idx ON payments (user_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX payments_user_history_idx ON payments (user_id, created_at DESC, id DESC);
CREATE INDEX payments_unsettled_idx ON payments (created_at) WHERE credited_at IS NULL;

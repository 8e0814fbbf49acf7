-- Fiscal receipts and portal-initiated refunds (modules/payments, docs/decisions/0032-receipts.md
-- and 0033-refunds-and-order-cancel.md).

-- The sandbox keeps the receipt each Init brought, as T-Bank's register does, and numbers the
-- fiscal documents it pretends to print.
ALTER TABLE sandbox_payments ADD COLUMN receipt jsonb;
CREATE SEQUENCE sandbox_fiscal_document_seq;

-- One row per fiscal document the provider reported (NotificationFiscalization, Status RECEIPT).
-- A document is identified by its fiscal storage (fn_number) and its number there, so a repeated
-- notification adds nothing. Receipts never change a balance.
CREATE TABLE receipts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  payment_id uuid NOT NULL REFERENCES payments(id) ON DELETE CASCADE,
  -- income: the top-up (Type Income); refund: its return (Type IncomeReturn)
  type text NOT NULL CHECK (type IN ('income', 'refund')),
  amount_kopecks bigint NOT NULL CHECK (amount_kopecks > 0),
  item_name text NOT NULL,
  vat text NOT NULL,
  fiscal_number bigint,
  shift_number bigint,
  fn_number text NOT NULL,
  ecr_reg_number text NOT NULL DEFAULT '',
  fiscal_document_number bigint NOT NULL,
  fiscal_document_attribute bigint NOT NULL,
  receipt_datetime timestamptz NOT NULL,
  -- the notification as received, signature included
  raw jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (fn_number, fiscal_document_number)
);
-- The history finds the receipt of a top-up or a refund by payment, type and amount.
CREATE INDEX receipts_payment_idx ON receipts (payment_id, type, amount_kopecks);
CREATE INDEX receipts_user_idx ON receipts (user_id);
CREATE TRIGGER receipts_announce_change AFTER INSERT OR UPDATE OR DELETE ON receipts
  FOR EACH ROW EXECUTE FUNCTION announce_user_change('user_id');

-- Refunds staff start (refundPayment): the ledger debit is written before the provider's Cancel,
-- under the payment's and the user's locks, so parallel refunds never take more than is left.
CREATE TABLE payment_refunds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  payment_id uuid NOT NULL REFERENCES payments(id) ON DELETE CASCADE,
  amount_kopecks bigint NOT NULL CHECK (amount_kopecks > 0),
  -- payments.refunded_kopecks once this refund is counted: the ledger key's <total>
  refunded_total_kopecks bigint NOT NULL,
  -- pending: debited, Cancel not answered yet; completed: the provider refunded;
  -- refused: the provider refused, the debit was given back; unknown: no answer (support checks)
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'completed', 'refused', 'unknown')),
  reason text NOT NULL,
  operator text NOT NULL,
  -- the caller's key: a repeat with it answers the first refund and refunds nothing more
  idempotency_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_refunds_payment_idx ON payment_refunds (payment_id);

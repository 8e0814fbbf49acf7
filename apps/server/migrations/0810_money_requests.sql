-- Money moved by two people (modules/operator/money-service.ts): a staff refund or balance
-- correction above STAFF_APPROVAL_ROUBLES waits here until another finance member approves or
-- declines it, for MONEY_REQUEST_HOURS. The money itself moves only through the ledger, on
-- approval; this row is the request and its decision.
CREATE TABLE money_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('credit', 'debit', 'refund')),
  account_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- The refunded top-up; null for a correction.
  payment_id uuid REFERENCES payments(id) ON DELETE CASCADE,
  currency text NOT NULL CHECK (currency IN ('rub', 'points')),
  -- Kopecks for roubles, whole points for points; what the approver approves, never more.
  amount bigint NOT NULL CHECK (amount > 0),
  reason text NOT NULL,
  -- The requester's key: a repeated click answers the first request.
  idempotency_key text NOT NULL UNIQUE,
  -- Who asked: the staff member's username or the command line's --operator, and the staff
  -- member's account when there is one; nobody approves their own request.
  requested_by text NOT NULL CHECK (requested_by <> ''),
  requested_by_user_id uuid,
  requested_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  -- A pending row past expires_at reads as expired and can no longer be decided.
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'approved', 'declined', 'expired')),
  decided_by text,
  decided_by_user_id uuid,
  decided_at timestamptz,
  decision_reason text,
  CHECK ((kind = 'refund') = (payment_id IS NOT NULL)),
  CHECK (kind <> 'refund' OR currency = 'rub')
);
-- The list staff works from: the pending ones, oldest first; and an account's requests.
CREATE INDEX money_requests_pending_idx ON money_requests (requested_at) WHERE status = 'pending';
CREATE INDEX money_requests_account_idx ON money_requests (account_id, requested_at DESC);

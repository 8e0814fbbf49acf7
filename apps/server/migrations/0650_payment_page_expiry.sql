-- A payment page (card) or SBP link lives until the RedirectDueDate the portal sends with Init.
-- Kept with the payment so the history can stop offering a page that can no longer be paid, and
-- so reconciliation knows when an unpaid one is over. Rows made before this had T-Bank's default
-- lifetime: 24 hours.
ALTER TABLE payments ADD COLUMN expires_at timestamptz;
UPDATE payments SET expires_at = created_at + interval '24 hours';
ALTER TABLE payments ALTER COLUMN expires_at SET DEFAULT now() + interval '24 hours';
ALTER TABLE payments ALTER COLUMN expires_at SET NOT NULL;

-- The sandbox honours RedirectDueDate as T-Bank does: past it, a waiting payment is
-- DEADLINE_EXPIRED and its page can no longer be paid.
ALTER TABLE sandbox_payments ADD COLUMN redirect_due_date timestamptz;
UPDATE sandbox_payments SET redirect_due_date = created_at + interval '24 hours';
ALTER TABLE sandbox_payments ALTER COLUMN redirect_due_date SET DEFAULT now() + interval '24 hours';
ALTER TABLE sandbox_payments ALTER COLUMN redirect_due_date SET NOT NULL;
-- CheckOrder finds a sandbox payment by the portal's OrderId.
CREATE INDEX sandbox_payments_order_idx ON sandbox_payments (terminal_key, order_id);

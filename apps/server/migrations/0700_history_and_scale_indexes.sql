-- Indexes the hot queries need on a large database (each checked with EXPLAIN on 100,000
-- accounts, 1,000,000 ledger entries and 200,000 sessions; apps/server/bench/large-database.ts).

-- The history's top-ups not credited (modules/payments/history.ts) read in the history's order:
-- with payments_user_history_idx alone, a page walked past every credited top-up of the account.
CREATE INDEX payments_user_unsettled_history_idx ON payments (user_id, created_at DESC, id DESC)
  WHERE credited_at IS NULL;

-- The payments reconciliation asks about and the metrics' oldest unsettled one: still waiting for
-- money, not merely never credited. Top-ups that failed, were cancelled or never started stay
-- uncredited for good and pile up; payments_unsettled_idx made every reconciliation run walk all
-- of them.
CREATE INDEX payments_awaiting_idx ON payments (created_at)
  WHERE credited_at IS NULL
    AND status IN ('NEW', 'FORM_SHOWED', 'AUTHORIZING', '3DS_CHECKING', '3DS_CHECKED', 'AUTHORIZED',
                   'CONFIRMING');
DROP INDEX payments_unsettled_idx;

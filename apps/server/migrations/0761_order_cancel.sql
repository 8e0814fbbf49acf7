-- A sibling site cancels an order (modules/servers/order-cancel.ts,
-- docs/decisions/0033-refunds-and-order-cancel.md): the order keeps how many months it paid for,
-- and, once cancelled, when and the answer given, which every repeat answers again.
ALTER TABLE service_orders ADD COLUMN months integer;
ALTER TABLE service_orders ADD COLUMN cancelled_at timestamptz;
ALTER TABLE service_orders ADD COLUMN cancel_answer jsonb;

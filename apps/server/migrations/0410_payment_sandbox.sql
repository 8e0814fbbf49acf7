-- The sandbox payment provider: T-Bank's API served by the portal itself.
CREATE TABLE sandbox_payments (
  -- the PaymentId the sandbox hands out, digits like T-Bank's
  id bigserial PRIMARY KEY,
  terminal_key text NOT NULL,
  order_id text NOT NULL,
  amount_kopecks bigint NOT NULL CHECK (amount_kopecks > 0),
  description text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'NEW',
  -- kopecks still paid after partial refunds
  current_amount_kopecks bigint NOT NULL,
  notification_url text,
  success_url text,
  fail_url text,
  -- 'OK' came back for the last notification
  is_notified boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

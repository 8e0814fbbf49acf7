-- Purchased services: created and renewed by sibling sites through the
-- server-to-server API, renewed by the auto-renewal job.
CREATE TABLE services (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- the sibling whose API key created it ('hosting', 'launcher', ...)
  sibling text NOT NULL,
  -- the sibling's own id for it
  external_id text NOT NULL,
  name text NOT NULL,
  server_count integer NOT NULL CHECK (server_count >= 0),
  price_kopecks bigint NOT NULL CHECK (price_kopecks >= 0),
  auto_renew boolean NOT NULL DEFAULT true,
  -- renewals pay like the last order did: points first, or roubles only
  use_points boolean NOT NULL DEFAULT false,
  manage_url text,
  paid_until timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (sibling, external_id)
);
CREATE INDEX services_user_idx ON services (user_id, created_at);
CREATE INDEX services_due_idx ON services (paid_until) WHERE status = 'active';

-- A sibling's order, kept with its answer: the same order id answers the same, charged once.
CREATE TABLE service_orders (
  sibling text NOT NULL,
  order_id text NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  service_id uuid NOT NULL REFERENCES services(id) ON DELETE CASCADE,
  -- SHA-256 of the canonical request: the same id with other contents is refused
  request_hash text NOT NULL,
  answer jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (sibling, order_id)
);

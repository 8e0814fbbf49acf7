-- What the portal says about itself when it starts listening, for the operator's tool
-- (modules/operator, `npm run admin`): whether it runs with Redis. The tool refuses to end
-- sessions without Redis beside a portal that remembers sessions and hears of their end only
-- through Redis. One row; every start writes it.
CREATE TABLE portal_runtime (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  uses_redis boolean NOT NULL,
  started_at timestamptz NOT NULL
);

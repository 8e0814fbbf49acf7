-- Yandex ID sign-ins that came back to the callback (src/modules/yandex/README.md). A row is
-- written when the callback accepts a state, so the same state is refused the second time; a
-- sign-in then keeps here the one-time code it handed to /auth, which only the browser holding
-- the flow cookie can exchange for a session, once, within 60 seconds.
CREATE TABLE yandex_flows (
  -- SHA-256 of the flow id in the browser's cookie, hex; the signed state carries this hash
  flow_hash text PRIMARY KEY,
  -- the state's expiry until a code is issued, then the code's
  expires_at timestamptz NOT NULL,
  -- SHA-256 of the one-time code, hex; null when the callback issued none (error, linking)
  code_hash text UNIQUE,
  user_id uuid REFERENCES users(id) ON DELETE CASCADE,
  exchanged_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX yandex_flows_user_id_idx ON yandex_flows (user_id);

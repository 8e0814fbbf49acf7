-- Which sibling sites a user has used: a row is written when the sibling redeems a hand-off code
-- with its own API key. A sibling's key reads and charges only users it has a row for, or who
-- hold one of its services. Kept apart from sessions, which are purged after they end.
CREATE TABLE sibling_users (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- the sibling's name in SIBLING_API_KEYS ('hosting', 'launcher')
  sibling text NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, sibling)
);


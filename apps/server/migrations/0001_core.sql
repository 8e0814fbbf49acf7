-- Core identity: users and their sessions (a session is a signed-in device).
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  -- lower-cased, trimmed: the uniqueness key for e-mail
  email_key text NOT NULL UNIQUE,
  user_name text NOT NULL,
  -- NFKC-normalised, lower-cased: the uniqueness key for usernames
  user_name_key text NOT NULL UNIQUE,
  password_hash text,
  first_name text NOT NULL DEFAULT '',
  middle_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  phone text,
  avatar_url text,
  yandex_id text UNIQUE,
  telegram_id bigint UNIQUE,
  confirmed_at timestamptz,
  balance_kopecks bigint NOT NULL DEFAULT 0 CONSTRAINT users_balance_not_negative CHECK (balance_kopecks >= 0),
  balance_points bigint NOT NULL DEFAULT 0 CONSTRAINT users_points_not_negative CHECK (balance_points >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- SHA-256 of the bearer token, hex; the token itself is never stored
  token_hash text NOT NULL UNIQUE,
  user_agent text NOT NULL DEFAULT '',
  ip_address text NOT NULL DEFAULT '',
  -- origin of the sibling site this session was handed to, null for the portal's own sessions
  client_origin text,
  remember_me boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_activity_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id) WHERE revoked_at IS NULL;

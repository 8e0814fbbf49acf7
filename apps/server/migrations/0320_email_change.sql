-- The e-mail change in progress: set once the code sent to the current address was
-- confirmed, from one session; the new address and its code must follow within minutes. The new
-- address travels with its one-time code (one_time_codes.payload).
CREATE TABLE email_changes (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  session_id uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  current_confirmed_at timestamptz NOT NULL
);

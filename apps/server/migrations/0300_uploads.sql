-- Files stored by /upload. `update-avatar` accepts only an address found here and
-- uploaded by the same user, so a profile can never point at someone else's or an outside address.
CREATE TABLE uploads (
  -- generated name of the stored object: 32 hex characters and the extension
  key text PRIMARY KEY,
  -- the address /upload answered (local /uploads/<key> or the object storage's public URL)
  address text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  content_type text NOT NULL,
  size_bytes integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX uploads_user_id_idx ON uploads (user_id);

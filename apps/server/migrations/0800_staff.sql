-- The support desk (modules/staff): staff roles, the staff's own proof, and operator_actions as the
-- one audit of the command line and the staff pages.

-- A portal account's staff role. One live role per account (revoked_at IS NULL); a change of role
-- revokes the live row and adds a new one, so the table keeps every grant. granted_by/revoked_by are
-- names as the audit shows them (a member's username, or the command line's --operator).
CREATE TABLE staff_roles (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('support', 'finance', 'admin')),
  granted_by text NOT NULL,
  granted_at timestamptz NOT NULL,
  reason text NOT NULL,
  revoked_at timestamptz,
  revoked_by text,
  revoke_reason text
);
CREATE UNIQUE INDEX staff_roles_live_idx ON staff_roles (user_id) WHERE revoked_at IS NULL;

-- When a session last proved its staff member by a passkey or the authenticator (POST …/Staff/proof).
-- Apart from sessions.proven_at on purpose: a password or a mailed code proves a customer, never a
-- member. Goes with its session.
CREATE TABLE staff_proofs (
  session_id uuid PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  proven_at timestamptz NOT NULL
);
CREATE INDEX staff_proofs_user_idx ON staff_proofs (user_id);

-- operator_actions is the one audit: the command line's rows keep actor_user_id and role NULL.
ALTER TABLE operator_actions ADD COLUMN actor_user_id uuid;
ALTER TABLE operator_actions ADD COLUMN role text CHECK (role IN ('support', 'finance', 'admin'));
ALTER TABLE operator_actions ADD COLUMN ip text;
-- The audit page: newest first, by member (operator), by kind (command).
CREATE INDEX operator_actions_seq_idx ON operator_actions (seq DESC);
CREATE INDEX operator_actions_operator_idx ON operator_actions (operator, seq DESC);

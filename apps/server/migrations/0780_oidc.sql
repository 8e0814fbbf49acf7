-- The OpenID provider's state (modules/oidc, docs/decisions/0043-openid-provider.md): every model
-- oidc-provider keeps (sessions, interactions, grants, codes, tokens, device codes) as one row of
-- its kind, so that any process serves any step of a flow. The library checks expiry and
-- consumption itself; the columns beside the payload are what its lookups and the purge need.
CREATE TABLE oidc_models (
  kind text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (kind, id)
);
CREATE INDEX oidc_models_grant_id ON oidc_models (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_models_user_code ON oidc_models (kind, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_models_uid ON oidc_models (kind, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_models_expires_at ON oidc_models (expires_at);
CREATE INDEX oidc_models_account ON oidc_models ((payload->>'accountId'))
  WHERE payload ? 'accountId';

-- The provider's signing keys, each private JWK sealed with a key derived from SECRET_KEY
-- (AES-256-GCM, bound to its kid). Generated on the first start; a retired key is still
-- published until the tokens it signed have expired.
CREATE TABLE oidc_signing_keys (
  kid text PRIMARY KEY,
  alg text NOT NULL,
  sealed_jwk text NOT NULL,
  created_at timestamptz NOT NULL,
  retired_at timestamptz
);

-- Signing-key rotation by the operator's tool (modules/oidc/signing-keys.ts).
-- signs_from: when the key starts signing. A rotated-in key is published at once and signs only
-- after a delay longer than any process's re-read period, so every process has it by then.
-- retired_at (already there): when it stops signing, the next key's signs_from; it stays
-- published until every token it signed has expired, then it is dropped.
ALTER TABLE oidc_signing_keys ADD COLUMN signs_from timestamptz;
UPDATE oidc_signing_keys SET signs_from = created_at;
ALTER TABLE oidc_signing_keys ALTER COLUMN signs_from SET NOT NULL;

-- Which key of SECRET_KEY seals the private JWK: 'totp-secret:v1' (the authenticator secrets'
-- key, as the first version sealed them) or 'oidc-signing-key:v1' (its own). Keys sealed the old
-- way are sealed again with their own key at the next start.
ALTER TABLE oidc_signing_keys ADD COLUMN sealed_with text NOT NULL DEFAULT 'totp-secret:v1';
ALTER TABLE oidc_signing_keys ALTER COLUMN sealed_with DROP DEFAULT;

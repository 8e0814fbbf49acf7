-- How a session signed in, written by the sign-in policy as it creates the session
-- (modules/auth/sign-in-policy.ts): the way in and its `amr` (RFC 8176 values, as the session's
-- `sign_in` entry of the security log records them). A site's sign-in through the OpenID provider
-- reads them from the session (modules/oidc/interactions.ts). NULL: no sign-in of the policy (a
-- hand-off to a sibling site), or one whose entry the fill below did not find.
ALTER TABLE sessions ADD COLUMN sign_in_method text;
ALTER TABLE sessions ADD COLUMN amr text[];
-- Live portal sessions created before: what the provider read for them until now, the account's
-- first `sign_in` entry from the session's user agent at or after its creation. Expired and
-- revoked sessions never sign in to a site again; a sibling's session never does.
UPDATE sessions AS s
SET (sign_in_method, amr) = (
  SELECT e.details ->> 'method',
    ARRAY(SELECT jsonb_array_elements_text(COALESCE(e.details -> 'amr', '[]'::jsonb)))
  FROM security_events AS e
  WHERE e.user_id = s.user_id AND e.kind = 'sign_in' AND e.user_agent = s.user_agent
    AND e.occurred_at >= s.created_at
  ORDER BY e.occurred_at, e.seq
  LIMIT 1
)
WHERE s.revoked_at IS NULL AND s.expires_at > now() AND s.client_origin IS NULL;

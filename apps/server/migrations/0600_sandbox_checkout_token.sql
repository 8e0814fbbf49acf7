-- The sandbox's checkout page is reached by an unguessable token, never by the sequential
-- PaymentId: whoever knows one payment's link cannot open, pay or cancel another's.
ALTER TABLE sandbox_payments ADD COLUMN checkout_token text;
-- Pages made before this get a token nobody was given: their old links stop working.
UPDATE sandbox_payments
  SET checkout_token = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
ALTER TABLE sandbox_payments ALTER COLUMN checkout_token SET NOT NULL;
ALTER TABLE sandbox_payments ADD CONSTRAINT sandbox_payments_checkout_token_key UNIQUE (checkout_token);

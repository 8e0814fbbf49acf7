import { sql } from 'drizzle-orm';
import { type DataOwner, purgeEach } from '../../db/data-owners.js';
import { PUBLISHED_AFTER_RETIREMENT_MS } from './signing-keys.js';

/** Expired models are kept a day: a late request then still finds why it is refused. */
const EXPIRED_KEPT_MS = 24 * 60 * 60_000;
/** A site sign-in whose grant cannot live any more (30 days, provider.ts) is no device. */
const SIGN_INS_KEPT_MS = 31 * 24 * 60 * 60_000;

/**
 * The provider's tables (schema.ts). An account's sessions, grants, codes and tokens (every model
 * whose payload names it as `accountId`) and its site sign-ins go with the account; the signing keys are nobody's.
 */
export const oidcData: DataOwner = {
  module: 'oidc',
  tables: [
    { name: 'oidc_models', onErasure: 'erase' },
    { name: 'oidc_site_sign_ins', onErasure: 'erase' },
    {
      name: 'oidc_signing_keys',
      onErasure: 'keep',
      why: 'the provider’s own signing keys, no account’s data; a rotated-out key is purged once no longer published',
    },
  ],
  async erase(tx, { userId }) {
    await tx.execute(sql`DELETE FROM oidc_models WHERE payload->>'accountId' = ${userId}`);
    // As text: the models above take any account id, even one that is no uuid.
    await tx.execute(sql`DELETE FROM oidc_site_sign_ins WHERE user_id::text = ${userId}`);
  },
  purge(db, now) {
    const before = new Date(now.getTime() - EXPIRED_KEPT_MS).toISOString();
    const signInsBefore = new Date(now.getTime() - SIGN_INS_KEPT_MS).toISOString();
    // A key that stopped signing leaves the JWKS once its tokens have expired (signing-keys.ts).
    const retiredBefore = new Date(now.getTime() - PUBLISHED_AFTER_RETIREMENT_MS).toISOString();
    return purgeEach(db, {
      oidc_models: sql`DELETE FROM oidc_models WHERE expires_at < ${before}`,
      // Ended, or made before any grant still alive could be (Grant lives 30 days, provider.ts).
      oidc_site_sign_ins: sql`DELETE FROM oidc_site_sign_ins
      WHERE ended_at < ${before} OR created_at < ${signInsBefore}`,
      oidc_signing_keys: sql`DELETE FROM oidc_signing_keys WHERE retired_at <= ${retiredBefore}`,
    });
  },
};

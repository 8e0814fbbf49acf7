import { sql } from 'drizzle-orm';
import type { DataOwner } from '../../db/data-owners.js';

/** The authenticator and its recovery codes (schema.ts) go with the account. */
export const twoFactorData: DataOwner = {
  module: 'two-factor',
  tables: [
    { name: 'two_factor_recovery_codes', onErasure: 'erase' },
    { name: 'two_factor_authenticators', onErasure: 'erase' },
  ],
  async erase(tx, { userId }) {
    await tx.execute(sql`DELETE FROM two_factor_recovery_codes WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM two_factor_authenticators WHERE user_id = ${userId}`);
  },
};

import { accountRowsOwner } from '../../db/data-owners.js';

/** The e-mail changes (schema.ts): erased with the account, purged a day after confirmation. */
export const profileData = accountRowsOwner({
  module: 'profile',
  tables: ['email_changes'],
  purge: [{ table: 'email_changes', after: 'current_confirmed_at', keptMs: 24 * 60 * 60_000 }],
});

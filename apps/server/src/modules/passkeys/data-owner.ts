import { accountRowsOwner } from '../../db/data-owners.js';

/** The passkeys and their challenges (schema.ts): erased with the account. */
export const passkeysData = accountRowsOwner({
  module: 'passkeys',
  tables: ['passkeys', 'passkey_challenges'],
  // An expired challenge is kept a day, then nothing reads it.
  purge: [{ table: 'passkey_challenges', after: 'expires_at', keptMs: 24 * 60 * 60_000 }],
});

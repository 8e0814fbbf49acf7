import { accountRowsOwner } from '../../db/data-owners.js';

/** The link tokens (schema.ts): erased with the account, purged a day after they expire. */
export const telegramData = accountRowsOwner({
  module: 'telegram',
  tables: ['telegram_link_tokens'],
  purge: [{ table: 'telegram_link_tokens', after: 'expires_at', keptMs: 24 * 60 * 60_000 }],
});

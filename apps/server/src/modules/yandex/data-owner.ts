import { accountRowsOwner } from '../../db/data-owners.js';

/**
 * The sign-in flows (schema.ts): erased with the account, purged a day after they expire. A
 * spent state must outlive its signature's 10 minutes, or the callback would take it again.
 */
export const yandexData = accountRowsOwner({
  module: 'yandex',
  tables: ['yandex_flows'],
  purge: [{ table: 'yandex_flows', after: 'expires_at', keptMs: 24 * 60 * 60_000 }],
});

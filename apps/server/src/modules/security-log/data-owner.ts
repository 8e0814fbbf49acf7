import { accountRowsOwner } from '../../db/data-owners.js';

/** The security log (schema.ts): erased with the account, purged after a year, as README.md promises. */
export const securityLogData = accountRowsOwner({
  module: 'security-log',
  tables: ['security_events'],
  purge: [{ table: 'security_events', after: 'occurred_at', keptMs: 365 * 24 * 60 * 60_000 }],
});

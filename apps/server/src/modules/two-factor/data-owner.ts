import { accountRowsOwner } from '../../db/data-owners.js';

/** The authenticator and its recovery codes (schema.ts) go with the account. */
export const twoFactorData = accountRowsOwner({
  module: 'two-factor',
  tables: ['two_factor_recovery_codes', 'two_factor_authenticators'],
});

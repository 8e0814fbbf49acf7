import type { DataOwner } from '../../db/data-owners.js';

/**
 * The users table (schema.ts). Its row is the erasure's first lock (`lockUserBalances`) and its
 * last step (`eraseUserIdentity`, which leaves a tombstone); account-data/erasure.ts calls both
 * itself, since the first decides whether the erasure goes on and the last whether it happened.
 */
export const accountsData: DataOwner = {
  module: 'accounts',
  tables: [
    {
      name: 'users',
      onErasure: 'erase',
      why: 'to a tombstone by eraseUserIdentity, last: the money records point at its id',
    },
  ],
};

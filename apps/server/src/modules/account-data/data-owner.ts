import type { DataOwner } from '../../db/data-owners.js';

/** The deletions waiting (schema.ts). */
export const accountDataData: DataOwner = {
  module: 'account-data',
  tables: [
    {
      name: 'account_deletions',
      onErasure: 'erase',
      why: 'claimed (deleted) first by the erasure itself, so two runs erase an account once',
    },
  ],
};

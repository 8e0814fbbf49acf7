import type { DataOwner } from '../../db/data-owners.js';

/**
 * The support staff's record, its money requests and the portal's note about itself (schema.ts).
 */
export const operatorData: DataOwner = {
  module: 'operator',
  tables: [
    {
      name: 'operator_actions',
      onErasure: 'keep',
      why: 'the append-only record of what staff did and why; the database refuses changes',
    },
    {
      name: 'money_requests',
      onErasure: 'keep',
      why: 'a money record: what staff asked to move, who decided, and why',
    },
    { name: 'portal_runtime', onErasure: 'keep', why: 'one row about the portal, no account' },
  ],
};

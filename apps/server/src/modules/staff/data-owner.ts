import type { DataOwner } from '../../db/data-owners.js';
import { deleteStaffRowsOf } from './repository.js';

/**
 * Staff roles and the members' proofs (schema.ts). An erased account holds no role; who granted
 * and took back roles stays in the audit (operator_actions, modules/operator).
 */
export const staffData: DataOwner = {
  module: 'staff',
  tables: [
    { name: 'staff_roles', onErasure: 'erase' },
    { name: 'staff_proofs', onErasure: 'erase' },
  ],
  async erase(tx, account) {
    await deleteStaffRowsOf(tx, account.userId);
  },
};

import { sql } from 'drizzle-orm';
import type { DataOwner } from '../../db/data-owners.js';

const MONEY = 'a money record: kept for the accounts and the tax service, never erased';

/**
 * The money (schema.ts) stays after an erasure; only the customer's e-mail and phone are taken
 * out of the receipts the provider reported (the raw `Receipt` part).
 */
export const paymentsData: DataOwner = {
  module: 'payments',
  tables: [
    { name: 'payments', onErasure: 'keep', why: MONEY },
    { name: 'ledger_entries', onErasure: 'keep', why: MONEY },
    { name: 'payment_refunds', onErasure: 'keep', why: MONEY },
    {
      name: 'receipts',
      onErasure: 'keep',
      why: 'a fiscal record; its raw Receipt (the customer’s e-mail and phone) is erased',
    },
  ],
  async erase(tx, { userId }) {
    await tx.execute(sql`UPDATE receipts SET raw = raw - 'Receipt' WHERE user_id = ${userId}`);
  },
};

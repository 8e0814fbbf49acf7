import { sql } from 'drizzle-orm';
import type { DataOwner } from '../../db/data-owners.js';

/**
 * The sandbox's copy of each payment (schema.ts) stays with the payment it stands for; the
 * customer's e-mail and phone are taken out of the receipt sent with Init.
 */
export const paymentSandboxData: DataOwner = {
  module: 'payment-sandbox',
  tables: [
    {
      name: 'sandbox_payments',
      onErasure: 'keep',
      why: 'the provider’s side of a kept payment; the receipt’s e-mail and phone are erased',
    },
  ],
  async erase(tx, { userId }) {
    await tx.execute(sql`UPDATE sandbox_payments SET receipt = receipt - 'Email' - 'Phone'
    WHERE receipt IS NOT NULL
      AND order_id IN (SELECT id::text FROM payments WHERE user_id = ${userId})`);
  },
};

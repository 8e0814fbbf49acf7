import type { DataOwner } from '../../db/data-owners.js';

const MONEY = 'what was bought and charged: a money record, kept with the ledger';

/** The services and their orders (schema.ts) stay after an erasure: they are paid for. */
export const serversData: DataOwner = {
  module: 'servers',
  tables: [
    { name: 'services', onErasure: 'keep', why: MONEY },
    { name: 'service_orders', onErasure: 'keep', why: MONEY },
  ],
};

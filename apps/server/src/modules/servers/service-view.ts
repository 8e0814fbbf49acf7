import { kopecksToRoubles } from '@portal/contracts/common';
import type { OwnerService } from '@portal/contracts/services';
import type { ServiceRow } from './schema.js';

/** A service as the owner and the sibling API see it: `amount` is the price, `message` the name. */
export function toOwnerService(row: ServiceRow): OwnerService {
  return {
    id: row.id,
    amount: kopecksToRoubles(row.priceKopecks),
    message: row.name,
    serverCount: row.serverCount,
    autoRenew: row.autoRenew,
    manageUrl: row.manageUrl,
    paidUntil: row.paidUntil.toISOString(),
    status: row.status,
  };
}

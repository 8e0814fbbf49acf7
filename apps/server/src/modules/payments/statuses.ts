/**
 * T-Bank payment statuses (integrations.md §1) ordered so that a payment's status only moves
 * forward: before payment < failed < confirmed < refunded. A CONFIRMED after a failure still
 * wins: a signed report that money was taken outranks an earlier one that it was not.
 */
const RANK: Record<string, number> = {
  INIT_FAILED: 0,
  NEW: 1,
  FORM_SHOWED: 2,
  AUTHORIZING: 3,
  '3DS_CHECKING': 4,
  '3DS_CHECKED': 5,
  AUTHORIZED: 6,
  CONFIRMING: 7,
  CANCELED: 10,
  DEADLINE_EXPIRED: 10,
  ATTEMPTS_EXPIRED: 10,
  REJECTED: 10,
  AUTH_FAIL: 10,
  REVERSED: 10,
  PARTIAL_REVERSED: 10,
  CONFIRMED: 20,
  REFUNDING: 21,
  ASYNC_REFUNDING: 21,
  PARTIAL_REFUNDED: 22,
  REFUNDED: 30,
};

function statusRank(status: string): number {
  return RANK[status] ?? -1;
}

/** The later of two statuses; the current one when the report is older or unknown. */
export function laterStatus(current: string, reported: string): string {
  return statusRank(reported) > statusRank(current) ? reported : current;
}

/** Not paid yet and not finished: what reconciliation asks the provider about. */
export const UNSETTLED_STATUSES = [
  'NEW',
  'FORM_SHOWED',
  'AUTHORIZING',
  '3DS_CHECKING',
  '3DS_CHECKED',
  'AUTHORIZED',
  'CONFIRMING',
] as const;

export const FAILED_STATUSES = new Set([
  'DEADLINE_EXPIRED',
  'ATTEMPTS_EXPIRED',
  'REJECTED',
  'AUTH_FAIL',
]);

export const CANCELED_STATUSES = new Set(['CANCELED', 'REVERSED', 'PARTIAL_REVERSED']);

/**
 * T-Bank payment statuses ordered so that a payment's status only moves
 * forward: before payment < failed < confirmed < refunded. A CONFIRMED after a failure still
 * wins: a signed report that money was taken outranks an earlier one that it was not.
 * INIT_FAILED (ours: the customer never got the page) ranks with the failures, so the CANCELED
 * report that follows our own Cancel of such a payment does not replace it.
 */
const RANK: Record<string, number> = {
  NEW: 1,
  FORM_SHOWED: 2,
  AUTHORIZING: 3,
  '3DS_CHECKING': 4,
  '3DS_CHECKED': 5,
  AUTHORIZED: 6,
  CONFIRMING: 7,
  INIT_FAILED: 10,
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

export function statusRank(status: string): number {
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

/** Waiting for the customer: nothing has happened to the money yet. */
export const WAITING_STATUSES = ['NEW', 'FORM_SHOWED'] as const;

/**
 * Top-ups the customer never finished: never handed to them (INIT_FAILED, also set by
 * reconciliation for a payment whose start was interrupted), or left unpaid until the page's
 * lifetime ran out (DEADLINE_EXPIRED).
 */
export const UNFINISHED_STATUSES = new Set(['INIT_FAILED', 'DEADLINE_EXPIRED']);

/** The bank refused the payment. */
export const FAILED_STATUSES = new Set(['ATTEMPTS_EXPIRED', 'REJECTED', 'AUTH_FAIL']);

export const CANCELED_STATUSES = new Set(['CANCELED', 'REVERSED', 'PARTIAL_REVERSED']);

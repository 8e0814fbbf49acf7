import type { PaymentHistoryItem } from '@portal/contracts/wallet';

export type HistoryEntryView = {
  status: PaymentHistoryItem['status'];
  /** Where to go back and pay: only while the top-up's page is still open. */
  continueUrl: string | null;
};

/**
 * How an entry reads at `now`. The server says `pending` as of its answer, which the browser may
 * show for a while; past `expiresAt` the page can no longer be paid, so the top-up is unfinished
 * and there is nothing to continue.
 */
export function historyEntryView(item: PaymentHistoryItem, now: number): HistoryEntryView {
  if (item.status !== 'pending') return { status: item.status, continueUrl: null };
  if (item.expiresAt && Date.parse(item.expiresAt) <= now) {
    return { status: 'unfinished', continueUrl: null };
  }
  return { status: 'pending', continueUrl: item.continueUrl ?? null };
}

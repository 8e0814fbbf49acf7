import { useSyncExternalStore } from 'react';
import type { ApiFailure } from '@/shared/api/api-failure';

/**
 * The staff's step-up, shared by every staff call: a call the server refused with 403
 * `staff_proof_required` asks here for a proof and waits. One dialog (staff-proof-dialog.tsx,
 * mounted by the staff area) answers every call waiting at the time: `true` once the member
 * proved themselves (the calls are repeated), `false` when they closed it (the calls keep their
 * refusal). Module state, as the toasts' (shared/ui/toast.ts): the calls run in RTK Query's
 * endpoints, outside React.
 */
let waiting: ((proven: boolean) => void)[] = [];
const listeners = new Set<() => void>();

function changed() {
  for (const listener of listeners) listener();
}

/** The server asks for a fresh staff proof before it answers this call. */
export function isStaffProofRequired(failure: ApiFailure): boolean {
  return failure.status === 403 && failure.reason === 'staff_proof_required';
}

/** Waits for the member's proof: true when given, false when the dialog was closed without it. */
export function askStaffProof(): Promise<boolean> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    changed();
  });
}

/** Ends the wait of every call asking now: `proven` or not. */
export function settleStaffProof(proven: boolean): void {
  const settled = waiting;
  waiting = [];
  for (const resolve of settled) resolve(proven);
  changed();
}

/** Whether a staff call waits for a proof now. */
export const isStaffProofAsked = () => waiting.length > 0;

/** Whether a staff call waits for a proof (the dialog is open while it does). */
export function useStaffProofAsked(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isStaffProofAsked,
    isStaffProofAsked,
  );
}

/**
 * The proof-then-retry of the customer's dialogs (features/security/use-proof-then-retry.ts) at
 * the level of the staff's calls, reads and changes alike: `call` runs; refused for want of a
 * proof, it waits for one and runs again, as often as the server asks; without a proof (the
 * dialog closed), the refusal is the answer.
 */
export async function withStaffProof<Result extends { error?: ApiFailure }>(
  call: () => Promise<Result>,
): Promise<Result> {
  for (;;) {
    const result = await call();
    if (!result.error || !isStaffProofRequired(result.error)) return result;
    if (!(await askStaffProof())) return result;
  }
}

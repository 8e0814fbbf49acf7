import { useCallback, useState } from 'react';
import { type ApiFailure, failureOf, isProofRequired } from '@/shared/api/api-failure';

/**
 * The proof-then-retry step of a dialog whose action the server may refuse until the session
 * proves its owner again (403 `proof_required`). `attempt(action)` runs the action; on that
 * refusal the dialog shows `<ProofStep {...proofStep} />` in its place (`isProving`), and the proof
 * runs the same action again, as often as the server asks. Any other refusal, first time or after
 * the proof, is `onRefused`'s: a toast, or a message in the dialog.
 */
export function useProofThenRetry(onRefused: (failure: ApiFailure) => void) {
  const [retry, setRetry] = useState<(() => Promise<void>) | null>(null);
  // The same function on every render: dialogs call it from an effect when they open.
  const reset = useCallback(() => setRetry(null), []);

  async function attempt(action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      const failure = failureOf(error);
      if (isProofRequired(failure)) setRetry(() => () => attempt(action));
      else onRefused(failure);
    }
  }

  return {
    attempt,
    isProving: retry !== null,
    /** Leaves the proof step without the action: the dialog closed, or opens anew. */
    reset,
    /**
     * ProofStep's `onProven`: the proof is in, the action runs again while the step stays on
     * screen; then the step goes, unless the server asked for a proof once more.
     */
    onProven: async () => {
      const again = retry;
      await again?.();
      setRetry((current) => (current === again ? null : current));
    },
  };
}

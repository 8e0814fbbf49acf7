import { useCallback, useEffect, useState } from 'react';
import type { RequestStatus } from '@/shared/lib/request-status';

export type Loaded<T> = { status: RequestStatus; data: T | null; reload: () => void };

/** Loads once on mount (and on `reload`); a request left behind by unmounting is aborted. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ status: RequestStatus; data: T | null }>({
    status: 'loading',
    data: null,
  });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the reload trigger; `load` is a module function.
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ status: 'loading', data: previous.data }));
    load(controller.signal).then(
      (data) => setState({ status: 'success', data }),
      () => {
        if (!controller.signal.aborted) setState({ status: 'failed', data: null });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  return { ...state, reload };
}

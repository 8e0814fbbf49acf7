import { useCallback, useEffect, useRef } from 'react';

/**
 * A signal aborted when the component unmounts: a dialog's content does when the dialog closes,
 * so a request it started gives up with it, and an answer that still comes can be told apart
 * (`signal.aborted`) and ignored. A new mounting gets a new signal.
 */
export function useUnmountSignal(): () => AbortSignal {
  const controllerRef = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    controllerRef.current = controller;
    return () => controller.abort();
  }, []);
  return useCallback(() => {
    controllerRef.current ??= new AbortController();
    return controllerRef.current.signal;
  }, []);
}

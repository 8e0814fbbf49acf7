import { useCallback, useEffect, useState } from 'react';

/**
 * Whole seconds left until a deadline, ticking once a second. Computed from the clock, not by
 * counting ticks, so a throttled background tab still shows the right number when it wakes.
 * Starts at `initialSeconds` (0: nothing to wait for until `start` is called).
 */
export function useCountdown(initialSeconds = 0) {
  const [deadline, setDeadline] = useState(() => Date.now() + initialSeconds * 1000);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (deadline <= Date.now()) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= deadline) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline]);

  const start = useCallback((seconds: number) => {
    const current = Date.now();
    setNow(current);
    setDeadline(current + seconds * 1000);
  }, []);

  return { secondsLeft: Math.max(0, Math.ceil((deadline - now) / 1000)), start };
}

/** '1:05': the seconds left, as resend buttons show them. */
export function formatCountdown(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

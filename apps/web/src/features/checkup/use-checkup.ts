import type { CheckupAnswer } from '@portal/contracts/checkup';
import { useEffect, useState } from 'react';
import { useAppSelector } from '@/app/hooks';
import { selectUser } from '@/features/auth';
import { getCheckup } from './api/get-checkup';

/**
 * The checkup of the signed-in account: read again whenever the user answer changes (a switch
 * turned, Telegram unlinked) and when the window regains the focus (a dialog in another tab). A
 * failed read shows nothing: the checkup is advice, never in the way.
 */
export function useCheckup(): CheckupAnswer | null {
  const user = useAppSelector(selectUser);
  const [answer, setAnswer] = useState<CheckupAnswer | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    const again = () => setRound((value) => value + 1);
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the user and the round only trigger a new read.
  useEffect(() => {
    const controller = new AbortController();
    getCheckup(controller.signal).then(setAnswer, () => {});
    return () => controller.abort();
  }, [user, round]);

  return answer;
}

import type { CheckupAnswer } from '@portal/contracts/checkup';
import { useCheckupQuery } from './api/checkup-api';

/**
 * The checkup of the signed-in account: read again whenever the user is read or changed (a switch
 * turned, Telegram unlinked: the `User` tag, invalidated by the store on every user answer) and
 * when the window regains the focus (a dialog in another tab). A failed read shows nothing: the
 * checkup is advice, never in the way.
 */
export function useCheckup(): CheckupAnswer | null {
  return useCheckupQuery(undefined, { refetchOnFocus: true }).data ?? null;
}

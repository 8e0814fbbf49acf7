import type { StaffMeAnswer } from '@portal/contracts/staff';
import { createContext, use } from 'react';

/** The signed-in member (`…/me`), given by the staff area to its pages. */
export const MeContext = createContext<StaffMeAnswer | null>(null);

export function useMe(): StaffMeAnswer {
  const me = use(MeContext);
  if (!me) throw new Error('useMe outside the staff area');
  return me;
}

import type { StaffMeAnswer } from '@portal/contracts/staff';
import { failureOf } from '@/shared/api/api-failure';

/** What the staff area shows, from the answer to `…/me`. */
export type StaffEntry =
  | { kind: 'loading' }
  /** 404: not staff. The app's ordinary not-found page, so a customer learns nothing. */
  | { kind: 'not-found' }
  | { kind: 'failed'; error: unknown }
  /** Staff without a passkey or the authenticator: nothing to prove themselves with. */
  | { kind: 'needs-factor' }
  | { kind: 'ready'; me: StaffMeAnswer };

/** `…/me`'s query as the entry reads it (RTK Query's result has these and more). */
type MeRead = { data?: StaffMeAnswer; error?: unknown; isError: boolean };

export function staffEntry(me: MeRead): StaffEntry {
  // A 404 holds while `…/me` is read again (its error stays until the next answer): read as
  // loaded, the last member's data would bring back the frame of a role that is gone, whose page
  // would get its own 404 and read `…/me` again, round and round.
  if (me.error !== undefined && failureOf(me.error).status === 404) return { kind: 'not-found' };
  if (me.isError) return { kind: 'failed', error: me.error };
  if (!me.data) return { kind: 'loading' };
  if (me.data.proofMethods.length === 0) return { kind: 'needs-factor' };
  return { kind: 'ready', me: me.data };
}

import type { HandOffAnswer } from '@portal/contracts/auth';
import { msApi } from '@/shared/api/http';

/**
 * Asks the server for a sibling-site link carrying a fresh single-use hand-off code
 * (docs/decisions/0010-sibling-sites-and-their-sessions.md). The server refuses links whose origin
 * is not on its allow-list.
 */
export async function postHandOff(link: string): Promise<HandOffAnswer> {
  const { data } = await msApi.post<HandOffAnswer>(
    '/authms/api/Auth/handoff',
    { link },
    { requiresAuth: true },
  );
  return data;
}

import { handOffAnswerSchema } from '@portal/contracts/auth';
import { msApi } from '@/shared/api/http';

/**
 * A sibling-site link "with the token" carries a single-use hand-off code, never the access token
 * (docs/decisions/0010-sibling-sites-and-their-sessions.md). The server answers the link with the
 * code in its `token` parameter.
 */
export async function requestHandOff(link: string): Promise<string> {
  const { data } = await msApi.post<unknown>(
    '/authms/api/Auth/handoff',
    { link },
    { requiresAuth: true },
  );
  return handOffAnswerSchema.parse(data).url;
}

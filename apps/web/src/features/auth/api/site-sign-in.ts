import type { InteractionSignInAnswer } from '@portal/contracts/oidc';
import { api } from '@/shared/api/http';

/**
 * Finishes a brand site's OpenID sign-in (`/auth?interaction=<id>`) with this session; the answer
 * is where the browser goes on. The provider's interaction cookie must come along, so the call
 * goes to the portal's own origin (`api`, as the Yandex ID exchange does).
 */
export async function postSiteSignIn(interaction: string): Promise<InteractionSignInAnswer> {
  const { data } = await api.post<InteractionSignInAnswer>(
    `/oidc/interaction/${encodeURIComponent(interaction)}/sign-in`,
    undefined,
    { requiresAuth: true },
  );
  return data;
}

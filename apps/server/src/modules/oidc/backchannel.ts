/**
 * OpenID Connect Back-Channel Logout 1.0, delivered through the portal's retried outbox
 * (adapters/mail.ts: the same claims, lease and growing pauses as letters), so a site down for a
 * while still hears of the sign-out once it is back. The logout token is made, signed and posted
 * by the library (`client.backchannelLogout(sub, sid)`); a refusal or no answer is a failed
 * attempt, retried.
 */
import type Provider from 'oidc-provider';
import type { ItemDeliverer } from '../../adapters/mail.js';

/** The outbox's kind of item for a back-channel logout. */
export const BACKCHANNEL_LOGOUT = 'oidc_backchannel_logout';

/** What the outbox keeps of one: the site, the account (`sub`) and its session there (`sid`). */
export interface BackchannelLogout {
  clientId: string;
  sub: string;
  sid: string;
}

/** The outbox's deliverer of back-channel logouts, through the library. */
export function deliverBackchannelLogout(currentProvider: () => Provider): ItemDeliverer {
  return async (payload) => {
    const { clientId, sub, sid } = payload as unknown as BackchannelLogout;
    // Not in the library's types; documented in its docs/README.md (features.backchannelLogout).
    // Signed with the keys of now: the provider as the last rotation left it (live-provider.ts).
    const client = (await currentProvider().Client.find(clientId)) as
      | (InstanceType<Provider['Client']> & {
          backchannelLogout(sub: string, sid: string): Promise<void>;
        })
      | undefined;
    // A site taken out of OIDC_CLIENTS, or no longer listening: nothing left to tell.
    if (!client?.backchannelLogoutUri) return;
    await client.backchannelLogout(sub, sid);
  };
}

import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../account-data/plugin.js';
import type {} from '../auth/plugin.js';
import type {} from '../security/plugin.js';
import type {} from '../security-log/plugin.js';
import {
  BACKCHANNEL_LOGOUT,
  type BackchannelLogout,
  deliverBackchannelLogout,
} from './backchannel.js';
import { oidcData } from './data-owner.js';
import { OidcInteractions } from './interactions.js';
import { assertClientsAccepted, createOidcProvider } from './provider.js';
import { interactionRoutes, providerRoutes } from './routes.js';
import { SigningKeys } from './signing-keys.js';
import { SiteSignIns } from './site-sign-ins.js';

/**
 * The brand's OpenID Provider (README.md): the signing keys are read (made on the first start),
 * the provider is built on the portal's database, its endpoints are mounted, and the portal's
 * sign-in bridge is added beside them. After account-data: a sign-in to a site is refused while
 * the account waits for its deletion. After security: a site's sign-in is a row of its devices
 * list, and every end of a portal session ends the sites signed in through it.
 */
export const oidcPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(oidcData);
    const { config, db, clock, accountDeletion, mail, securityLog, sessions, devices } = app.deps;
    const signingKeys = await new SigningKeys({ db, clock, secretKey: config.SECRET_KEY }).load();
    const siteSignIns = new SiteSignIns({
      db,
      clock,
      clients: config.OIDC_CLIENTS,
      mail,
      securityLog,
      sessions,
    });
    const provider = createOidcProvider({ config, db, clock, signingKeys, siteSignIns });
    await assertClientsAccepted(provider, config.OIDC_CLIENTS);
    // Back-channel logouts go through the retried outbox: those of the portal's sign-outs
    // (site-sign-ins.ts), and those a site's own logout could not deliver at once.
    mail.deliverKind(BACKCHANNEL_LOGOUT, deliverBackchannelLogout(provider));
    provider.on('backchannel.error', (_ctx, _error, client, sub: string, sid: string) => {
      const logout: BackchannelLogout = { clientId: client.clientId, sub, sid };
      mail.enqueueItem(BACKCHANNEL_LOGOUT, { ...logout }).catch((error: unknown) => {
        app.log.error({ err: error }, 'back-channel logout not queued');
      });
    });
    sessions.onRevoked(siteSignIns.endForPortalSessions);
    devices.useSiteSignIns({
      list: (userId) => siteSignIns.devices(userId),
      end: (userId, id) => siteSignIns.endOne(userId, id),
    });
    const interactions = new OidcInteractions({
      provider,
      db,
      clock,
      deletionDueAt: async (userId) => (await accountDeletion.status(userId)).dueAt,
      supportUrl: config.SUPPORT_URL,
    });
    await app.register(providerRoutes, { provider });
    await app.register(interactionRoutes, { interactions });
  },
  {
    name: 'oidc',
    dependencies: ['core', 'auth', 'security-log', 'security', 'account-data'],
  },
);

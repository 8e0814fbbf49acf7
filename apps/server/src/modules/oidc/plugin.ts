import fp from 'fastify-plugin';
import type Provider from 'oidc-provider';
import type {} from '../../core-plugin.js';
import { schedulePeriodicJob } from '../../jobs/periodic-job.js';
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
import { LiveProvider } from './live-provider.js';
import { assertClientsAccepted, createOidcProvider } from './provider.js';
import { interactionRoutes, providerRoutes } from './routes.js';
import { RELOAD_EVERY_S, SigningKeys } from './signing-keys.js';
import { SiteSignIns } from './site-sign-ins.js';

declare module '../../deps.js' {
  interface AppDeps {
    /** The provider's signing keys: listed and rotated by the operator's tool. */
    oidcSigningKeys: SigningKeys;
    /** The provider as the keys are now (live-provider.ts). */
    oidcProvider: LiveProvider;
  }
}

/**
 * The brand's OpenID Provider (README.md): the signing keys are read (made on the first start)
 * and read again every minute, the provider is built on the portal's database (again when the
 * keys change), its endpoints are mounted, and the portal's sign-in bridge is added beside them.
 * After account-data: a sign-in to a site is refused while the account waits for its deletion.
 * After security: a site's sign-in is a row of its devices list, and every end of a portal session
 * ends the sites signed in through it.
 */
export const oidcPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(oidcData);
    const { config, db, clock, userReads, accountDeletion, mail, securityLog, sessions, devices } =
      app.deps;
    const siteSignIns = new SiteSignIns({
      db,
      clock,
      clients: config.OIDC_CLIENTS,
      mail,
      securityLog,
      sessions,
      userReads,
    });
    // Everything attached to the library's provider is attached here: a rotation builds another.
    const build = (keys: Parameters<typeof createOidcProvider>[0]['signingKeys']): Provider => {
      const built = createOidcProvider({
        config,
        db,
        clock,
        userReads,
        signingKeys: keys,
        siteSignIns,
      });
      // What a site's own logout could not deliver at once goes to the retried outbox.
      built.on('backchannel.error', (_ctx, _error, client, sub: string, sid: string) => {
        const logout: BackchannelLogout = { clientId: client.clientId, sub, sid };
        mail.enqueueItem(BACKCHANNEL_LOGOUT, { ...logout }).catch((error: unknown) => {
          app.log.error({ err: error }, 'back-channel logout not queued');
        });
      });
      return built;
    };
    const signingKeys = new SigningKeys({ db, clock, secretKey: config.SECRET_KEY });
    const provider = new LiveProvider({ signingKeys, build });
    await provider.refresh();
    await assertClientsAccepted(provider.current(), config.OIDC_CLIENTS);
    app.deps.oidcSigningKeys = signingKeys;
    app.deps.oidcProvider = provider;
    // A rotation reaches every process within a period (signing-keys.ts has the timeline).
    schedulePeriodicJob(app, 'oidc-signing-keys', RELOAD_EVERY_S, async () => ({
      rebuilt: await provider.refresh(),
    }));
    // Back-channel logouts go through the retried outbox: those of the portal's sign-outs
    // (site-sign-ins.ts), and those a site's own logout could not deliver at once.
    mail.deliverKind(
      BACKCHANNEL_LOGOUT,
      deliverBackchannelLogout(() => provider.current()),
    );
    sessions.onRevoked(siteSignIns.endForPortalSessions);
    devices.useSiteSignIns({
      list: (userId) => siteSignIns.devices(userId),
      end: (userId, id) => siteSignIns.endOne(userId, id),
    });
    const interactions = new OidcInteractions({
      provider,
      db,
      userReads,
      clock,
      deletionDueAt: async (userId) => (await accountDeletion.status(userId)).dueAt,
      portalSessionOf: (uid) => siteSignIns.portalSessionOf(uid),
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

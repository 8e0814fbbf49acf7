import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import { schedulePeriodicJob } from '../../jobs/periodic-job.js';
import type {} from '../account-data/plugin.js';
import type {} from '../auth/plugin.js';
import { oidcData } from './data-owner.js';
import { OidcInteractions } from './interactions.js';
import { LiveProvider } from './live-provider.js';
import { assertClientsAccepted, createOidcProvider } from './provider.js';
import { interactionRoutes, providerRoutes } from './routes.js';
import { RELOAD_EVERY_S, SigningKeys } from './signing-keys.js';

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
 * and read again every minute, the provider is built on the portal's database, its endpoints are mounted, and the portal's
 * sign-in bridge is added beside them. After account-data: a sign-in to a site is refused while
 * the account waits for its deletion.
 */
export const oidcPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(oidcData);
    const { config, db, clock, accountDeletion } = app.deps;
    const signingKeys = new SigningKeys({ db, clock, secretKey: config.SECRET_KEY });
    const provider = new LiveProvider({
      signingKeys,
      build: (keys) => createOidcProvider({ config, db, clock, signingKeys: keys }),
    });
    await provider.refresh();
    await assertClientsAccepted(provider.current(), config.OIDC_CLIENTS);
    app.deps.oidcSigningKeys = signingKeys;
    app.deps.oidcProvider = provider;
    // A rotation reaches every process within a period (signing-keys.ts has the timeline).
    schedulePeriodicJob(app, 'oidc-signing-keys', RELOAD_EVERY_S, async () => ({
      rebuilt: await provider.refresh(),
    }));
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
  { name: 'oidc', dependencies: ['core', 'auth', 'account-data'] },
);

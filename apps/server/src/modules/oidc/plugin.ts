import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../account-data/plugin.js';
import type {} from '../auth/plugin.js';
import { oidcData } from './data-owner.js';
import { OidcInteractions } from './interactions.js';
import { assertClientsAccepted, createOidcProvider } from './provider.js';
import { interactionRoutes, providerRoutes } from './routes.js';
import { SigningKeys } from './signing-keys.js';

/**
 * The brand's OpenID Provider (README.md): the signing keys are read (made on the first start),
 * the provider is built on the portal's database, its endpoints are mounted, and the portal's
 * sign-in bridge is added beside them. After account-data: a sign-in to a site is refused while
 * the account waits for its deletion.
 */
export const oidcPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(oidcData);
    const { config, db, clock, accountDeletion } = app.deps;
    const signingKeys = await new SigningKeys({ db, clock, secretKey: config.SECRET_KEY }).load();
    const provider = createOidcProvider({ config, db, clock, signingKeys });
    await assertClientsAccepted(provider, config.OIDC_CLIENTS);
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

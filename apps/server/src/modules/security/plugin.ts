import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../auth/plugin.js';
import type {} from '../passkeys/plugin.js';
import type {} from '../security-log/plugin.js';
import type {} from '../two-factor/plugin.js';
import { securityData } from './data-owner.js';
import { NotMeLinks } from './not-me-links.js';
import { securityRoutes } from './routes.js';

declare module '../../deps.js' {
  interface AppDeps {
    /** Signs and checks the «Это был не я» links (the Telegram notice carries one too). */
    notMeLinks: NotMeLinks;
  }
}

/** Devices, signing out everywhere, password reset and change, fresh proof of the owner. */
export const securityPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(securityData);
    const { config } = app.deps;
    app.deps.notMeLinks = new NotMeLinks(config.SECRET_KEY, config.PUBLIC_URL);
    await app.register(securityRoutes);
  },
  { name: 'security', dependencies: ['core', 'auth', 'security-log', 'two-factor', 'passkeys'] },
);
